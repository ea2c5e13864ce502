"""Options shared by the commands that load a model."""

from __future__ import annotations

import argparse

from app.engine.types import Precision

# The choices a user picks from; `auto` may resolve to a mixed recipe (see app.engine.models.loader).
USER_PRECISIONS = [p.value for p in Precision]


def add_model_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", default=None, help="installed model name or model folder (default: bundled tiny.en)")
    parser.add_argument("--precision", default="auto", choices=USER_PRECISIONS,
                        help="weights/compute precision (default: auto = the fastest accurate one here)")
    parser.add_argument("--provider", default="cpu", help="execution provider: cpu, cuda, directml, coreml")
    parser.add_argument("--threads", type=int, default=0, help="CPU threads (default: one per physical core)")


def one_line(exc: BaseException) -> str:
    """An exception as a single user-facing line."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
