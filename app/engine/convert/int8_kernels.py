"""Which int8 weight encoding the CPU's integer GEMM computes exactly.

x86 CPUs without VNNI multiply uint8 activations by int8 weights with `vpmaddubsw`, which adds
pairs of products into int16 and saturates (255 * 127 * 2 > 32767): results go silently wrong.
There, weights are stored as uint8 with zero point 128 (onnxruntime's u8u8 kernels widen to
int16 first and never saturate), the same values and the same results, somewhat slower.
VNNI (`vpdpbusd`) and ARM's dot-product instructions accumulate in int32: int8 weights are exact
and fastest (and give the same outputs as uint8 ones).
"""

from __future__ import annotations

import os
import platform
from pathlib import Path

PORTABLE_ENV = "EARSHOT_PORTABLE_INT8"
"""Set to 1 to build uint8 weights whatever this CPU has (installers ship graphs to any CPU)."""


def signed_weights_exact() -> bool:
    """True when int8 (signed) weights cannot saturate in this CPU's int8 GEMM."""
    if os.environ.get(PORTABLE_ENV) == "1":
        return False
    machine = platform.machine().lower()
    if machine in ("arm64", "aarch64"):
        return True
    if machine not in ("x86_64", "amd64", "i386", "i686"):
        return False
    return _cpu_flags() & {"avx512_vnni", "avx_vnni"} != set()


def weight_encoding_tag() -> str:
    """Part of the cache key: graphs built for one encoding are never served for the other."""
    return "" if signed_weights_exact() else "-u8w"


def _cpu_flags() -> set[str]:
    """x86 feature flags from /proc/cpuinfo; empty where it is unavailable (macOS, Windows), so
    those machines get the always-exact uint8 weights."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return set()
    for line in text.splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()
