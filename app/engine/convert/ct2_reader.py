"""Read a CTranslate2 Whisper folder (`model.bin`, `config.json`, `tokenizer.json`).

`model.bin` layout (CTranslate2 `specs/model_spec.py`, binary versions 3-6): uint32 version,
[version >= 2: string spec name, uint32 revision], uint32 n_variables, then per variable a
string name, uint8 rank, uint32 dims[rank], a dtype (uint8 id for version >= 4, else a string),
uint32 n_bytes and the raw little-endian bytes; then uint32 n_aliases and (alias, target) string
pairs. A string is uint16 length (including a trailing NUL) followed by UTF-8 bytes.
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

# Order of CTranslate2's DataType enum (include/ctranslate2/types.h).
_DTYPES: tuple[str, ...] = ("float32", "int8", "int16", "int32", "float16", "bfloat16")


class _Cursor:
    """Sequential reader over a byte buffer that reports truncation clearly."""

    def __init__(self, data: bytes | mmap.mmap, path: Path) -> None:
        self.data = data
        self.pos = 0
        self.path = path

    def take(self, n: int) -> memoryview:
        if self.pos + n > len(self.data):
            raise ModelFormatError(f"{self.path} is truncated ({len(self.data)} bytes; needs more than {self.pos + n})")
        view = memoryview(self.data)[self.pos : self.pos + n]
        self.pos += n
        return view

    def unpack(self, fmt: str) -> int:
        size = struct.calcsize(fmt)
        value: int = struct.unpack("<" + fmt, self.take(size))[0]
        return value

    def string(self) -> str:
        length = self.unpack("H")
        return bytes(self.take(length))[:-1].decode("utf-8")


def _read_variable(cur: _Cursor, version: int) -> tuple[str, NDArray[Any]]:
    name = cur.string()
    rank = cur.unpack("B")
    dims = [cur.unpack("I") for _ in range(rank)]
    dtype_name = _DTYPES[cur.unpack("B")] if version >= 4 else cur.string()
    n_bytes = cur.unpack("I")
    raw = cur.take(n_bytes)
    if dtype_name == "bfloat16":
        # numpy has no bfloat16: widen to float32 by placing the bits in the high half.
        bits = np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16
        array: NDArray[Any] = bits.view(np.float32)
    else:
        array = np.frombuffer(raw, dtype=np.dtype(dtype_name).newbyteorder("<"))
    return name, array.reshape(dims)


def read_model_bin(path: Path) -> dict[str, NDArray[Any]]:
    """Parse `model.bin` into name -> array (zero-copy views of a read-only memory map)."""
    try:
        with path.open("rb") as handle:
            data: bytes | mmap.mmap = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    except ValueError:  # an empty file cannot be mapped
        raise ModelFormatError(f"{path} is empty") from None
    cur = _Cursor(data, path)
    version = cur.unpack("I")
    if not 1 <= version <= 6:
        raise ModelFormatError(f"{path} is not a CTranslate2 model (binary version {version})")
    if version >= 2:
        spec = cur.string()
        cur.unpack("I")  # spec revision
        if spec and spec != "WhisperSpec":
            raise ModelFormatError(f"{path} holds a {spec}, not a Whisper model")
    tensors: dict[str, NDArray[Any]] = {}
    for _ in range(cur.unpack("I")):
        name, array = _read_variable(cur, version)
        tensors[name] = array
    if version >= 3:
        for _ in range(cur.unpack("I")):
            alias, target = cur.string(), cur.string()
            tensors[alias] = tensors[target]
    return tensors


def _dequantize_int8(tensors: dict[str, NDArray[Any]]) -> None:
    """int8 CTranslate2 models store `weight` as int8 with a per-row `weight_scale`."""
    for name in [n for n in tensors if n.endswith("/weight_scale")]:
        base = name[: -len("_scale")]
        scale = tensors.pop(name).astype(np.float32)
        weight = tensors[base].astype(np.float32)
        tensors[base] = (weight / scale.reshape(-1, *([1] * (weight.ndim - 1)))).astype(np.float32)


def is_ct2_folder(folder: Path) -> bool:
    return (folder / "model.bin").is_file()


def read_ct2_folder(folder: Path) -> WhisperWeights:
    """Read a CTranslate2 / faster-whisper model folder into `WhisperWeights`."""
    model_bin = folder / "model.bin"
    if not model_bin.is_file():
        raise ModelFormatError(f"{folder} has no model.bin: not a CTranslate2 Whisper folder")
    tokenizer = folder / "tokenizer.json"
    if not tokenizer.is_file():
        raise ModelFormatError(f"{folder} has no tokenizer.json")
    tensors = read_model_bin(model_bin)
    _dequantize_int8(tensors)
    config = _read_json(folder / "config.json")
    n_audio_head = int(tensors.pop("encoder/num_heads", np.array(0)).item() or 0)
    n_text_head = int(tensors.pop("decoder/num_heads", np.array(0)).item() or 0)
    if not n_audio_head or not n_text_head:
        raise ModelFormatError(f"{model_bin} does not record the number of attention heads")
    dims = infer_dims(tensors, n_audio_head, n_text_head)
    return WhisperWeights(
        dims=dims,
        tensors={k: v for k, v in tensors.items() if v.ndim > 0},
        suppress_ids=[int(t) for t in config.get("suppress_ids", [])],
        suppress_ids_begin=[int(t) for t in config.get("suppress_ids_begin", [])],
        alignment_heads=[(int(a), int(b)) for a, b in config.get("alignment_heads", [])],
        lang_ids=[int(t) for t in config.get("lang_ids", [])],
        tokenizer_json=tokenizer.read_bytes(),
    )


def _read_json(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelFormatError(f"{path} is not valid JSON: {exc}") from None
    if not isinstance(loaded, dict):
        raise ModelFormatError(f"{path} is not a JSON object")
    return loaded
