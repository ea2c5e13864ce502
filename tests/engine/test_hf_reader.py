"""The Hugging Face reader: tiny.en's weights written in HF layout (renamed, unfused tensors in
safetensors) give the same graph outputs as the CTranslate2 reader."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from app.engine.convert.ct2_reader import read_ct2_folder
from app.engine.convert.decoder_graph import build_decoder
from app.engine.convert.encoder_graph import build_encoder
from app.engine.convert.hf_reader import read_hf_folder
from app.engine.convert.readers import read_weights


def _write_safetensors(path: Path, tensors: dict[str, np.ndarray]) -> None:
    header, offset, blobs = {}, 0, []
    for name, array in tensors.items():
        data = np.ascontiguousarray(array, dtype=np.float16).tobytes()
        header[name] = {"dtype": "F16", "shape": list(array.shape), "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
        blobs.append(data)
    raw = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + b"".join(blobs))


def _to_hf(t: dict[str, np.ndarray], n_layers: int) -> dict[str, np.ndarray]:
    """CTranslate2 names -> transformers' WhisperForConditionalGeneration names (unfused)."""
    hf = {f"model.encoder.conv{i}.{p}": t[f"encoder/conv{i}/{p}"] for i in (1, 2) for p in ("weight", "bias")}
    hf["model.encoder.embed_positions.weight"] = t["encoder/position_encodings/encodings"]
    hf["model.decoder.embed_positions.weight"] = t["decoder/position_encodings/encodings"]
    hf["model.decoder.embed_tokens.weight"] = t["decoder/embeddings/weight"]
    for side in ("encoder", "decoder"):
        hf[f"model.{side}.layer_norm.weight"] = t[f"{side}/layer_norm/gamma"]
        hf[f"model.{side}.layer_norm.bias"] = t[f"{side}/layer_norm/beta"]
        for i in range(n_layers):
            _layer(t, hf, side, i)
    return hf


def _layer(t: dict[str, np.ndarray], hf: dict[str, np.ndarray], side: str, i: int) -> None:
    src, dst = f"{side}/layer_{i}", f"model.{side}.layers.{i}"
    attn = [("self_attention", "self_attn")] + ([("attention", "encoder_attn")] if side == "decoder" else [])
    for ct2, name in attn:
        if ct2 == "self_attention":
            q, k, v = np.split(t[f"{src}/{ct2}/linear_0/weight"], 3)
            qb, _, vb = np.split(t[f"{src}/{ct2}/linear_0/bias"], 3)
            out = "linear_1"
        else:
            q, qb = t[f"{src}/{ct2}/linear_0/weight"], t[f"{src}/{ct2}/linear_0/bias"]
            k, v = np.split(t[f"{src}/{ct2}/linear_1/weight"], 2)
            _, vb = np.split(t[f"{src}/{ct2}/linear_1/bias"], 2)
            out = "linear_2"
        for proj, w in (("q", q), ("k", k), ("v", v)):
            hf[f"{dst}.{name}.{proj}_proj.weight"] = w
        hf[f"{dst}.{name}.q_proj.bias"], hf[f"{dst}.{name}.v_proj.bias"] = qb, vb
        hf[f"{dst}.{name}.out_proj.weight"] = t[f"{src}/{ct2}/{out}/weight"]
        hf[f"{dst}.{name}.out_proj.bias"] = t[f"{src}/{ct2}/{out}/bias"]
        ln = f"{dst}.{name}_layer_norm"
        hf[f"{ln}.weight"], hf[f"{ln}.bias"] = t[f"{src}/{ct2}/layer_norm/gamma"], t[f"{src}/{ct2}/layer_norm/beta"]
    hf[f"{dst}.final_layer_norm.weight"] = t[f"{src}/ffn/layer_norm/gamma"]
    hf[f"{dst}.final_layer_norm.bias"] = t[f"{src}/ffn/layer_norm/beta"]
    for j, fc in enumerate(("fc1", "fc2")):
        hf[f"{dst}.{fc}.weight"] = t[f"{src}/ffn/linear_{j}/weight"]
        hf[f"{dst}.{fc}.bias"] = t[f"{src}/ffn/linear_{j}/bias"]


@pytest.fixture(scope="module")
def hf_folder(tmp_path_factory, bundled_model_dir) -> Path:
    ct2 = read_ct2_folder(bundled_model_dir)
    folder = tmp_path_factory.mktemp("hf-tiny-en")
    _write_safetensors(folder / "model.safetensors", _to_hf(ct2.tensors, ct2.dims.n_audio_layer))
    d = ct2.dims
    (folder / "config.json").write_text(json.dumps({
        "model_type": "whisper", "encoder_layers": d.n_audio_layer, "decoder_layers": d.n_text_layer,
        "encoder_attention_heads": d.n_audio_head, "decoder_attention_heads": d.n_text_head,
        "num_mel_bins": d.n_mels, "vocab_size": d.n_vocab, "suppress_tokens": ct2.suppress_ids,
        "begin_suppress_tokens": ct2.suppress_ids_begin}))
    (folder / "tokenizer.json").write_bytes((bundled_model_dir / "tokenizer.json").read_bytes())
    return folder


def _run(weights, mel: np.ndarray) -> np.ndarray:
    enc = ort.InferenceSession(build_encoder(weights).SerializeToString(), providers=["CPUExecutionProvider"])
    dec = ort.InferenceSession(build_decoder(weights).SerializeToString(), providers=["CPUExecutionProvider"])
    cross = dict(zip([o.name for o in enc.get_outputs()], enc.run(None, {"mel": mel}), strict=True))
    empty = np.zeros((1, weights.dims.n_text_head, 0, 64), np.float32)
    feed = {**cross, "tokens": np.array([[50257, 50362, 440]], np.int64), "cache_indices": np.zeros(1, np.int64)}
    feed.update({f"past_{k}_{i}": empty for i in range(weights.dims.n_text_layer) for k in "kv"})
    return dec.run(["logits"], feed)[0]


def test_hf_and_ct2_readers_give_the_same_outputs(hf_folder, bundled_model_dir):
    hf = read_weights(hf_folder)
    ct2 = read_ct2_folder(bundled_model_dir)
    assert hf.dims == ct2.dims
    assert hf.suppress_ids == ct2.suppress_ids
    mel = np.random.default_rng(0).standard_normal((1, 80, 3000)).astype(np.float32) * 0.5
    np.testing.assert_allclose(_run(hf, mel), _run(ct2, mel), rtol=1e-4, atol=1e-3)


def test_hf_folder_missing_tensor_is_a_clear_error(hf_folder, tmp_path):
    from app.engine.convert.weights import ModelFormatError

    broken = tmp_path / "broken"
    broken.mkdir()
    for name in ("config.json", "tokenizer.json"):
        (broken / name).write_bytes((hf_folder / name).read_bytes())
    _write_safetensors(broken / "model.safetensors", {"model.encoder.conv1.weight": np.zeros((2, 2))})
    with pytest.raises(ModelFormatError, match=r"not a complete Whisper model|missing"):
        read_hf_folder(broken)
