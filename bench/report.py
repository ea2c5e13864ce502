"""Turn raw benchmark rounds into the comparison table, JSON and a PNG chart."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.engine.wer import word_error_rate

Round = dict[str, Any]
"""One configuration's figures for one round, as its worker printed them (JSON)."""
Row = dict[str, Any]
"""One configuration's line of the table: medians over its rounds and the ratios to its peers."""
Median = Callable[[list[float]], float]


def _row(label: str, rounds: list[Round], clips: list[tuple[str, str]], median: Median) -> Row:
    first = rounds[0]
    wall = median([r["wall_s"] for r in rounds])
    return {
        "config": label, "wall_s": wall, "rtf": wall / first["audio_s"], "load_s": first["load_s"],
        "encoder_ms_per_window": first["encoder_ms_per_window"] and median(
            [r["encoder_ms_per_window"] for r in rounds]),
        "decoder_ms_per_token": first["decoder_ms_per_token"] and median([r["decoder_ms_per_token"] for r in rounds]),
        "peak_rss_mb": max(r["peak_rss_mb"] for r in rounds),
        # median over rounds: faster-whisper's temperature fallback samples with a fresh seed, so on
        # clips that fall back (base on the laughter clip) its text changes from round to round
        "wer": median([word_error_rate([ref for _, ref in clips], r["texts"]) for r in rounds]),
        "tokens": first["tokens"],
    }


def summarize(raw: dict[str, list[Round]], clips: list[tuple[str, str]], median: Median) -> list[Row]:
    rows = {label: _row(label, rounds, clips, median) for label, rounds in raw.items()}
    for label, row in rows.items():
        beam = ":".join(label.split(":")[2:])  # "b5", or "b5:busy1" for a run beside busy processes
        fw32, fw8 = rows.get(f"faster-whisper:float32:{beam}"), rows.get(f"faster-whisper:int8:{beam}")
        ours32 = rows.get(f"earshot:fp32:{beam}")
        row["vs_fw_int8"] = row["wall_s"] / fw8["wall_s"] if fw8 else None
        row["paired_vs_fw_int8"] = _paired(raw[label], raw[fw8["config"]], median) if fw8 else None
        row["vs_fw_float32"] = row["wall_s"] / fw32["wall_s"] if fw32 else None
        row["same_tokens_as_fw_float32"] = _same(row, fw32)
        row["same_tokens_as_earshot_fp32"] = _same(row, ours32)
    return list(rows.values())


def _paired(rounds: list[Round], peer: list[Round], median: Median) -> float:
    """Median of the per-round ratios: each round ran both engines back to back, so a ratio within
    one round is not moved by the machine switching speed between rounds."""
    return float(median([a["wall_s"] / b["wall_s"] for a, b in zip(rounds, peer, strict=True)]))


def _same(row: Row, other: Row | None) -> int | None:
    """How many clips gave `row` exactly the tokens they gave `other`."""
    if other is None:
        return None
    ours: list[list[int]] = row["tokens"]
    theirs: list[list[int]] = other["tokens"]
    return sum(a == b for a, b in zip(ours, theirs, strict=True))


def _fmt(value: object, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def markdown(model: str, table: list[Row], n_clips: int) -> str:
    lines = [f"### {model} ({n_clips} English clips, medians)", "",
             "| config | wall s | vs fw int8 | paired | vs fw fp32 | RTF | enc ms/window | dec ms/token | load s "
             "| peak RSS MB | WER % | = fw fp32 | = our fp32 |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in table:
        lines.append(
            f"| {r['config']} | {r['wall_s']:.2f} | {_fmt(r['vs_fw_int8'], '.2f')} "
            f"| {_fmt(r.get('paired_vs_fw_int8'), '.2f')} | {_fmt(r['vs_fw_float32'], '.2f')} "
            f"| {r['rtf']:.3f} | {_fmt(r['encoder_ms_per_window'], '.0f')} | {_fmt(r['decoder_ms_per_token'], '.2f')} "
            f"| {r['load_s']:.2f} | {r['peak_rss_mb']:.0f} | {r['wer']:.2f} "
            f"| {_fmt(r['same_tokens_as_fw_float32'], 'd')}/{n_clips} | {_fmt(r['same_tokens_as_earshot_fp32'], 'd')}"
            f"/{n_clips} |")
    return "\n".join(lines)


def write_outputs(model: str, raw: dict[str, list[Round]], table: list[Row], folder: Path, tag: str = "") -> None:
    """bench/results/compare-<model><tag>.json, .md and (with matplotlib, `.[bench]`) .png."""
    folder.mkdir(parents=True, exist_ok=True)
    n_clips = len(table[0]["tokens"])
    text = markdown(model, table, n_clips)
    print(text)
    slim = [{k: v for k, v in r.items() if k != "tokens"} for r in table]
    stem = f"compare-{model}{tag}"
    (folder / f"{stem}.json").write_text(json.dumps({"model": model, "table": slim, "raw": raw}, indent=1))
    (folder / f"{stem}.md").write_text(text + "\n")
    try:
        _chart(model, table, folder / f"{stem}.png")
    except ImportError:
        print("no chart: matplotlib is not installed (pip install -e '.[bench]')")


def _chart(model: str, table: list[Row], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 4.5))
    labels = [r["config"].replace("faster-whisper", "fw") for r in table]
    colors = ["#999999" if r["config"].startswith("faster") else "#2b6cb0" for r in table]
    ax.barh(labels, [r["wall_s"] for r in table], color=colors)
    for i, r in enumerate(table):
        ax.text(r["wall_s"], i, f" {r['wall_s']:.2f} s, WER {r['wer']:.1f}", va="center", fontsize=8)
    ax.set_xlabel("wall time for the whole clip set (s, median), lower is better")
    ax.set_title(f"Earshot vs faster-whisper, {model}, same weights, 2 threads")
    ax.invert_yaxis()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
