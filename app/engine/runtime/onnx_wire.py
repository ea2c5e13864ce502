"""The few ONNX protobuf records that extend a graph, written in protobuf's wire format directly.

A serialized ModelProto followed by another one that holds only a `graph` merges into one
model when parsed: protobuf merges a message field that appears twice, appending its repeated
fields (nodes, initializers, outputs). So a graph gains nodes without being parsed or
rewritten, and without the `onnx` package, whose import (ml_dtypes with it) costs up to a
second of a short run. Field numbers are those of onnx.proto (proto2; every field here is
either a string, a varint or a message). `metadata` reads a model's metadata the same way: it
walks the model's top-level fields only, stepping over the graph without reading it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

_VARINT, _FIXED64, _BYTES, _FIXED32 = 0, 1, 2, 5
_METADATA_PROPS = 14  # ModelProto.metadata_props: StringStringEntryProto (key 1, value 2)
_INT64_ELEM_TYPE = 7  # TensorProto.INT64
_ATTRIBUTE_INT, _ATTRIBUTE_INTS = 2, 7  # AttributeProto.INT, .INTS


def _varint(value: int) -> bytes:
    value &= (1 << 64) - 1  # negative int64s are written as their 10-byte two's complement
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _int_field(number: int, value: int) -> bytes:
    return _varint(number << 3 | _VARINT) + _varint(value)


def _bytes_field(number: int, value: bytes | str) -> bytes:
    data = value.encode() if isinstance(value, str) else value
    return _varint(number << 3 | _BYTES) + _varint(len(data)) + data


def _strings(number: int, values: Iterable[str]) -> bytes:
    return b"".join(_bytes_field(number, v) for v in values)


def node(op_type: str, inputs: Sequence[str], outputs: Sequence[str], **attributes: int | Sequence[int]) -> bytes:
    """A NodeProto: inputs 1, outputs 2, op_type 4, attributes 5 (AttributeProtos, by name as
    onnx.helper orders them)."""
    records = b"".join(_bytes_field(5, _attribute(name, value)) for name, value in sorted(attributes.items()))
    return _strings(1, inputs) + _strings(2, outputs) + _bytes_field(4, op_type) + records


def _attribute(name: str, value: int | Sequence[int]) -> bytes:
    """An AttributeProto: name 1, then i 3 (an int) or ints 8 (a list), then type 20."""
    if isinstance(value, int):
        return _bytes_field(1, name) + _int_field(3, value) + _int_field(20, _ATTRIBUTE_INT)
    ints = b"".join(_int_field(8, v) for v in value)
    return _bytes_field(1, name) + ints + _int_field(20, _ATTRIBUTE_INTS)


def int64_tensor(name: str, values: Sequence[int]) -> bytes:
    """A TensorProto [len(values)] int64: dims 1, data_type 2, name 8, raw_data 9 (little-endian)."""
    raw = np.asarray(values, dtype="<i8").tobytes()
    return _int_field(1, len(values)) + _int_field(2, _INT64_ELEM_TYPE) + _bytes_field(8, name) + _bytes_field(9, raw)


def tensor_output(name: str, elem_type: int, shape: Sequence[int | str]) -> bytes:
    """A ValueInfoProto (name 1, type 2) of a tensor: TypeProto.tensor_type 1 (elem_type 1,
    shape 2), each dimension a dim_value 1 (int) or a dim_param 2 (str)."""
    dims = b"".join(_bytes_field(1, _bytes_field(2, d) if isinstance(d, str) else _int_field(1, d)) for d in shape)
    tensor_type = _int_field(1, elem_type) + _bytes_field(2, dims)
    return _bytes_field(1, name) + _bytes_field(2, _bytes_field(1, tensor_type))


def graph_extension(nodes: Sequence[bytes], initializers: Sequence[bytes], outputs: Sequence[bytes]) -> bytes:
    """A ModelProto holding only a graph (field 7) of these nodes (1), initializers (5) and
    outputs (12): appended to a serialized model, it adds them to that model's graph."""
    graph = (
        b"".join(_bytes_field(1, n) for n in nodes)
        + b"".join(_bytes_field(5, i) for i in initializers)
        + b"".join(_bytes_field(12, o) for o in outputs)
    )
    return _bytes_field(7, graph)


def metadata(model: bytes) -> dict[str, str]:
    """A serialized ModelProto's metadata_props as {key: value}; ValueError where the bytes are
    not protobuf's wire format."""
    found: dict[str, str] = {}
    for number, value in _fields(memoryview(model)):
        if number == _METADATA_PROPS and isinstance(value, memoryview):
            entry = {n: bytes(v).decode() for n, v in _fields(value) if isinstance(v, memoryview)}
            found[entry.get(1, "")] = entry.get(2, "")
    return found


def _fields(message: memoryview) -> Iterable[tuple[int, int | memoryview]]:
    """(field number, value) of each top-level field of `message`: an int for varints and
    fixed-size fields, a view of a length-delimited one's bytes (a graph is neither copied nor parsed)."""
    at = 0
    while at < len(message):
        key, at = _read_varint(message, at)
        number, kind = key >> 3, key & 7
        if kind == _VARINT:
            value, at = _read_varint(message, at)
            yield number, value
        elif kind == _BYTES:
            size, at = _read_varint(message, at)
            if at + size > len(message):
                raise ValueError("a field runs past the end of the message")
            yield number, message[at : at + size]
            at += size
        elif kind in (_FIXED64, _FIXED32):
            width = 8 if kind == _FIXED64 else 4
            yield number, int.from_bytes(message[at : at + width], "little")
            at += width
        else:
            raise ValueError(f"wire type {kind} is not one a model holds")


def _read_varint(data: memoryview, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if at >= len(data) or shift > 63:
            raise ValueError("a varint runs past the end of the message")
        byte = data[at]
        value |= (byte & 0x7F) << shift
        at, shift = at + 1, shift + 7
        if byte < 0x80:
            return value, at
