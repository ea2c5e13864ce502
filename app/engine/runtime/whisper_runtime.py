"""The two onnxruntime sessions of a converted model and the KV cache between decoder steps.

The decoder's session also has the alignment heads' cross-attention as an output
(alignment_graph.py): decoding steps do not fetch it, the word-timing pass does.

Cache tensors stay onnxruntime OrtValues from one step to the next; only the logits of the
last position come back to numpy. Every cache tensor (past, present, cross) has the dtype the
graph declares, read from the graph itself, so fp16 graphs get fp16 caches.
"""

from __future__ import annotations

import dataclasses
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import onnxruntime as ort
from numpy.typing import NDArray

from app.engine.convert.layout import DECODER_FILE, ENCODER_FILE, TOKENIZER_FILE
from app.engine.convert.model_facts import METADATA_KEY, ModelFacts
from app.engine.convert.weights import ModelFormatError
from app.engine.runtime.alignment_graph import ALIGNMENT_OUTPUT, decoder_session
from app.engine.runtime.cpu_load import SpinChoice
from app.engine.runtime.ort_sessions import SessionConfig, create_session
from app.engine.tokenizer import WhisperTokenizer, parse_tokenizer_json

if TYPE_CHECKING:
    from tokenizers import Tokenizer

log = logging.getLogger(__name__)

_ORT_TYPES: dict[str, type[np.floating[Any]]] = {"tensor(float)": np.float32, "tensor(float16)": np.float16}


@dataclass
class CrossAttention:
    """Encoder output: per decoder layer K^T [batch, heads, head_dim, 1500] (pre-scaled) and V
    [batch, heads, 1500, head_dim] OrtValues."""

    values: dict[str, ort.OrtValue]
    batch: int


@dataclass
class KVCache:
    """Self-attention past K/V per layer; `length` tokens so far, `batch` rows."""

    values: dict[str, ort.OrtValue] = field(default_factory=dict)
    length: int = 0
    batch: int = 1


class WhisperRuntime:
    """Encoder and decoder sessions plus the model's facts and tokenizer."""

    def __init__(self, model_dir: Path, config: SessionConfig) -> None:
        self.model_dir = model_dir
        for name in (ENCODER_FILE, DECODER_FILE, TOKENIZER_FILE):
            if not (model_dir / name).is_file():
                raise ModelFormatError(f"{model_dir} lacks {name}: the converted model is incomplete")
        # threads spin only while other programs leave the cores free (see cpu_load.py); the
        # first sessions are built of the kind the load since start-up asks for
        self._spin_choice = SpinChoice() if config.spinning is None else None
        if self._spin_choice is not None and config.provider.lower() == "cpu":
            config = dataclasses.replace(config, spinning=self._spin_choice.current)
            if not config.spinning:
                log.info("worker threads sleep: other programs use %.1f cores", self._spin_choice.others_cores or 0.0)
        parsed = self._open_sessions(model_dir, config)
        if self.provider != "cpu":
            self._spin_choice = None
        meta = self.decoder.get_modelmeta().custom_metadata_map
        if METADATA_KEY not in meta:
            raise ModelFormatError(f"{model_dir / DECODER_FILE} has no Earshot model metadata")
        self.facts = ModelFacts.from_json(meta[METADATA_KEY])
        self.tokenizer = WhisperTokenizer(parsed, self.facts.multilingual)
        inputs = {i.name: i for i in self.decoder.get_inputs()}
        self.cache_dtype: type[np.floating[Any]] = _ORT_TYPES[inputs["past_k_0"].type]
        outputs = [o.name for o in self.decoder.get_outputs()]
        self._decoder_outputs = [name for name in outputs if name != ALIGNMENT_OUTPUT]
        self._has_alignment = ALIGNMENT_OUTPUT in outputs
        self._session_config = SessionConfig(self.provider, config.threads, config.spinning is not False)
        # the sessions of each kind of threads, kept once built: the load comes and goes
        self._sessions = {self._session_config.spinning: (self.encoder, self.decoder)}
        dims = self.facts.dims
        self._n_layers, self._heads, self._head_dim = (
            dims.n_text_layer,
            dims.n_text_head,
            dims.n_text_state // dims.n_text_head,
        )

    def _open_sessions(self, model_dir: Path, config: SessionConfig) -> Tokenizer:
        """Build the encoder and decoder sessions on two threads while this one parses the
        tokenizer (returned): onnxruntime lets go of the GIL while it builds a session, the
        tokenizer's parse holds it, so the three overlap (the model is ready sooner after start).
        The decoder takes the encoder's provider: known up front on the CPU, after any fallback otherwise."""
        with ThreadPoolExecutor(max_workers=2, thread_name_prefix="earshot-session") as pool:
            encoder = pool.submit(create_session, model_dir / ENCODER_FILE, config)
            # The decoder uses all cores too: with no spinning at all (SessionConfig), 2 threads are
            # faster per token than one on a quiet machine, and still a little faster with the other
            # core busy.
            on_cpu = config.provider.lower() == "cpu"
            on_cpu_config = dataclasses.replace(config, provider="cpu")
            decoder = pool.submit(decoder_session, model_dir / DECODER_FILE, on_cpu_config) if on_cpu else None
            parsed = parse_tokenizer_json((model_dir / TOKENIZER_FILE).read_text(encoding="utf-8"))
            self.encoder, self.provider, self.fallback_reason = encoder.result()
            if decoder is None:
                decoder = pool.submit(
                    decoder_session, model_dir / DECODER_FILE, dataclasses.replace(config, provider=self.provider)
                )
            self.decoder = decoder.result()[0]
        return parsed

    def encode(self, mel: NDArray[np.float32]) -> CrossAttention:
        """mel [batch, n_mels, 3000] float32 -> cross-attention K/V for every decoder layer."""
        self._follow_machine_load()
        names = [o.name for o in self.encoder.get_outputs()]
        feed = {"mel": ort.OrtValue.ortvalue_from_numpy(np.ascontiguousarray(mel, dtype=np.float32))}
        outputs = self.encoder.run_with_ort_values(names, feed)
        return CrossAttention(dict(zip(names, outputs, strict=True)), int(mel.shape[0]))

    def _follow_machine_load(self) -> None:
        """Switch to the sessions whose threads spin or sleep, when the machine's load asks for
        the other kind (checked before each window: a decoder's KV cache and the cross K/V are
        plain tensors, valid in either). The other kind's sessions are built on the first
        switch and kept, so the next switches cost nothing (and their memory stays)."""
        if self._spin_choice is None:
            return
        spinning = self._spin_choice.spinning()
        if spinning == self._session_config.spinning:
            return
        config = dataclasses.replace(self._session_config, spinning=spinning)
        if spinning not in self._sessions:
            with ThreadPoolExecutor(max_workers=2, thread_name_prefix="earshot-session") as pool:
                encoder = pool.submit(create_session, self.model_dir / ENCODER_FILE, config)
                decoder = pool.submit(decoder_session, self.model_dir / DECODER_FILE, config)
                self._sessions[spinning] = (encoder.result()[0], decoder.result()[0])
        self.encoder, self.decoder = self._sessions[spinning]
        self._session_config = config
        log.info(
            "worker threads %s: other programs use %.1f cores",
            "spin" if spinning else "sleep",
            self._spin_choice.others_cores or 0.0,
        )

    def new_cache(self, batch: int) -> KVCache:
        empty = np.zeros((batch, self._heads, 0, self._head_dim), dtype=self.cache_dtype)
        values = {
            f"past_{kind}_{i}": ort.OrtValue.ortvalue_from_numpy(empty)
            for i in range(self._n_layers)
            for kind in ("k", "v")
        }
        return KVCache(values, 0, batch)

    def decode(
        self,
        tokens: NDArray[np.int64],
        cache: KVCache,
        cross: CrossAttention,
        cache_indices: NDArray[np.int64] | None = None,
    ) -> tuple[NDArray[np.float32], KVCache]:
        """tokens [batch, n_tokens] int64 -> (logits [batch, n_vocab] float32, the grown cache).

        `cache_indices` [batch] picks, for each row, the cache row it continues (beam search).
        `cross.batch` divides batch: consecutive groups of rows share one audio (beams, samples).
        """
        logits, cache, _ = self._run(self.decoder, self._decoder_outputs, tokens, cache, cross, cache_indices)
        return logits, cache

    def decode_with_alignment(
        self,
        tokens: NDArray[np.int64],
        cache: KVCache,
        cross: CrossAttention,
        cache_indices: NDArray[np.int64] | None = None,
    ) -> tuple[NDArray[np.float32], KVCache, NDArray[np.float32]]:
        """`decode` that also returns the alignment heads' cross-attention weights
        [batch, n_alignment_heads, n_tokens, 1500] float32 (softmax over the 1500 audio frames
        of 20 ms, heads in `facts.alignment_heads` order). ValueError for a model that names no
        alignment heads."""
        if not self._has_alignment:
            raise ValueError("the model names no alignment heads")
        names = [*self._decoder_outputs, ALIGNMENT_OUTPUT]
        logits, cache, extra = self._run(self.decoder, names, tokens, cache, cross, cache_indices)
        weights: NDArray[np.float32] = extra[ALIGNMENT_OUTPUT].numpy()
        return logits, cache, weights

    def _run(
        self,
        session: ort.InferenceSession,
        names: list[str],
        tokens: NDArray[np.int64],
        cache: KVCache,
        cross: CrossAttention,
        cache_indices: NDArray[np.int64] | None,
    ) -> tuple[NDArray[np.float32], KVCache, dict[str, ort.OrtValue]]:
        batch = tokens.shape[0]
        if cache_indices is None:
            cache_indices = np.arange(batch, dtype=np.int64)
        feed = dict(cache.values)
        feed.update(cross.values)
        feed["tokens"] = ort.OrtValue.ortvalue_from_numpy(np.ascontiguousarray(tokens, dtype=np.int64))
        feed["cache_indices"] = ort.OrtValue.ortvalue_from_numpy(cache_indices.astype(np.int64))
        outputs = dict(zip(names, session.run_with_ort_values(names, feed), strict=True))
        logits: NDArray[np.float32] = outputs.pop("logits").numpy()
        present = {
            name.replace("present_", "past_"): value for name, value in outputs.items() if name.startswith("present_")
        }
        extra = {name: value for name, value in outputs.items() if not name.startswith("present_")}
        return logits, KVCache(present, cache.length + tokens.shape[1], batch), extra
