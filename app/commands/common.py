"""Options shared by the commands that load a model."""

from __future__ import annotations

import argparse

from app.engine.types import DEFAULT_VOCABULARY_BOOST, MAX_VOCABULARY_BOOST, Precision
from app.settings.schema import split_vocabulary

# The choices a user picks from; `auto` may resolve to a mixed recipe (see app.engine.models.loader).
USER_PRECISIONS = [p.value for p in Precision]


def add_model_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", default=None, help="installed model name or model folder (default: bundled tiny.en)")
    parser.add_argument(
        "--precision",
        default="auto",
        choices=USER_PRECISIONS,
        help="weights/compute precision (default: auto = the fastest accurate one here)",
    )
    parser.add_argument("--provider", default="cpu", help="execution provider: cpu, cuda, directml, coreml")
    parser.add_argument("--threads", type=int, default=0, help="CPU threads (default: one per physical core)")


def add_vocabulary_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--vocabulary",
        default="",
        type=split_vocabulary,
        metavar="WORDS",
        help='names and terms to favour, comma-separated ("Okonkwo, Kubernetes")',
    )
    parser.add_argument(
        "--vocabulary-boost",
        type=float,
        default=DEFAULT_VOCABULARY_BOOST,
        metavar="LOGITS",
        help=f"how strongly the vocabulary is favoured, 0..{MAX_VOCABULARY_BOOST:g} "
        f"(default: {DEFAULT_VOCABULARY_BOOST:g})",
    )


def one_line(exc: BaseException) -> str:
    """An exception as a single user-facing line."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def option_flag(error: BaseException) -> str:
    """The error with the field named as its command-line flag (`beam_size` -> `--beam-size`)."""
    text = one_line(error)
    for field in ("beam_size", "batch_size", "vocabulary_boost"):
        text = text.replace(field, "--" + field.replace("_", "-"))
    return text
