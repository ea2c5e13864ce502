"""How the streaming policy decodes its window: in the mode the quality switch picks
(decode_quality.py), with the end of the committed text as prompt where the beam is on, and
again without the prompt when the decode copies it (app/engine/transcribe/prompt_copy.py)."""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from app.dictation.decode_quality import DecodeMode, QualitySwitch
from app.dictation.decoder_port import WindowDecoder
from app.dictation.policy_options import PolicyOptions
from app.dictation.text import HypothesisWord
from app.engine.transcribe.prompt_copy import copies_prompt
from app.engine.types import CancelToken, WindowResult


class PromptedDecoder:
    """The policy's window decodes for one session: the decode options (streaming and final),
    the quality switch and the token ids of the last prompt."""

    def __init__(
        self, decoder: WindowDecoder, options: PolicyOptions, cancel: CancelToken | None, realtime: bool
    ) -> None:
        self.decoder = decoder
        self.options = options
        self.cancel = cancel
        self._prompt_cache: tuple[str, int, list[int]] = ("", 0, [])
        self.quality = QualitySwitch(options.headroom_beam_size, options.compute_share * options.step_s, realtime)
        self._decode_options = options.effective_decode()
        self._final_options = options.final_decode()

    def decode(self, audio: NDArray[np.float32], final: bool, before: list[HypothesisWord]) -> WindowResult:
        """One decode of `audio` (float32 [n], 16 kHz), in the mode the quality switch chooses
        (decode_quality.py): with the beam, `before` (the committed text before the window)
        prompts it, and a decode that copies its prompt is decoded again without it."""
        options = self._final_options if final else self._decode_options
        mode, n_prompt = self.quality.choose(), self.options.prompt_tokens
        if mode is DecodeMode.BEAM:
            options = replace(options, beam_size=max(options.beam_size, self.options.headroom_beam_size))
            n_prompt = max(n_prompt, self.options.headroom_prompt_tokens)
        text, prompt = self._prompt(before, n_prompt)
        t0 = time.perf_counter()
        result = self.decoder.decode_window(audio, options, prompt, self.cancel)
        if prompt and copies_prompt(result.text, text):
            result = self.decoder.decode_window(audio, options, (), self.cancel)
        self.quality.observe(mode, time.perf_counter() - t0)
        return result

    def _prompt(self, before: list[HypothesisWord], n_tokens: int) -> tuple[str, list[int]]:
        """The end of the committed text before the window and its last `n_tokens` token ids."""
        if n_tokens <= 0:
            return "", []
        text = "".join(w.text for w in before[-40:])
        if (text, n_tokens) != self._prompt_cache[:2]:
            tokens = self.decoder.tokenizer.encode(text) if text else []
            self._prompt_cache = (text, n_tokens, tokens[-n_tokens:])
        return text, self._prompt_cache[2]
