"""Fuzzing settings.toml: random bytes, mutated saved files and random TOML documents (real
section and key names with values of any type, NaN and infinity included) must each load as
valid settings or as the defaults with a one-line notice, never raise. Seeded; under a second."""

from __future__ import annotations

import dataclasses
import datetime
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import tomli_w

from app.settings.schema import Settings
from app.settings.store import SettingsStore, settings_from_document, settings_to_document

SEED = 20261201
N_CASES = 300

SECTIONS = {f.name: [g.name for g in dataclasses.fields(f.type if isinstance(f.type, type) else
                                                          type(getattr(Settings(), f.name)))]
            for f in dataclasses.fields(Settings)}


def random_value(rng: np.random.Generator, depth: int = 0) -> Any:
    kind = int(rng.integers(0, 12 if depth < 2 else 9))
    scalars: list[Any] = [
        lambda: int(rng.integers(-(2**62), 2**62)), lambda: int(rng.integers(-3, 20)),
        lambda: float(rng.normal() * 10 ** int(rng.integers(-3, 300))),
        lambda: float(rng.choice([math.nan, math.inf, -math.inf, 0.0, -0.0])),
        lambda: bool(rng.integers(0, 2)), lambda: "".join(chr(int(c)) for c in rng.integers(1, 0x2FFF, 12)),
        lambda: str(rng.choice(["auto", "int8", "type", "hold", "transcribe", "", "de", "xx"])),
        lambda: datetime.datetime(2026, 1, 1, 12, 0), lambda: datetime.time(1, 2, 3),
    ]
    if kind < len(scalars):
        return scalars[kind]()
    if kind == 9:
        return [random_value(rng, depth + 1) for _ in range(int(rng.integers(0, 4)))]
    return {f"k{i}": random_value(rng, depth + 1) for i in range(int(rng.integers(0, 3)))}


def random_document(rng: np.random.Generator) -> dict[str, Any]:
    """Mostly the real schema with random values; sometimes unknown keys, scalars for tables."""
    document: dict[str, Any] = settings_to_document(Settings())
    for _ in range(int(rng.integers(1, 6))):
        section = str(rng.choice([*SECTIONS, "version", "extra"]))
        if section == "version" or rng.random() < 0.05:
            document[section] = random_value(rng)
            continue
        table = document.setdefault(section, {})
        if not isinstance(table, dict):
            continue
        keys = SECTIONS.get(section) or ["x"]
        table[str(rng.choice([*keys, "unknown"]))] = random_value(rng)
    return document


def mutated(rng: np.random.Generator, data: bytes) -> bytes:
    out = bytearray(data)
    choice = int(rng.integers(0, 3))
    if choice == 0:
        for i in rng.integers(0, len(out), rng.integers(1, 10)):
            out[i] = int(rng.integers(0, 256))
    elif choice == 1:
        out = out[: int(rng.integers(0, len(out)))]
    else:
        at = int(rng.integers(0, len(out)))
        out[at:at] = rng.bytes(int(rng.integers(1, 40)))
    return bytes(out)


def case_bytes(rng: np.random.Generator, saved: bytes) -> bytes:
    kind = int(rng.integers(0, 3))
    if kind == 0:
        return rng.bytes(int(rng.integers(0, 500)))
    if kind == 1:
        return mutated(rng, saved)
    return tomli_w.dumps(random_document(rng)).encode("utf-8")


def test_every_settings_file_loads_as_settings_or_defaults_with_a_notice(tmp_path: Path) -> None:
    rng = np.random.default_rng(SEED)
    saved = tomli_w.dumps(settings_to_document(Settings())).encode("utf-8")
    path = tmp_path / "settings.toml"
    outcomes = {"loaded": 0, "notice": 0}
    for case in range(N_CASES):
        path.write_bytes(case_bytes(rng, saved))
        try:
            result = SettingsStore(path).load()
        except Exception as error:  # the finding this test exists for
            pytest.fail(f"case {case}: {type(error).__name__}: {error}\n{path.read_bytes()[:300]!r}")
        if result.notice is None:
            assert settings_from_document(settings_to_document(result.settings)) == result.settings
            outcomes["loaded"] += 1
        else:
            assert "\n" not in result.notice and result.settings == Settings(), (case, result.notice)
            assert path.with_name("settings.toml.bak").exists()
            outcomes["notice"] += 1
    assert outcomes["loaded"] > 10 and outcomes["notice"] > 100, outcomes
