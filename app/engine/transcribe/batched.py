"""Batched file transcription: several 30 s windows of one long file per encoder and decoder run.

The decoder is bound by memory bandwidth (it reads every weight once per step whatever the batch),
so B windows decoded together cost little more than one. The price, as in faster-whisper's
batched pipeline: windows are fixed in advance instead of starting at the last decoded
timestamp, and a window is not prompted with the text before it. So that no utterance straddles
a cut, each window ends in the longest pause of its last 10 s (`plan.py`: frames the speech map
calls non-speech, else the quietest 0.5 s by log-mel energy). Windows without speech are not
decoded. Speech after a window's last segment is decoded again as a window of its own (Whisper
often stops before a window's last utterance). The batch is decoded greedily; a window that
fails the compression or log-prob gates is decoded again alone with the full options (beam
search, temperature fallback).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator

import numpy as np
import onnxruntime as ort
from numpy.typing import NDArray

from app.engine.decoding.loop import DecodingLoop
from app.engine.decoding.window_decoder import WindowDecode, split_segments, stamp
from app.engine.runtime.features import FRAMES_PER_SECOND, HOP_LENGTH, pad_or_trim
from app.engine.runtime.native_heap import release_free_heap
from app.engine.runtime.whisper_runtime import CrossAttention
from app.engine.timing.time_clamp import clamp_in_place
from app.engine.timing.window_words import WindowWords
from app.engine.timing.word_timing import WindowWordAligner
from app.engine.transcribe.audio_stream import StreamedFeatures
from app.engine.transcribe.plan import Window, WindowPlanner
from app.engine.transcribe.sequential import FileTranscriber
from app.engine.transcribe.speech_map import SpeechDetector, SpeechMap
from app.engine.types import SAMPLE_RATE, Segment, Timings, TranscriptionInfo

TAIL_FRAMES = 100
"""Speech 1 s or more after a window's last segment is decoded again (see `_redecode_tails`)."""


class BatchedTranscriber(FileTranscriber):
    """Transcribes a stream of audio chunks `options.batch_size` windows at a time."""

    def transcribe(
        self,
        chunks: Iterable[NDArray[np.float32]],
        duration_s: float | None = None,
        detector: SpeechDetector | None = None,
    ) -> tuple[Iterator[Segment], TranscriptionInfo]:
        start = time.perf_counter()
        size = self.options.batch_size  # 1..64, checked by DecodeOptions
        feats = StreamedFeatures(chunks, self.runtime.facts.dims.n_mels, SpeechMap(detector))
        planner = WindowPlanner(feats, size)
        info = TranscriptionInfo("en", 1.0, duration_s or 0.0, Timings())
        group = planner.next_group()
        first: CrossAttention | None = None
        language = self.options.language
        if self.runtime.facts.multilingual and language is None and group:
            first = self._encode(planner, group, info.timings)  # decoded below, not encoded twice
            language, info.language_probability = self.decoder.detect_language(_row(first, 0))
        info.language = language or "en"
        if self.options.word_timestamps:
            self.words = WindowWords(WindowWordAligner(self.runtime), self.options.task, duration_s or float("inf"))
        return self._batches(feats, planner, group, info, start, first), info

    def _encode(self, planner: WindowPlanner, group: list[Window], timings: Timings) -> CrossAttention:
        t0 = time.perf_counter()
        cross = self.runtime.encode(np.stack([planner.mels[window] for window in group]))
        timings.encoder_s += time.perf_counter() - t0
        return cross

    def _batches(
        self,
        feats: StreamedFeatures,
        planner: WindowPlanner,
        group: list[Window],
        info: TranscriptionInfo,
        start: float,
        first: CrossAttention | None,
    ) -> Iterator[Segment]:
        timings, next_id = info.timings, 1
        while group:
            self.cancel.raise_if_cancelled()
            cross = first if first is not None else self._encode(planner, group, timings)
            first = None
            t1 = time.perf_counter()
            mels = [planner.mels[window] for window in group]
            per_window = self._decode_group(feats, group, cross, info.language, mels)
            self._redecode_tails(feats, planner, group, per_window, info.language)
            for seg in (seg for segments in per_window for seg in segments):
                seg.id, next_id = next_id, next_id + 1
                if feats.n_frames is not None:  # the stream has ended: no time past its real end
                    clamp_in_place([seg], feats.n_samples / SAMPLE_RATE)
                yield seg
            timings.decoder_s += time.perf_counter() - t1
            timings.n_windows += len(group)
            timings.n_tokens = self.decoder.n_tokens
            timings.total_s = time.perf_counter() - start
            done = group[-1][0] + group[-1][1]
            group = planner.next_group()
            self._report(feats, info, done if group else planner.end)

    def _decode_group(
        self,
        feats: StreamedFeatures,
        group: list[Window],
        cross: CrossAttention,
        language: str,
        mels: list[NDArray[np.float32]],
    ) -> list[list[Segment]]:
        """Decode every window of `cross` at once, greedily: each window's segments (with their
        words when asked; `mels`: each window's log-mel [n_mels, 3000], for the word edges)."""
        prompt = self.decoder.build_prompt(language, [])
        loop = DecodingLoop(
            self.runtime,
            self.decoder.logit_filters(),
            self.runtime.tokenizer.no_speech,
            self.runtime.tokenizer.eot,
            self.cancel,
        )
        outcomes = loop.run_greedy_batch(cross, prompt, self.options.max_new_tokens)
        release_free_heap()  # the batch's decoder buffers are free (see native_heap)
        self.decoder.n_tokens += sum(len(o.tokens) + 1 for o in outcomes)
        per_window = []
        for row, ((seek, n_frames), outcome) in enumerate(zip(group, outcomes, strict=True)):
            result = self.decoder.result(outcome, 0.0)
            if len(self.options.temperatures) > 1 and not self.decoder.accepts(result):
                result = self.decoder.decode(_row(cross, row), prompt, self.cancel)  # with fallback
            segments = self._window_segments(feats, seek, n_frames, result)
            if self.words is not None and segments:
                self._add_words(
                    feats,
                    segments,
                    _row(cross, row) if cross.batch > 1 else cross,
                    result,
                    language,
                    (seek, n_frames),
                    mels[row],
                )
            per_window.append(segments)
        return per_window

    def _add_words(
        self,
        feats: StreamedFeatures,
        segments: list[Segment],
        cross: CrossAttention,
        result: WindowDecode,
        language: str,
        window: Window,
        mel: NDArray[np.float32],
    ) -> None:
        assert self.words is not None
        if feats.n_frames is not None:  # the stream has ended: clamp words to its real length
            self.words.context.duration_s = feats.n_samples / SAMPLE_RATE
        self.words.add(
            segments,
            cross,
            result.outcome.tokens,
            result.outcome.token_logprobs,
            language,
            window[0] / FRAMES_PER_SECOND,
            window[1],
            mel,
        )

    def _redecode_tails(
        self,
        feats: StreamedFeatures,
        planner: WindowPlanner,
        group: list[Window],
        per_window: list[list[Segment]],
        language: str,
    ) -> None:
        """Whisper often ends a window before its last utterance (greedy, no prompt: on a long
        file whole utterances are lost that way). Where speech follows a window's last segment
        by `TAIL_FRAMES` or more, that tail is decoded again as a window of its own, as the
        sequential transcriber would start its next window at the last timestamp."""
        tails: list[tuple[int, Window]] = []
        for index, ((seek, n_frames), segments) in enumerate(zip(group, per_window, strict=True)):
            last = round(segments[-1].end * FRAMES_PER_SECOND) if segments else None
            end = seek + n_frames
            if (
                last is not None
                and seek < last <= end - TAIL_FRAMES
                and not feats.speech.is_weak(last * HOP_LENGTH, end * HOP_LENGTH)
            ):
                tails.append((index, (last, end - last)))
        if not tails:
            return
        mels = [pad_or_trim(planner.mels[group[i]][:, tail[0] - group[i][0] : group[i][1]]) for i, tail in tails]
        cross = self.runtime.encode(np.stack(mels))
        found = self._decode_group(feats, [tail for _, tail in tails], cross, language, mels)
        for (index, _), segments in zip(tails, found, strict=True):
            per_window[index] += segments

    def _window_segments(
        self, feats: StreamedFeatures, seek: int, n_frames: int, result: WindowDecode
    ) -> list[Segment]:
        """The window's segments (absolute times, unfinished speech kept), [] for non-speech."""
        outcome = result.outcome
        if self.decoder.is_silence(result) or feats.speech.rejects(
            seek * HOP_LENGTH, (seek + n_frames) * HOP_LENGTH, outcome.no_speech_prob, outcome.avg_logprob
        ):
            return []
        segments, _ = split_segments(
            outcome.tokens,
            self.runtime.tokenizer,
            seek / FRAMES_PER_SECOND,
            n_frames / FRAMES_PER_SECOND,
            keep_tail=True,
        )
        kept = [seg for seg in segments if seg.start != seg.end and seg.text.strip()]
        for seg in kept:
            stamp(seg, result)
        return kept


def _row(cross: CrossAttention, row: int) -> CrossAttention:
    """One window's K/V out of a batch (a copy; only for windows that need decoding again)."""
    return CrossAttention(
        {
            name: ort.OrtValue.ortvalue_from_numpy(np.ascontiguousarray(value.numpy()[row : row + 1]))
            for name, value in cross.values.items()
        },
        1,
    )
