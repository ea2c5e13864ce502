"""Long files: peak RSS and wall time of `earshot transcribe` on generated recordings.

    python bench/long_files.py                      # this checkout: 5 min, 60 min, 3 h; 60 min silence
    python bench/long_files.py --repo /tmp/old --minutes 5 60   # another checkout (before/after)
    python bench/long_files.py --clips     # each shared clip with and without the voice detector

Each file is near-silence at -90 dBFS with four espeak sentences at known places (see
tests/long_recordings.py), or 60 minutes of digital silence; each run is a fresh process
(`python -m app transcribe FILE --precision fp32 --beam-size 1 --format json`) whose own
ru_maxrss is the peak. Wall times on the shared 2-core machines vary: compare runs side by side.

The silence skip's thresholds (app/engine/transcribe/speech_map.py) come from Silero's speech
probability per 32 ms frame and Whisper tiny.en's no-speech probability per 30 s window on the
shared whispered, noise, music and silent clips; the figures are in docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from earshot_testing import DATA_DIR, espeak_clips, read_wav  # noqa: E402
from long_recordings import Background, write_recording  # noqa: E402

PEAK = """
import resource, sys
from app.cli import main
code = main(sys.argv[1:])
print("PEAK_RSS_KB", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
sys.exit(code)
"""


def measure(repo: Path, path: Path) -> tuple[float, float, int]:
    """(peak RSS MB, wall s, segments) of one transcription in a fresh process."""
    t0 = time.perf_counter()
    run = subprocess.run([sys.executable, "-c", PEAK, "transcribe", str(path), "--precision", "fp32",
                          "--beam-size", "1", "--format", "txt"], cwd=repo, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(repo)}, check=True)
    wall = time.perf_counter() - t0
    peak = int(run.stderr.rsplit("PEAK_RSS_KB", 1)[1].split()[0])
    return peak / 1024, wall, len([line for line in run.stdout.splitlines() if line.strip()])


def clip_check() -> None:
    """Every clip of ../shared/data/speech and ../shared/data/robustness, greedy, with the Silero
    VAD as the speech detector and without: the same text (speech), or no text (ns_*)."""
    from app.audio.file_decoder import decode_audio
    from app.audio.vad import SileroVadModel
    from app.engine.models.loader import load_engine
    from app.engine.types import DecodeOptions, Precision

    engine = load_engine(precision=Precision.AUTO)
    shared = REPO.parent / "shared" / "data"
    for path in sorted((shared / "speech").glob("*.wav")) + sorted((shared / "robustness").glob("*.wav")):
        if path.name.endswith(".orig.wav"):
            continue
        audio = decode_audio(path)
        texts = [" ".join(seg.text.strip() for seg in engine.transcribe(
            audio, DecodeOptions(beam_size=1), speech=detector)[0]) for detector in (SileroVadModel(), None)]
        verdict = "same" if texts[0] == texts[1] else "DIFFERENT"
        print(f"{path.stem:30s} {verdict:9s} with VAD: {texts[0][:60]!r}  without: {texts[1][:40]!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=REPO, help="checkout to run (default: this one)")
    parser.add_argument("--minutes", type=float, nargs="+", default=[5, 60, 180])
    parser.add_argument("--silence-minutes", type=float, default=60)
    parser.add_argument("--clips", action="store_true", help="only the shared clips, with and without the VAD")
    args = parser.parse_args()
    if args.clips:
        clip_check()
        return
    clips = [read_wav(DATA_DIR / c["file"]) for c in espeak_clips()[:4]]
    with tempfile.TemporaryDirectory() as folder:
        for minutes in args.minutes:
            seconds = minutes * 60
            starts = (10, seconds / 3, 2 * seconds / 3, seconds - 10)
            path = write_recording(Path(folder) / "long.wav", seconds, list(zip(starts, clips, strict=True)))
            peak, wall, lines = measure(args.repo, path)
            print(f"{minutes:5.0f} min, 4 sentences: peak RSS {peak:7.0f} MB, wall {wall:6.1f} s, {lines} lines")
        if args.silence_minutes:
            path = write_recording(Path(folder) / "silence.wav", args.silence_minutes * 60, kind=Background.SILENCE)
            peak, wall, lines = measure(args.repo, path)
            print(f"{args.silence_minutes:5.0f} min digital silence: peak RSS {peak:7.0f} MB, wall {wall:6.1f} s, "
                  f"{lines} lines of text")


if __name__ == "__main__":
    main()
