"""The diagnostics log: a rotating, private file in the user log folder.

Every caught exception is logged there with its traceback (`log.exception(...)`), along with
model loads, device changes and fallbacks; the user sees one-line messages, the file keeps the
detail. The folder is $EARSHOT_LOG_DIR, else platformdirs' user log folder
(Linux: ~/.local/state/earshot/log). Configured once, by the composition root (app.cli.main).
Like app.private_files, this is a bottom layer: Qt-free, any package may import it.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
import sys
import threading
from pathlib import Path
from types import TracebackType

import platformdirs

from app.private_files import FILE_MODE, private_dir, private_file

LOG_DIR_ENV = "EARSHOT_LOG_DIR"
LOG_FILE_NAME = "earshot.log"
MAX_BYTES = 1 << 20  # per file; with BACKUPS, at most 4 MB of logs in all
BACKUPS = 3
_FORMAT = "%(asctime)s %(process)d %(threadName)s %(levelname)s %(name)s: %(message)s"

log = logging.getLogger(__name__)


def default_log_dir() -> Path:
    return Path(os.environ.get(LOG_DIR_ENV) or platformdirs.user_log_dir("earshot", appauthor=False))


def log_file_path() -> Path:
    """Where the log is (or will be); creates nothing."""
    return default_log_dir() / LOG_FILE_NAME


class _PrivateRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """Every file it opens, the first and each one after a rollover, is created 0600."""

    def _open(self):  # type: ignore[no-untyped-def]
        fd = os.open(self.baseFilename, os.O_WRONLY | os.O_CREAT | os.O_APPEND, FILE_MODE)
        return open(fd, "a", encoding=self.encoding, errors=self.errors)


class _Console(logging.StreamHandler):  # type: ignore[type-arg]
    """One-line warnings on stderr (a class of its own, so configure_logging finds it again)."""


class _NoTracebacks(logging.Filter):
    """The console keeps today's one-line warnings; records with a traceback go to the file only."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.exc_info is None


def configure_logging() -> Path | None:
    """Log INFO and up of Earshot (WARNING of libraries) to the private rotating file; once per
    process. Returns the file, or None when it cannot be written (the app runs on without it)."""
    root = logging.getLogger()
    path = log_file_path()
    ours = [h for h in root.handlers if isinstance(h, (_PrivateRotatingFileHandler, _Console))]
    if any(isinstance(h, _PrivateRotatingFileHandler) and h.baseFilename == str(path.absolute()) for h in ours):
        return path  # configured already, for this folder
    for handler in ours:  # the log folder changed (EARSHOT_LOG_DIR) since: follow it
        root.removeHandler(handler)
        handler.close()
    console = _Console(sys.stderr)
    console.setLevel(logging.WARNING)
    console.addFilter(_NoTracebacks())
    console.setFormatter(logging.Formatter("earshot: %(message)s"))
    # A root handler also stops logging's last-resort handler printing tracebacks, and makes the
    # logging.basicConfig(level=INFO) that onnxruntime's quantizer calls on import do nothing.
    root.addHandler(console)
    root.setLevel(logging.WARNING)
    logging.getLogger("app").setLevel(logging.INFO)
    try:
        private_dir(path.parent)
        private_file(path)
        handler = _PrivateRotatingFileHandler(path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8")
    except OSError as exc:
        print(f"earshot: warning: no log file ({exc})", file=sys.stderr)
        return None
    handler.setFormatter(logging.Formatter(_FORMAT))
    root.addHandler(handler)
    _log_uncaught_exceptions()
    return path


def _log_uncaught_exceptions() -> None:
    """An exception nothing caught still reaches the log, then the usual hook (installed once)."""
    if getattr(sys.excepthook, "_earshot", False):
        return
    previous_hook = sys.excepthook
    previous_thread_hook = threading.excepthook

    def hook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        log.critical("uncaught exception", exc_info=(kind, value, tb))
        previous_hook(kind, value, tb)

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_value is not None:
            log.critical(
                "uncaught exception in thread %s",
                getattr(args.thread, "name", "?"),
                exc_info=(args.exc_type, args.exc_value, args.exc_traceback),
            )
        previous_thread_hook(args)

    hook._earshot = True  # type: ignore[attr-defined]
    sys.excepthook = hook
    threading.excepthook = thread_hook
