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


def cpu_int8_whisper_model(model_size_or_path: str, *args: object, **kwargs: object) -> faster_whisper.WhisperModel:
    """faster-whisper's model with the device, precision and threads forced. A factory in the
    class's place: whisper_online.py only constructs it (and faster-whisper has no type
    information, so a subclass would subclass an unknown type)."""
    kwargs.update(device="cpu", compute_type="int8", cpu_threads=THREADS)
    return _Original(model_size_or_path, **kwargs)


def main() -> None:
    faster_whisper.WhisperModel = cpu_int8_whisper_model
    sys.argv = [str(PEER), *sys.argv[1:]]
    sys.path.insert(0, str(PEER.parent))
    runpy.run_path(str(PEER), run_name="__main__")


if __name__ == "__main__":
    main()
