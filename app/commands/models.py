"""`earshot models list | catalog | download NAME|REPO_ID [--precision P] | import PATH [--name N]
| convert NAME [--precision P] | remove NAME`."""

from __future__ import annotations

import argparse
import itertools
import logging
import sys
import time
from collections.abc import Callable
from pathlib import Path

from app.commands.common import one_line
from app.engine.types import Precision

log = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("models", help="list, import, convert and remove models")
    sub = p.add_subparsers(dest="models_command", metavar="ACTION", required=True)
    sub.add_parser("list", help="installed models: size on disk and converted precisions").set_defaults(func=_list)
    sub.add_parser("catalog", help="the models Earshot can download").set_defaults(func=_catalog)
    down = sub.add_parser("download", help="download a catalog model or a hub repository, verify, convert")
    down.add_argument("model", metavar="NAME|REPO_ID")
    down.add_argument("--precision", default="auto", choices=[p.value for p in Precision])
    down.add_argument("--timeout", type=float, default=15.0, help="seconds without an answer before giving up")
    down.set_defaults(func=_download)
    imp = sub.add_parser("import", help="install a CTranslate2 or Hugging Face Whisper folder")
    imp.add_argument("path")
    imp.add_argument("--name", default=None)
    imp.set_defaults(func=_import)
    conv = sub.add_parser("convert", help="build (and cache) the ONNX graphs of a model")
    conv.add_argument("name")
    conv.add_argument("--precision", default="auto", choices=[p.value for p in Precision])
    conv.set_defaults(func=_convert)
    rem = sub.add_parser("remove", help="delete an imported model and its converted graphs")
    rem.add_argument("name")
    rem.set_defaults(func=_remove)


def _guarded(action: str, func: Callable[[], None]) -> int:
    from app.engine.convert.weights import ModelFormatError
    from app.engine.tokenizer import TokenizerError

    try:
        func()
    except (ModelFormatError, TokenizerError, OSError) as exc:
        log.exception("%s", action)
        print(f"earshot: error: {action}: {one_line(exc)}", file=sys.stderr)
        return 2
    return 0


def _list(args: argparse.Namespace) -> int:
    from app.engine.models.inventory import installed_models

    for row in installed_models():
        tag = " (bundled)" if row.bundled else ""
        precisions = ", ".join(row.precisions) or "not converted yet"
        print(f"{row.name}{tag}\t{row.size_bytes / 1e6:.0f} MB\t{precisions}\t{row.source}")
    return 0


def _catalog(args: argparse.Namespace) -> int:
    from app.engine.models.catalog import catalog
    from app.engine.models.inventory import installed_names

    installed = installed_names()
    for m in catalog():
        mark = "installed" if m.name in installed else ""
        print(
            f"{m.name:<18} {m.download_mb:>5} MB  RAM {m.ram_for('int8')}-{m.ram_for('fp32')} MB  "
            f"{m.languages:<13} {mark:<9} {m.description}  [{m.repo}]"
        )
    return 0


def _download(args: argparse.Namespace) -> int:
    from app.engine.models.catalog import resolve_download
    from app.engine.models.download_progress import DownloadCancelled
    from app.engine.models.downloader import DownloadRequest, download_model
    from app.engine.models.hub import DownloadError, HubOptions
    from app.engine.models.store import ModelStore

    def action() -> None:
        repo, name = resolve_download(args.model)
        request = DownloadRequest(repo, name, Precision(args.precision), HubOptions(timeout_s=args.timeout))
        t0 = time.perf_counter()
        printer = _ProgressPrinter()
        try:
            download_model(request, ModelStore(), printer)
        except DownloadError as exc:
            raise OSError(str(exc)) from exc
        except DownloadCancelled as exc:
            raise OSError("cancelled; nothing was installed") from exc
        except KeyboardInterrupt:  # Ctrl-C, SIGTERM, SIGHUP (stop_signals): the staging folder is kept
            print(
                f"earshot: download of {name} stopped; nothing was installed, and the same command resumes it",
                file=sys.stderr,
            )
            raise
        print(
            f"installed {name} from {repo} ({printer.total_bytes / 1e6:.0f} MB, {time.perf_counter() - t0:.1f} s: "
            f"{printer.timings()})"
        )

    return _guarded("download failed", action)


class _ProgressPrinter:
    """One updating line on a terminal (a line per phase when piped), at most 4 updates a second."""

    def __init__(self) -> None:
        self._last = 0.0
        self._tty = sys.stderr.isatty()
        self._phase_started: dict[str, float] = {}
        self.total_bytes = 0

    def timings(self) -> str:
        """'downloading 12.3 s, installing 1.0 s, converting 40.2 s': each phase's wall time."""
        marks = sorted(self._phase_started.items(), key=lambda kv: kv[1])
        spans = [(name, later[1] - start) for (name, start), later in itertools.pairwise(marks)]
        return ", ".join(f"{name} {seconds:.1f} s" for name, seconds in spans if name not in ("checking", "done"))

    def __call__(self, progress: object) -> None:
        from app.engine.models.download_progress import Phase, Progress

        assert isinstance(progress, Progress)
        now = time.monotonic()
        self._phase_started.setdefault(progress.phase.value, now)
        self.total_bytes = max(self.total_bytes, progress.total_bytes)
        downloading = progress.phase is Phase.DOWNLOADING
        if downloading and now - self._last < (0.25 if self._tty else 2.0):
            return
        self._last = now
        end = "\r" if downloading and self._tty else "\n"
        print(progress.line().ljust(78), end=end, file=sys.stderr, flush=True)


def _import(args: argparse.Namespace) -> int:
    from app.engine.models.store import ModelStore

    def action() -> None:
        entry = ModelStore().import_model(Path(args.path), args.name)
        print(f"imported {entry.name}")

    return _guarded("import failed", action)


def _convert(args: argparse.Namespace) -> int:
    from app.engine.models.precisions import resolve_precision
    from app.engine.models.store import ModelStore

    def action() -> None:
        store = ModelStore()
        precision = resolve_precision(Precision(args.precision), "cpu")
        t0 = time.perf_counter()
        folder = store.converted(store.resolve(args.name), precision)
        print(f"{args.name} {precision.value}: {folder} ({time.perf_counter() - t0:.1f} s)")

    return _guarded("conversion failed", action)


def _remove(args: argparse.Namespace) -> int:
    from app.engine.models.store import ModelStore

    def action() -> None:
        ModelStore().remove_model(args.name)
        print(f"removed {args.name}")

    return _guarded("remove failed", action)
