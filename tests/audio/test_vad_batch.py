"""Silero's batched scorer (`SileroVadModel.probabilities`) gives the probabilities of calling the
model frame by frame, and the file speech map built with it gives the same map and the same
transcript. Real Silero, real tiny.en; real recordings where ../shared is present, the committed
espeak clips otherwise."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest
from earshot_testing import DATA_DIR, SHARED_SPEECH, espeak_clips, needs_shared, read_wav
from numpy.typing import NDArray

from app.audio.file_decoder import decode_audio
from app.audio.vad import FRAME, SileroVadModel
from app.engine.transcribe.speech_map import BatchSpeechDetector, SpeechMap

TOLERANCE = 1e-4
SPEECH2 = SHARED_SPEECH.parent / "speech2"


class PerFrame:
    """Silero without its batched method: the speech map's per-frame fallback."""

    def __init__(self, model: SileroVadModel | None = None) -> None:
        self.model = model or SileroVadModel()

    def __call__(self, frame: NDArray[np.float32]) -> float:
        return self.model(frame)

    def fork(self) -> PerFrame:
        return PerFrame(self.model.fork())


def _espeak_joined() -> NDArray[np.float32]:
    """The committed espeak clips, each followed by 0.5 s of digital silence (frames the map's
    energy gate keeps from the detector), float32 16 kHz."""
    gap = np.zeros(8000, dtype=np.float32)
    return np.concatenate([part for c in espeak_clips() for part in (read_wav(DATA_DIR / c["file"]), gap)])


def _frames(audio: NDArray[np.float32]) -> NDArray[np.float32]:
    n = len(audio) // FRAME
    return np.ascontiguousarray(audio[: n * FRAME].reshape(n, FRAME))


def _assert_same_as_per_frame(frames: NDArray[np.float32]) -> None:
    one, batched = SileroVadModel(), SileroVadModel()
    expected = np.array([one(frame) for frame in frames], dtype=np.float32)
    # uneven blocks: the state and the context carry from one call to the next
    cuts = [0, 1, 8, 300, len(frames) // 2, len(frames)]
    got = np.concatenate([batched.probabilities(frames[a:b]) for a, b in pairwise(cuts)])
    assert got.shape == expected.shape and got.dtype == np.float32
    assert np.abs(got - expected).max() < TOLERANCE
    # h lies in (-1, 1); the cell state c grows to tens, and float32 sums in another order
    # leave it ~2e-5 apart relative (4e-4 absolute at c = 20), which the probabilities never show
    assert np.abs(batched._state[0] - one._state[0]).max() < TOLERANCE
    assert np.allclose(batched._state[1], one._state[1], rtol=TOLERANCE, atol=TOLERANCE)
    assert np.array_equal(batched._input[0, :64], one._input[0, :64])
    # per-frame calls go on from where the batched ones left off
    follow = frames[: min(50, len(frames))]
    assert max(abs(one(f) - batched(f)) for f in follow) < TOLERANCE


def test_batched_probabilities_match_per_frame_calls_on_the_espeak_clips() -> None:
    _assert_same_as_per_frame(_frames(_espeak_joined()))


@needs_shared
@pytest.mark.parametrize("path", [SPEECH2 / "en_librivox_sonnets_1to3_long.wav",
                                  SPEECH2 / "en_lucier_sitting_in_a_room.wav",
                                  SHARED_SPEECH / "ns_music_vibe_ace.wav"], ids=lambda p: p.stem)  # fmt: skip
def test_batched_probabilities_match_per_frame_calls_on_real_recordings(path) -> None:  # type: ignore[no-untyped-def]
    _assert_same_as_per_frame(_frames(decode_audio(path)))


def test_bad_shapes_are_refused_and_no_frames_change_nothing() -> None:
    model = SileroVadModel()
    with pytest.raises(ValueError):
        model.probabilities(np.zeros(FRAME, dtype=np.float32))
    with pytest.raises(ValueError):
        model.probabilities(np.zeros((3, 256), dtype=np.float32))
    assert model.probabilities(np.zeros((0, FRAME), dtype=np.float32)).shape == (0,)
    assert not model._state.any() and not model._input.any()


def test_the_speech_map_takes_the_batched_path_and_gives_the_same_map() -> None:
    assert isinstance(SileroVadModel(), BatchSpeechDetector)
    assert not isinstance(PerFrame(), BatchSpeechDetector)
    audio = _espeak_joined()
    maps = []
    for detector in (PerFrame(), SileroVadModel()):
        smap = SpeechMap(detector)
        for start in range(0, len(audio), 7_777):  # chunks that end inside frames, as a file's do
            smap.feed(audio[start : start + 7_777])
        smap.finish()
        maps.append(smap.probabilities(0, smap.classified))
    assert np.array_equal(maps[0], maps[1])
    assert (maps[0] == 0).any() and (maps[0] > 0.5).any()  # gated silence and speech both


def _transcript(engine, audio: NDArray[np.float32], detector) -> str:  # type: ignore[no-untyped-def]
    from app.engine.types import DecodeOptions

    segments, _ = engine.transcribe(audio, DecodeOptions(beam_size=5), speech=detector)
    return " ".join(s.text.strip() for s in segments)


def test_the_transcript_is_the_same_with_the_batched_speech_map(engine) -> None:  # type: ignore[no-untyped-def]
    audio = _espeak_joined()
    expected = _transcript(engine, audio, PerFrame())
    assert expected and _transcript(engine, audio, SileroVadModel()) == expected


@needs_shared
def test_the_transcript_of_a_real_recording_is_the_same(engine) -> None:  # type: ignore[no-untyped-def]
    audio = decode_audio(SPEECH2 / "en_lucier_sitting_in_a_room.wav")
    expected = _transcript(engine, audio, PerFrame())
    assert expected and _transcript(engine, audio, SileroVadModel()) == expected
