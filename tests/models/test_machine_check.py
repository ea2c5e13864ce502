"""What this machine can do: one 30 s window of real speech timed with the real tiny.en, cached."""

from __future__ import annotations

import json

from app.engine.models.machine_check import WINDOW_S, MachineCheck, cached_checks, check_model, recommend, speech_window
from app.engine.models.store import ModelStore
from app.engine.types import Precision


def test_the_window_is_30_s_of_speech() -> None:
    audio = speech_window()
    assert audio.shape == (int(WINDOW_S * 16_000),) and audio.dtype.name == "float32"
    assert 0.01 < float(abs(audio).mean()) < 0.5  # speech, not silence or clipping


def test_one_window_is_timed_once_and_cached() -> None:
    store = ModelStore()
    (store.cache_dir / "machine-check.json").unlink(missing_ok=True)
    first = check_model("tiny.en", Precision.FP32, store)
    assert first.model == "tiny.en" and first.precision == "fp32" and first.seconds > 0
    stored = json.loads((store.cache_dir / "machine-check.json").read_text())
    assert [row["seconds"] for row in stored.values()] == [first.seconds]
    assert check_model("tiny.en", Precision.FP32, store) == first  # read back, not measured again
    assert first in cached_checks(store)


def test_the_largest_model_that_keeps_up_is_recommended() -> None:
    checks = [MachineCheck("tiny.en", "int8", 2.0), MachineCheck("base", "int8", 6.0),
              MachineCheck("small", "int8", 14.0), MachineCheck("medium", "int8", 40.0)]
    assert [c.keeps_up for c in checks] == [True, True, True, False]  # at most half of real time
    assert recommend(checks) == "small"
    assert recommend([MachineCheck("medium", "int8", 40.0)]) is None
