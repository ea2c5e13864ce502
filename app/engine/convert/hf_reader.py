"""Read a Hugging Face Whisper folder (`config.json`, `model.safetensors`, `tokenizer.json`).

safetensors layout: uint64 little-endian header size N, N bytes of JSON mapping each tensor
name to {dtype, shape, data_offsets}, then the raw data. Tensors are renamed to the
CTranslate2 layout (`weights.py`), fusing Q/K/V (K has no bias in Whisper: zeros are used).
"""

from __future__ import annotations

import json
import mmap
import struct
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from app.engine.convert.weights import ModelFormatError, WhisperWeights, infer_dims

_ST_DTYPES = {"F32": "<f4", "F16": "<f2", "I64": "<i8", "I32": "<i4"}


def is_hf_folder(folder: Path) -> bool:
    return (folder / "config.json").is_file() and any(folder.glob("*.safetensors"))


def read_safetensors(path: Path) -> dict[str, NDArray[Any]]:
    with path.open("rb") as handle:
        try:
            data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        except ValueError:
            raise ModelFormatError(f"{path} is empty") from None
    if len(data) < 8:
        raise ModelFormatError(f"{path} is truncated")
    header_size = struct.unpack("<Q", data[:8])[0]
    try:
        header = json.loads(bytes(data[8 : 8 + header_size]))
    except ValueError:
        raise ModelFormatError(f"{path} is not a safetensors file") from None
    base = 8 + header_size
    tensors: dict[str, NDArray[Any]] = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        if base + end > len(data):
            raise ModelFormatError(f"{path} is truncated (tensor {name})")
        if info["dtype"] == "BF16":
            bits = np.frombuffer(data, "<u2", (end - start) // 2, base + start).astype(np.uint32) << 16
            array: NDArray[Any] = bits.view(np.float32)
        else:
            dtype = np.dtype(_ST_DTYPES[info["dtype"]])
            array = np.frombuffer(data, dtype, (end - start) // dtype.itemsize, base + start)
        tensors[name] = array.reshape(info["shape"])
    return tensors


def _attention(src: dict[str, NDArray[Any]], hf: str, ct2: str, out: dict[str, NDArray[Any]], self_attn: bool) -> None:
    q_w, k_w, v_w = (src[f"{hf}.{p}_proj.weight"] for p in "qkv")
    q_b, v_b = src[f"{hf}.q_proj.bias"], src[f"{hf}.v_proj.bias"]
    k_b = np.zeros_like(q_b)
    if self_attn:
        out[f"{ct2}/linear_0/weight"] = np.concatenate([q_w, k_w, v_w])
        out[f"{ct2}/linear_0/bias"] = np.concatenate([q_b, k_b, v_b])
        out_name = f"{ct2}/linear_1"
    else:
        out[f"{ct2}/linear_0/weight"], out[f"{ct2}/linear_0/bias"] = q_w, q_b
        out[f"{ct2}/linear_1/weight"] = np.concatenate([k_w, v_w])
        out[f"{ct2}/linear_1/bias"] = np.concatenate([k_b, v_b])
        out_name = f"{ct2}/linear_2"
    out[f"{out_name}/weight"] = src[f"{hf}.out_proj.weight"]
    out[f"{out_name}/bias"] = src[f"{hf}.out_proj.bias"]


def _layer_norm(src: dict[str, NDArray[Any]], hf: str, ct2: str, out: dict[str, NDArray[Any]]) -> None:
    out[f"{ct2}/gamma"], out[f"{ct2}/beta"] = src[f"{hf}.weight"], src[f"{hf}.bias"]


def _layer(src: dict[str, NDArray[Any]], side: str, i: int, out: dict[str, NDArray[Any]]) -> None:
    hf, ct2 = f"model.{side}.layers.{i}", f"{side}/layer_{i}"
    _attention(src, f"{hf}.self_attn", f"{ct2}/self_attention", out, True)
    _layer_norm(src, f"{hf}.self_attn_layer_norm", f"{ct2}/self_attention/layer_norm", out)
    if side == "decoder":
        _attention(src, f"{hf}.encoder_attn", f"{ct2}/attention", out, False)
        _layer_norm(src, f"{hf}.encoder_attn_layer_norm", f"{ct2}/attention/layer_norm", out)
    _layer_norm(src, f"{hf}.final_layer_norm", f"{ct2}/ffn/layer_norm", out)
    for j, fc in enumerate(("fc1", "fc2")):
        out[f"{ct2}/ffn/linear_{j}/weight"] = src[f"{hf}.{fc}.weight"]
        out[f"{ct2}/ffn/linear_{j}/bias"] = src[f"{hf}.{fc}.bias"]


def hf_to_ct2_names(src: dict[str, NDArray[Any]], n_enc: int, n_dec: int) -> dict[str, NDArray[Any]]:
    out: dict[str, NDArray[Any]] = {}
    for i in (1, 2):
        out[f"encoder/conv{i}/weight"] = src[f"model.encoder.conv{i}.weight"]
        out[f"encoder/conv{i}/bias"] = src[f"model.encoder.conv{i}.bias"]
    out["encoder/position_encodings/encodings"] = src["model.encoder.embed_positions.weight"]
    out["decoder/position_encodings/encodings"] = src["model.decoder.embed_positions.weight"]
    out["decoder/embeddings/weight"] = src["model.decoder.embed_tokens.weight"]
    _layer_norm(src, "model.encoder.layer_norm", "encoder/layer_norm", out)
    _layer_norm(src, "model.decoder.layer_norm", "decoder/layer_norm", out)
    for i in range(n_enc):
        _layer(src, "encoder", i, out)
    for i in range(n_dec):
        _layer(src, "decoder", i, out)
    return out


def read_hf_folder(folder: Path) -> WhisperWeights:
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    if config.get("model_type") != "whisper":
        kind = config.get("model_type")
        raise ModelFormatError(f"{folder}/config.json is not a Whisper config (model_type {kind!r})")
    tokenizer = folder / "tokenizer.json"
    if not tokenizer.is_file():
        raise ModelFormatError(f"{folder} has no tokenizer.json")
    src: dict[str, NDArray[Any]] = {}
    for path in sorted(folder.glob("*.safetensors")):
        src.update(read_safetensors(path))
    try:
        tensors = hf_to_ct2_names(src, int(config["encoder_layers"]), int(config["decoder_layers"]))
    except KeyError as exc:
        raise ModelFormatError(f"{folder} lacks tensor {exc.args[0]!r}: not a complete Whisper model") from None
    dims = infer_dims(tensors, int(config["encoder_attention_heads"]), int(config["decoder_attention_heads"]))
    generation = _generation_config(folder)
    suppress = [int(t) for t in generation.get("suppress_tokens", config.get("suppress_tokens") or [])]
    begin = [int(t) for t in generation.get("begin_suppress_tokens", config.get("begin_suppress_tokens") or [])]
    heads = [(int(a), int(b)) for a, b in generation.get("alignment_heads", [])]
    return WhisperWeights(dims, tensors, suppress, begin, heads, [], tokenizer.read_bytes())


def _generation_config(folder: Path) -> dict[str, Any]:
    path = folder / "generation_config.json"
    if not path.is_file():
        return {}
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded
