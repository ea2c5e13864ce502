"""After half a second of digital silence the file speech map also scores what comes next with a
fresh Silero state, and keeps the higher probability: a loud sentence's state leaves the
detector deaf to a quiet one after it (speech2's whispered sentence scored under 0.1 after a
loud clip in a long file, and no window decoded it). Real Silero on the committed espeak clips."""

from __future__ import annotations

import numpy as np
from earshot_testing import DATA_DIR, espeak_clips, read_wav
from numpy.typing import NDArray

from app.audio.vad import FRAME, SileroVadModel
from app.engine.transcribe.speech_map import SpeechMap


def _whole_frames(audio: NDArray[np.float32]) -> NDArray[np.float32]:
    """`audio` padded with digital silence to whole 512-sample frames, so that a clip placed
    after it is cut into the same frames as alone."""
    return np.concatenate([audio, np.zeros(-len(audio) % FRAME, dtype=np.float32)])


def _map(audio: NDArray[np.float32]) -> NDArray[np.float32]:
    smap = SpeechMap(SileroVadModel())
    for start in range(0, len(audio), 7_777):  # chunks that end inside frames, as a file's do
        smap.feed(audio[start : start + 7_777])
    smap.finish()
    return smap.probabilities(0, smap.classified)


def _loud_then_quiet(gap_frames: int) -> tuple[NDArray[np.float32], NDArray[np.float32], int]:
    """A loud espeak sentence, `gap_frames` frames of digital silence, then another sentence at
    -26 dB: the file, the quiet sentence alone, and the frame it starts at in the file."""
    clips = espeak_clips()
    loud = _whole_frames(read_wav(DATA_DIR / clips[0]["file"]))
    quiet = _whole_frames(read_wav(DATA_DIR / clips[1]["file"]) * np.float32(0.05))
    gap = np.zeros(gap_frames * FRAME, dtype=np.float32)
    return np.concatenate([loud, gap, quiet]), quiet, (len(loud) + len(gap)) // FRAME


def test_after_a_pause_of_digital_silence_the_next_sentence_scores_at_least_as_alone() -> None:
    audio, quiet, first = _loud_then_quiet(gap_frames=32)  # 1 s, as between the clips of a joined file
    alone = _map(quiet)
    in_file = _map(audio)[first : first + len(alone)]
    assert (alone >= 0.5).any()  # the quiet sentence is speech to the detector alone
    assert (in_file >= alone).all()

