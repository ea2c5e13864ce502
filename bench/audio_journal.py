"""What journaling dictation audio for crash recovery costs the worker thread.

    python bench/audio_journal.py [--minutes 10] [--block-ms 20] [--commit-every-s 3]

Feeds `AudioJournal.write` 16 kHz float32 blocks the size the worker pulls (20 ms at the
microphone's pace; larger after a decode), with a commit mark every few seconds as dictation
makes them, into a temporary folder, and prints the cost per block, per second of audio, and as
a share of real time, plus the most disk the journal held.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.dictation.audio_journal import AudioJournal, JournalOptions

RATE = 16000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--block-ms", type=float, default=20.0)
    parser.add_argument("--commit-every-s", type=float, default=3.0)
    args = parser.parse_args()
    block = int(RATE * args.block_ms / 1000)
    blocks = int(args.minutes * 60 * RATE / block)
    audio = np.random.default_rng(0).uniform(-0.3, 0.3, block).astype(np.float32)
    with tempfile.TemporaryDirectory() as tmp:
        journal = AudioJournal(Path(tmp), JournalOptions())
        times, peak_bytes, written = [], 0, 0
        every = max(1, int(args.commit_every_s * RATE / block))
        for i in range(blocks):
            start = time.perf_counter()
            journal.write(audio)
            written += block
            if i % every == every - 1:
                journal.mark_committed((written - RATE) / RATE)  # text stored up to 1 s ago
            times.append(time.perf_counter() - start)
            if i % 500 == 0:
                peak_bytes = max(peak_bytes, sum(p.stat().st_size for p in journal.folder.glob("seg-*")))
        journal.discard()
    per_block = np.array(times) * 1e6
    audio_s = blocks * block / RATE
    print(f"{blocks} blocks of {args.block_ms:.0f} ms ({audio_s / 60:.1f} min of audio)")
    print(f"per block: median {np.median(per_block):.1f} us, p99 {np.percentile(per_block, 99):.1f} us, "
          f"max {per_block.max():.0f} us")
    print(f"per audio second: {per_block.sum() / audio_s:.0f} us ({per_block.sum() / 1e6 / audio_s * 100:.3f} % "
          "of real time)")
    print(f"most disk held: {peak_bytes / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
