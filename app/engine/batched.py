"""Batched file transcription: several 30 s windows of one long file per encoder and decoder run.

The decoder is bound by memory bandwidth (it reads every weight once per step whatever the batch),
so B windows decoded together cost little more than one. The price, as in faster-whisper's
batched pipeline: windows are fixed in advance (cut at the quietest half second near each 30 s
mark instead of at the last decoded timestamp) and a window is not prompted with the text before
it. The batch is decoded greedily; a window that fails the compression or log-prob gates is
decoded again alone with the full options (beam search, temperature fallback).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import numpy as np
import onnxruntime as ort
from numpy.typing import NDArray

from app.engine.decoding import DecodingLoop
from app.engine.features import FRAMES_PER_SECOND, N_FRAMES_WINDOW, log_mel, pad_or_trim
from app.engine.native_heap import release_free_heap
from app.engine.runtime import CrossAttention
from app.engine.transcriber import FileTranscriber
from app.engine.types import SAMPLE_RATE, Segment, Timings, TranscriptionInfo
from app.engine.window_decoder import split_segments, stamp
from app.engine.window_words import WindowWords
from app.engine.word_timing import WindowWordAligner

SEARCH_FRAMES = 500  # look for the cut in the last 5 s of each window
QUIET_FRAMES = 50  # the quietest 0.5 s (mean log-mel energy) there


def plan_windows(mel: NDArray[np.float32]) -> list[tuple[int, int]]:
    """mel [n_mels, frames] -> (start frame, n frames) of consecutive windows of <= 3000 frames,
    each cut in the middle of the quietest 0.5 s of its last 5 s (so words are rarely split)."""
    total = mel.shape[-1]
    energy = mel.mean(axis=0)
    smooth = np.convolve(energy, np.ones(QUIET_FRAMES) / QUIET_FRAMES, mode="same")
    windows, start = [], 0
    while start < total:
        if total - start <= N_FRAMES_WINDOW:
            windows.append((start, total - start))
            break
        lo = start + N_FRAMES_WINDOW - SEARCH_FRAMES
        cut = lo + int(np.argmin(smooth[lo : start + N_FRAMES_WINDOW]))
        windows.append((start, cut - start))
        start = cut
    return windows


class BatchedTranscriber(FileTranscriber):
    """Transcribes a whole audio array `options.batch_size` windows at a time."""

    def transcribe(self, audio: NDArray[np.float32]) -> tuple[Iterator[Segment], TranscriptionInfo]:
        start = time.perf_counter()
        mel = log_mel(audio, self.runtime.facts.dims.n_mels)
        info = TranscriptionInfo("en", 1.0, len(audio) / SAMPLE_RATE, Timings(features_s=time.perf_counter() - start))
        windows = plan_windows(mel) if mel.shape[-1] else []
        size = max(1, self.options.batch_size)
        groups = [windows[i : i + size] for i in range(0, len(windows), size)]
        first: CrossAttention | None = None
        language = self.options.language
        if self.runtime.facts.multilingual and language is None and groups:
            first = self._encode(mel, groups[0], info.timings)  # decoded below, not encoded twice
            language, info.language_probability = self.decoder.detect_language(_row(first, 0))
        info.language = language or "en"
        if self.options.word_timestamps:
            self.words = WindowWords(WindowWordAligner(self.runtime), self.options.task, info.duration_s)
        return self._batches(mel, groups, info, start, first), info

    def _encode(self, mel: NDArray[np.float32], group: list[tuple[int, int]], timings: Timings) -> CrossAttention:
        t0 = time.perf_counter()
        cross = self.runtime.encode(np.stack([pad_or_trim(mel[:, s : s + n]) for s, n in group]))
        timings.encoder_s += time.perf_counter() - t0
        return cross

    def _batches(self, mel: NDArray[np.float32], groups: list[list[tuple[int, int]]], info: TranscriptionInfo,
                 start: float, first: CrossAttention | None) -> Iterator[Segment]:
        timings, next_id = info.timings, 1
        prompt = self.decoder.build_prompt(info.language, [])
        for index, group in enumerate(groups):
            self.cancel.raise_if_cancelled()
            cross = first if index == 0 and first is not None else self._encode(mel, group, timings)
            t1 = time.perf_counter()
            loop = DecodingLoop(self.runtime, self.decoder.logit_filters(), self.runtime.tokenizer.no_speech,
                                self.runtime.tokenizer.eot, self.cancel)
            outcomes = loop.run_greedy_batch(cross, prompt, self.options.max_new_tokens)
            release_free_heap()  # the batch's decoder buffers are free (see native_heap)
            for row, ((seek, n_frames), outcome) in enumerate(zip(group, outcomes, strict=True)):
                result = self.decoder.result(outcome, 0.0)
                if len(self.options.temperatures) > 1 and not self.decoder.accepts(result):
                    result = self.decoder.decode(_row(cross, row), prompt, self.cancel)  # with fallback
                if self.decoder.is_silence(result):
                    continue
                segments, _ = split_segments(result.outcome.tokens, self.runtime.tokenizer,
                                             seek / FRAMES_PER_SECOND, n_frames / FRAMES_PER_SECOND, keep_tail=True)
                if self.words is not None:
                    self.words.add(segments, _row(cross, row) if cross.batch > 1 else cross, result.outcome.tokens,
                                   result.outcome.token_logprobs, info.language, seek / FRAMES_PER_SECOND, n_frames,
                                   mel[:, seek : seek + n_frames])
                for seg in segments:
                    if seg.start == seg.end or not seg.text.strip():
                        continue
                    seg.id, next_id = next_id, next_id + 1
                    stamp(seg, result)
                    yield seg
            timings.decoder_s += time.perf_counter() - t1
            timings.n_windows += len(group)
            timings.n_tokens += sum(len(o.tokens) + 1 for o in outcomes)
            timings.total_s = time.perf_counter() - start
            if self.on_progress:
                done = group[-1][0] + group[-1][1]
                self.on_progress(done / FRAMES_PER_SECOND, mel.shape[-1] / FRAMES_PER_SECOND)


def _row(cross: CrossAttention, row: int) -> CrossAttention:
    """One window's K/V out of a batch (a copy; only for windows that need decoding again)."""
    return CrossAttention({name: ort.OrtValue.ortvalue_from_numpy(np.ascontiguousarray(value.numpy()[row : row + 1]))
                           for name, value in cross.values.items()}, 1)
