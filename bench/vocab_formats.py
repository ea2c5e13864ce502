"""Smaller shipped models: tiny.en int8 with its vocabulary table stored coarser, measured.

    python bench/vocab_formats.py [--formats q4-b32 c6-b32 ...] [--rounds 3] [--threads 2]

Each candidate is the bundle's int8 model (portable uint8 weights, as packaging/build_model.py
converts it) with only the shared embedding / output-projection table re-quantized
(`app/engine/convert/vocab_table.py`), then compacted as the build does. `int8` is that model
unchanged. Format names: `q4-b64` = 4-bit cells, blocks of 64; `c6-b32` = 6-bit codes in the
8-bit cells (same kernels and file size, less entropy for xz), blocks of 32; `m4-b32-r17000` =
4-bit codes in 8-bit cells for the rare text rows 17000..50255 only (`parse_format`).
Per candidate: the folder's `tar -cf - DIR | xz -9 | wc -c`; normalised WER at beam 5 and greedy
on the 10 English clips of ../shared/data/speech plus the 6 spoken espeak clips of tests/data (the
set of docs/packaging.md), the shared clips alone, and the robustness classes of
bench/dictation_sets.py (whispered, hoarse, reverberant, noise at 10/5/0 dB; seeded mixes); decode
speed as the median over rounds of (this candidate's wall / int8's wall in the same round) on the
shared clips, beam 5, rounds alternating over candidates in one process.
Writes bench/results/vocab-formats.json and .md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from app.engine.transcribe.whisper_engine import WhisperEngine

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench" / "results"
sys.path[:0] = [str(REPO), str(REPO / "packaging"), str(REPO / "tests")]

from app.engine.convert.int8_kernels import PORTABLE_ENV  # noqa: E402
from app.engine.convert.layout import DECODER_FILE, ENCODER_FILE, TOKENIZER_FILE  # noqa: E402
from app.engine.convert.vocab_table import (  # noqa: E402
    ENGLISH_TEXT_TOKENS,
    VocabularyFormat,
    requantize_vocabulary,
)

DEFAULT_FORMATS = ("q4-b32", "q4-b64", "q4-b128", "c6-b32", "c5-b32")
Clip = tuple[str, np.ndarray, str]
"""(clip name, audio float32 16 kHz, reference text)."""
Measured = dict[str, Any]
"""One candidate's measurements: "texts" {"set:bBEAM": [text per clip]}, "walls" [s per round],
"tokens" [decoder tokens per round]."""
Row = dict[str, object]
"""One candidate's line of the table (`COLUMNS`)."""


def parse_format(name: str) -> VocabularyFormat:
    """`q4-b64` -> 4-bit cells, blocks of 64; `c6-b32` -> 6-bit codes in 8-bit cells, blocks of 32;
    `a4-b32` -> 4-bit cells with a zero point per block (asymmetric), blocks of 32; `m4-b32-r17000`
    -> 4-bit codes in the int8 table's 8-bit cells for rows 17000 up to `ENGLISH_TEXT_TOKENS` only
    (`-r17000-30000`: rows 17000..29999), every other row int8's."""
    kind, rest = name.split("-b")
    bits = int(kind[1:])
    if kind[0] == "m":
        block, rows = rest.split("-r")
        start, _, stop = rows.partition("-")
        return VocabularyFormat(bits, 8, int(block), coarse_rows=(int(start), int(stop or ENGLISH_TEXT_TOKENS)))
    return VocabularyFormat(bits, 8 if kind[0] == "c" else 4, int(rest), asymmetric=kind[0] == "a")


def _source_table() -> np.ndarray:
    from app.engine.convert.readers import read_weights
    from app.engine.models.store import bundled_model_dir

    return read_weights(bundled_model_dir()).tensors["decoder/embeddings/weight"].astype(np.float32)


def _converted_int8() -> Path:
    from app.engine.models.store import ModelStore
    from app.engine.types import Precision

    os.environ[PORTABLE_ENV] = "1"
    try:
        store = ModelStore()
        return store.converted(store.resolve(None), Precision.INT8)
    finally:
        os.environ.pop(PORTABLE_ENV, None)


def build_candidates(names: list[str], work: Path) -> dict[str, Path]:
    """{label: folder of compacted graphs}, int8 first."""
    import onnx
    from build_model import compact_graph

    source, table = _converted_int8(), _source_table()
    folders = {}
    for label in ["int8", *names]:
        folder = work / label
        folder.mkdir(parents=True)
        decoder = source / DECODER_FILE
        if label != "int8":
            model = requantize_vocabulary(onnx.load(str(decoder)), table, parse_format(label))
            decoder = work / f"{label}.raw.onnx"
            onnx.save(model, str(decoder))
        compact_graph(source / ENCODER_FILE, folder / ENCODER_FILE)
        compact_graph(decoder, folder / DECODER_FILE)
        shutil.copy2(source / TOKENIZER_FILE, folder / TOKENIZER_FILE)
        folders[label] = folder
    return folders


def xz_size(folder: Path) -> int:
    """Bytes of `tar -cf - DIR | xz -9` (single-threaded: the packages are xz -9 of the tree)."""
    tar = subprocess.Popen(["tar", "-cf", "-", "-C", str(folder.parent), folder.name], stdout=subprocess.PIPE)
    out = subprocess.run(["xz", "-9", "-T1", "-c"], stdin=tar.stdout, capture_output=True, check=True)
    tar.wait()
    return len(out.stdout)


def clip_sets() -> dict[str, list[Clip]]:
    """{set name: [(clip, audio float32 16 kHz, reference)]}."""
    from dictation_sets import condition_classes, english_clean
    from earshot_bench_io import read_wav
    from earshot_testing import DATA_DIR, espeak_clips

    shared = [(u.name, u.audio, u.reference) for u in english_clean()]
    espeak = [(c["file"], read_wav(DATA_DIR / c["file"]), c["text"]) for c in espeak_clips()]
    robust = [(f"{cls}:{u.name}", u.audio, u.reference) for cls, us in condition_classes().items() for u in us]
    return {"shared": shared, "espeak": espeak, "robust": robust}


def transcribe_all(engine: WhisperEngine, clips: list[Clip], beam: int) -> tuple[list[str], float, int]:
    """(texts, wall seconds, decoder tokens) over `clips` at `beam`, without conditioning."""
    from app.engine.types import DecodeOptions

    options = DecodeOptions(beam_size=beam, condition_on_previous_text=False)
    texts, tokens = [], 0
    start = time.perf_counter()
    for _, audio, _ in clips:
        segments, info = engine.transcribe(audio, options)
        texts.append(" ".join(s.text.strip() for s in segments))
        tokens += info.timings.n_tokens
    return texts, time.perf_counter() - start, tokens


def measure(folders: dict[str, Path], rounds: int, threads: int) -> dict[str, Measured]:
    """WER per set and beam, and paired speed against int8, for every candidate."""
    from app.engine.runtime.ort_sessions import SessionConfig
    from app.engine.runtime.whisper_runtime import WhisperRuntime
    from app.engine.transcribe.whisper_engine import WhisperEngine
    from app.engine.types import Precision

    sets = clip_sets()
    engines = {k: WhisperEngine(WhisperRuntime(f, SessionConfig("cpu", threads)), k, Precision.INT8)
               for k, f in folders.items()}
    out: dict[str, Measured] = {k: {"texts": {}, "walls": [], "tokens": []} for k in engines}
    for beam in (5, 1):
        for name, clips in sets.items():
            for label, engine in engines.items():
                texts, wall, tokens = transcribe_all(engine, clips, beam)
                out[label]["texts"][f"{name}:b{beam}"] = texts
                if name == "shared" and beam == 5:
                    out[label]["walls"].append(wall)
                    out[label]["tokens"].append(tokens)
            print(f"  {name} b{beam} done", file=sys.stderr)
    for r in range(1, rounds):  # more speed rounds, alternating over the candidates
        for label, engine in engines.items():
            _, wall, tokens = transcribe_all(engine, sets["shared"], 5)
            out[label]["walls"].append(wall)
            out[label]["tokens"].append(tokens)
        print(f"  speed round {r + 1}/{rounds} done", file=sys.stderr)
    return out


def summarize(raw: dict[str, Measured], sizes: dict[str, tuple[int, int]]) -> list[Row]:
    from app.engine.wer import word_error_rate

    refs = {name: [ref for _, _, ref in clips] for name, clips in clip_sets().items()}
    base = raw["int8"]
    rows = []
    for label, r in raw.items():
        row: Row = {"format": label, "disk_mb": sizes[label][0] / 1e6, "xz_mb": sizes[label][1] / 1e6}
        for beam in (5, 1):
            t = r["texts"]
            row[f"wer16_b{beam}"] = word_error_rate(refs["shared"] + refs["espeak"],
                                                    t[f"shared:b{beam}"] + t[f"espeak:b{beam}"])
            row[f"wer_shared_b{beam}"] = word_error_rate(refs["shared"], t[f"shared:b{beam}"])
            row[f"wer_robust_b{beam}"] = word_error_rate(refs["robust"], t[f"robust:b{beam}"])
            row[f"same_text_b{beam}"] = sum(
                a == b for key in ("shared", "espeak", "robust")
                for a, b in zip(t[f"{key}:b{beam}"], base["texts"][f"{key}:b{beam}"], strict=True))
        row["speed_vs_int8"] = statistics.median(a / b for a, b in zip(r["walls"], base["walls"], strict=True))
        rows.append(row)
    return rows


COLUMNS = [("format", "s"), ("disk_mb", ".1f"), ("xz_mb", ".2f"), ("wer16_b5", ".2f"), ("wer_shared_b5", ".2f"),
           ("wer_robust_b5", ".2f"), ("wer16_b1", ".2f"), ("wer_shared_b1", ".2f"), ("wer_robust_b1", ".2f"),
           ("same_text_b5", "d"), ("same_text_b1", "d"), ("speed_vs_int8", ".2f")]


def markdown(rows: list[Row], n_clips: int) -> str:
    lines = ["| " + " | ".join(c for c, _ in COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(format(r[c], f) for c, f in COLUMNS) + " |" for r in rows]
    return "\n".join([*lines, "", f"same_text: clips (of {n_clips}) whose text equals int8's."])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--formats", nargs="+", default=list(DEFAULT_FORMATS))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--work", type=Path, default=None, help="where candidates are built (default: a temp dir)")
    args = parser.parse_args()
    import tempfile

    work = args.work or Path(tempfile.mkdtemp(prefix="vocab-formats-"))
    folders = build_candidates(args.formats, work)
    sizes = {k: (sum(p.stat().st_size for p in f.iterdir()), xz_size(f)) for k, f in folders.items()}
    print("  sizes: " + ", ".join(f"{k} {v[1] / 1e6:.2f} MB xz" for k, v in sizes.items()), file=sys.stderr)
    raw = measure(folders, args.rounds, args.threads)
    rows = summarize(raw, sizes)
    n_clips = sum(len(c) for c in clip_sets().values())
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "vocab-formats.json").write_text(json.dumps({"rows": rows, "raw": raw}, indent=1))
    (RESULTS / "vocab-formats.md").write_text(markdown(rows, n_clips) + "\n")
    print(markdown(rows, n_clips))


if __name__ == "__main__":
    main()
