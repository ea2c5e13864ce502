"""Which precision `auto` means on each provider.

On the CPU, int8 (a per-row int8 encoder and an 8-bit decoder) keeps fp32's word error rate on
the English test clips in clearly less time than faster-whisper int8; int4 is faster still but loses
more than the half-point budget, and int8-accurate costs time and memory for fp32's exact text.
fp16 pays only on GPU providers. The figures behind the choice are in docs/performance.md.
"""

from __future__ import annotations

from app.engine.types import Precision

AUTO_CPU_PRECISION = Precision.INT8
AUTO_GPU_PRECISION = Precision.FP16


def resolve_precision(precision: Precision, provider: str) -> Precision:
    """`auto` -> the benchmark's pick for the provider; any other precision as it is."""
    if precision is not Precision.AUTO:
        return precision
    return AUTO_CPU_PRECISION if provider == "cpu" else AUTO_GPU_PRECISION
