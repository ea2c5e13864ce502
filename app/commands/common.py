"""Options shared by the commands that load a model."""

from __future__ import annotations

import argparse
import logging
import sys

from app.engine.types import Precision

# The choices a user picks from; `auto` may resolve to a mixed recipe (see app.engine.loader).
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


def route_logging_for_cli() -> None:
    """Keep tracebacks of caught errors off the terminal: the command prints its own one-line
    message, and the traceback goes to whatever handler the app set up (the log file). Plain
    warnings the engine logs (a damaged part of a file skipped) still reach stderr as one line.

    Without a handler on the `app` logger, Python's last-resort handler would print every
    `log.exception(...)` with its traceback on stderr. The log file's handler (on the root
    logger) still receives every record.
    """
    root = logging.getLogger()
    if not root.handlers:
        # onnxruntime's quantizer calls logging.basicConfig(level=INFO) when imported (during a
        # conversion), which would put its INFO lines and our tracebacks on the terminal; a
        # root that has a handler makes basicConfig do nothing.
        root.addHandler(logging.NullHandler())
    app_logger = logging.getLogger("app")
    if any(getattr(h, "_earshot_cli", False) for h in app_logger.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setLevel(logging.WARNING)
    handler.addFilter(lambda record: record.levelno == logging.WARNING and not record.exc_info)
    handler.setFormatter(logging.Formatter("earshot: %(message)s"))
    handler._earshot_cli = True  # type: ignore[attr-defined]
    app_logger.addHandler(handler)
