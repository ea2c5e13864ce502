"""`earshot transcribe -f srt` on real long recordings: every cue of the default (readable) layout
within 42 characters x 2 lines and 7 s, at least 0.84 s, 2 frames apart, never overlapping,
mostly cut at sentence and clause ends, no sentence tail carried alone, and no word lost.
The 188 s file is the ten English clips of ../shared/data/speech joined with pauses; the 158 s
one is ../shared/data/speech2's sonnets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from earshot_testing import SHARED_SPEECH, needs_shared, read_wav, shared_english, write_wav
from long_recordings import utterances
from subtitle_rules import dangling_sentence_ends, ends_well, read_cues, rule_breaks
from test_transcribe_cli import earshot

from app.engine.wer import normalize

SONNETS = SHARED_SPEECH.parent / "speech2" / "en_librivox_sonnets_1to3_long.wav"


def _joined_clips(folder: Path) -> Path:
    clips = [(read_wav(SHARED_SPEECH / row["file"]), row["reference_text"]) for row in shared_english()]
    audio, _ = utterances(clips, 180)
    path = folder / "ten_clips_joined.wav"
    write_wav(path, audio)
    return path


@needs_shared
@pytest.mark.parametrize("recording", ["joined", "sonnets"])
def test_default_srt_of_a_long_recording_is_readable(tmp_path: Path, recording: str) -> None:
    source = _joined_clips(tmp_path) if recording == "joined" else SONNETS
    result = earshot("transcribe", str(source), "--format", "srt", "--format", "json", "--output-dir", str(tmp_path))
    assert result.returncode == 0, result.stderr
    document = json.loads((tmp_path / f"{source.stem}.json").read_text(encoding="utf-8"))
    assert document["duration_s"] > 150
    cues = read_cues((tmp_path / f"{source.stem}.srt").read_text(encoding="utf-8"))

    assert rule_breaks(cues) == []
    assert dangling_sentence_ends(cues) == []
    assert sum(map(ends_well, cues)) >= 0.8 * len(cues), [c.text for c in cues if not ends_well(c)]
    assert normalize(" ".join(c.text for c in cues)) == normalize(document["text"])
    assert all(s["words"] for s in document["segments"])  # readable cues asked for word times
