"""Every precision decodes a whole clip, with KV caches of the graph's own dtype."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from earshot_testing import DATA_DIR, espeak_clips, read_wav

from app.engine.convert.int8_kernels import PORTABLE_ENV
from app.engine.models.loader import load_engine
from app.engine.types import DecodeOptions, Precision
from app.engine.wer import word_error_rate

CACHE_DTYPE = {Precision.FP32: np.float32, Precision.FP16: np.float16, Precision.INT8: np.float32,
               Precision.INT8_ACCURATE: np.float32, Precision.INT8_SMALL: np.float32, Precision.INT4: np.float32}


@pytest.mark.parametrize("precision", [p for p in Precision if p is not Precision.AUTO], ids=lambda p: p.value)
def test_precision_decodes_clips_with_matching_cache_dtype(precision):
    engine = load_engine(precision=precision)
    assert engine.precision is precision
    assert engine.runtime.cache_dtype is CACHE_DTYPE[precision]
    declared = {i.name: i.type for i in engine.runtime.decoder.get_inputs()}
    expected = "tensor(float16)" if precision is Precision.FP16 else "tensor(float)"
    assert declared["past_k_0"] == declared["cross_k_0"] == expected
    outputs = {o.name: o.type for o in engine.runtime.encoder.get_outputs()}
    assert outputs["cross_k_0"] == expected
    clips = espeak_clips()[:3]
    hyps = []
    for clip in clips:
        segments, _ = engine.transcribe(read_wav(DATA_DIR / clip["file"]), DecodeOptions(beam_size=1))
        hyps.append(" ".join(s.text for s in segments))
    # 4-bit weights cost accuracy on a model as small as tiny.en; the others stay close to fp32.
    limit = 25.0 if precision is Precision.INT4 else 10.0
    assert word_error_rate([c["text"] for c in clips], hyps) <= limit, hyps


def test_auto_resolves_to_a_concrete_precision():
    engine = load_engine(precision=Precision.AUTO)
    assert engine.precision is not Precision.AUTO


def test_int8_stays_as_accurate_as_fp32(engine):
    """int8 is the accurate fast choice (`auto` on CPU): per-row int8 encoder, 8-bit decoder.
    (On the shared English recordings int8 keeps fp32's WER, most clips token-identical;
    bench/compare.py measures it. The synthetic clips differ more often, in digits and
    punctuation.)"""
    int8 = load_engine(precision=Precision.INT8)
    options = DecodeOptions(beam_size=1, temperatures=(0.0,), condition_on_previous_text=False)
    clips = espeak_clips()
    texts: dict[str, list[str]] = {"fp32": [], "int8": []}
    same = 0
    for clip in clips:
        audio = read_wav(DATA_DIR / clip["file"])
        outs = [list(e.transcribe(audio, options)[0]) for e in (engine, int8)]
        same += [t for s in outs[0] for t in s.tokens] == [t for s in outs[1] for t in s.tokens]
        for key, segs in zip(("fp32", "int8"), outs, strict=True):
            texts[key].append(" ".join(s.text for s in segs))
    refs = [c["text"] for c in clips]
    assert word_error_rate(refs, texts["int8"]) <= word_error_rate(refs, texts["fp32"]) + 2.0, texts
    assert same >= len(clips) // 2


def test_int8_decoder_holds_the_vocabulary_weights_once() -> None:
    """The token embedding reads the projection's 8-bit blocks: no fp16 table beside them
    (for tiny.en a 40 MB table, enough to decide whether peak RSS stays below faster-whisper int8's)."""
    decoder = onnx.load(str(load_engine(precision=Precision.INT8).runtime.model_dir / "decoder.onnx"))
    projection = next(n for n in decoder.graph.node if n.op_type == "MatMulNBits" and "projection" in n.input[1])
    gather = next(n for n in decoder.graph.node if n.op_type == "GatherBlockQuantized")
    assert gather.input[0] == projection.input[1]
    vocab_sized = [t.name for t in decoder.graph.initializer if t.dims and t.dims[0] == 51864 and len(t.dims) > 1]
    assert sorted(vocab_sized) == sorted([projection.input[1], projection.input[2], "decoder.embedding_scales"])


def test_portable_int8_weights_give_the_same_text(monkeypatch):
    """Installers build int8 graphs with uint8 weights, which no CPU's int8 GEMM can saturate
    (int8_kernels.py). They are the same numbers stored differently: a clip decodes to the same
    text as with the weights this machine's converter picks (uint8 on CPUs without VNNI, so there
    both sides are the portable graph and the check only covers the cache entry)."""
    native = load_engine(precision=Precision.INT8)
    monkeypatch.setenv(PORTABLE_ENV, "1")
    portable = load_engine(precision=Precision.INT8)
    weights = [i for i in onnx.load(str(portable.runtime.model_dir / "encoder.onnx")).graph.initializer
               if i.name.endswith(".wq")]
    assert weights and all(w.data_type == onnx.TensorProto.UINT8 for w in weights)
    assert portable.runtime.model_dir.name.endswith("-u8w")
    options = DecodeOptions(beam_size=1, temperatures=(0.0,))
    for clip in espeak_clips()[:3]:
        audio = read_wav(DATA_DIR / clip["file"])
        texts = [" ".join(s.text for s in e.transcribe(audio, options)[0]) for e in (native, portable)]
        assert texts[0] == texts[1]


def test_numpy_blas_stays_on_one_thread_once_an_engine_exists(engine) -> None:  # type: ignore[no-untyped-def]
    """OpenBLAS threads spin after the log-mel product on the cores the encoder needs next,
    which slows the encoder down markedly."""
    import ctypes

    from app.engine.runtime.blas_threads import _openblas_libraries

    libraries = _openblas_libraries()
    if not libraries:  # numpy built against another BLAS (Accelerate, MKL): nothing spins here
        return
    getter = getattr(ctypes.CDLL(str(libraries[0])), "scipy_openblas_get_num_threads64_", None)
    assert getter is not None, f"unknown OpenBLAS build {libraries[0].name}"
    assert getter() == 1


def test_int8_accurate_chooses_words_on_exact_scores(tmp_path) -> None:
    """int8-accurate rescores each step's 16 leading 8-bit logits against the fp16 embedding rows:
    they equal the fp32 projection of the same final state, so near-ties resolve as fp32 would
    (base int8 wrote "." where fp32 wrote "!"). The graph is exposed here with two more outputs:
    the final state and the 8-bit logits before rescoring."""
    import shutil

    from app.engine.runtime.features import log_mel, pad_or_trim
    from app.engine.runtime.ort_sessions import SessionConfig
    from app.engine.runtime.whisper_runtime import WhisperRuntime
    from app.engine.types import Task

    source = load_engine(precision=Precision.INT8_ACCURATE).runtime.model_dir
    model = onnx.load(str(source / "decoder.onnx"))
    projection = next(n for n in model.graph.node if n.op_type == "MatMulNBits" and "projection" in n.input[1])
    for name in (projection.input[0], projection.output[0]):
        model.graph.output.append(onnx.helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, None))
    onnx.save(model, str(tmp_path / "decoder.onnx"))
    for name in ("encoder.onnx", "tokenizer.json"):
        shutil.copy(source / name, tmp_path / name)
    runtime = WhisperRuntime(tmp_path, SessionConfig("cpu", 2))
    table = next(onnx.numpy_helper.to_array(t) for t in model.graph.initializer if t.name == "decoder.embeddings_fp16")

    audio = read_wav(DATA_DIR / espeak_clips()[0]["file"])
    cross = runtime.encode(pad_or_trim(log_mel(audio))[None])
    prompt = np.array([runtime.tokenizer.sot_sequence(None, Task.TRANSCRIBE)], dtype=np.int64)
    # decode() keeps only logits and the cache; the session's own run also returns the two added outputs
    logits, _, extra = runtime._run(runtime.decoder, runtime._decoder_outputs, prompt, runtime.new_cache(1), cross,
                                    None)
    state, approx = (extra[n].numpy() for n in (projection.input[0], projection.output[0]))
    exact = state @ table.astype(np.float32).T  # what the fp32 graph computes from this state

    leading = np.argsort(-approx[0])[:16]
    np.testing.assert_allclose(logits[0, leading], exact[0, leading], rtol=1e-4, atol=1e-4)
    rest = np.setdiff1d(np.arange(logits.shape[1]), leading)
    np.testing.assert_array_equal(logits[0, rest], approx[0, rest])
    assert logits[0].argmax() == exact[0].argmax()
    assert np.abs(approx - exact).max() > 1e-3  # the 8-bit projection does move scores: rescoring is needed


def test_int8_accurate_writes_what_fp32_writes(engine) -> None:
    """The accurate choice: tokens identical to fp32 (greedy) on the committed clips, where int8
    differs on one of six (bench/compare.py: 9 of 10 shared English clips, on tiny.en and base).
    One clip of slack: a near-tie inside the 8-bit layers can still flip a word."""
    accurate = load_engine(precision=Precision.INT8_ACCURATE)
    options = DecodeOptions(beam_size=1, temperatures=(0.0,), condition_on_previous_text=False)
    clips = espeak_clips()
    same = 0
    for clip in clips:
        audio = read_wav(DATA_DIR / clip["file"])
        outs = [[t for s in e.transcribe(audio, options)[0] for t in s.tokens] for e in (engine, accurate)]
        same += outs[0] == outs[1]
    assert same >= len(clips) - 1
