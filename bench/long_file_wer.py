"""Long-file WER of the shared English clips joined in several orders, against the same clips
transcribed alone: a long file must lose and repeat no phrase.

    python bench/long_file_wer.py                         # speech, speech2, robustness; fp32 beam 5, all orders
    python bench/long_file_wer.py --set speech --precision int8 --beam-size 1 --orders forward+reverse

Each clip of at most 30 s is followed by 1 s of silence (tests/joined_clips.py builds the files).
Prints, per set and order, the WER of the joined file's text against the joined references and
the corpus WER of the clips decoded one by one, and the words the joined file lost or added.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests")]  # this checkout's app, not an installed one

import numpy as np  # noqa: E402
from joined_clips import changed_runs, english_clips, joined, longest_change, orders  # noqa: E402

from app.audio.vad import SileroVadModel  # noqa: E402
from app.engine.models.loader import load_engine  # noqa: E402
from app.engine.transcribe.whisper_engine import WhisperEngine  # noqa: E402
from app.engine.types import DecodeOptions, Precision  # noqa: E402
from app.engine.wer import word_error_rate  # noqa: E402

SETS = {name: REPO.parent / "shared" / "data" / name for name in ("speech", "speech2", "robustness")}


def _text(engine: WhisperEngine, audio: np.ndarray, options: DecodeOptions, vad: bool) -> str:
    segments, _ = engine.transcribe(audio, options, speech=SileroVadModel() if vad else None)
    return " ".join(s.text.strip() for s in segments)


def _diff(reference: str, hypothesis: str) -> list[str]:
    """The words lost (-) and added (+) by the hypothesis, as runs."""
    return [f"-{' '.join(lost)} +{' '.join(added)}" for lost, added in changed_runs(reference, hypothesis)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", choices=sorted(SETS), action="append")
    parser.add_argument("--precision", default="fp32", choices=[p.value for p in Precision])
    parser.add_argument("--beam-size", type=int, default=5)
    parser.add_argument("--orders", nargs="*")
    parser.add_argument("--vad", action="store_true", help="with the Silero speech map, as the app and CLI decode")
    parser.add_argument(
        "--no-fill", action="store_true", help="without decoding alone the speech a window passed over (with --vad)"
    )
    args = parser.parse_args()
    engine = load_engine(precision=Precision(args.precision))
    options = DecodeOptions(beam_size=args.beam_size, fill_speech_gaps=not args.no_fill)
    print(f"tiny.en {engine.precision.value} beam {args.beam_size}{' with the Silero speech map' if args.vad else ''}"
          f"{', passed-over speech not decoded alone' if args.vad and args.no_fill else ''}")
    for name in args.set or sorted(SETS):
        clips = english_clips(SETS[name])
        alone = [_text(engine, c.audio, options, args.vad) for c in clips]
        for order_name, order in orders(len(clips)).items():
            if args.orders and order_name not in args.orders:
                continue
            audio, references = joined(clips, order)
            t0 = time.perf_counter()
            text = _text(engine, audio, options, args.vad)
            seconds = time.perf_counter() - t0
            alone_wer = word_error_rate(references, [alone[i] for i in order])
            long_wer = word_error_rate([" ".join(references)], [text])
            expected = " ".join(alone[i] for i in order)
            print(f"{name:8s} {order_name:16s} {len(audio) / 16000:6.1f} s  alone {alone_wer:5.2f} %  "
                  f"joined {long_wer:5.2f} %  longest change {longest_change(expected, text):2d} words  "
                  f"({seconds:.0f} s)")
            print("    vs clips alone:", " | ".join(_diff(expected, text)) or "same words")


if __name__ == "__main__":
    main()
