"""Run ufal's whisper_streaming (../shared/peers/whisper_streaming, MIT, not copied here) on CPU.

    python bench/whisper_streaming_peer.py AUDIO.wav --model_dir DIR --lan en --min-chunk-size 1.0 [...]

Its FasterWhisperASR loads the model on CUDA in float16; this wrapper replaces faster-whisper's
`WhisperModel` with one pinned to CPU, int8, 2 threads, then runs `whisper_online.py` as its own
`__main__` with the arguments given. Its stdout lines are `emission_ms start_ms end_ms text`.
Needs the `bench` extra (librosa, soundfile).
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path

import faster_whisper

PEER = Path(__file__).resolve().parents[2] / "shared" / "peers" / "whisper_streaming" / "whisper_online.py"
THREADS = int(os.environ.get("PEER_THREADS", "2"))
_Original = faster_whisper.WhisperModel


class CpuInt8WhisperModel(_Original):  # type: ignore[misc, valid-type]
    """faster-whisper's model with the device, precision and threads forced."""

    def __init__(self, model_size_or_path: str, *args: object, **kwargs: object) -> None:
        kwargs.update(device="cpu", compute_type="int8", cpu_threads=THREADS)
        super().__init__(model_size_or_path, **kwargs)  # type: ignore[arg-type]


def main() -> None:
    faster_whisper.WhisperModel = CpuInt8WhisperModel  # type: ignore[misc]
    sys.argv = [str(PEER), *sys.argv[1:]]
    sys.path.insert(0, str(PEER.parent))
    runpy.run_path(str(PEER), run_name="__main__")


if __name__ == "__main__":
    main()
