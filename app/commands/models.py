"""`earshot models list | import PATH [--name N] | convert NAME [--precision P] | remove NAME`."""

from __future__ import annotations

import argparse
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
    sub.add_parser("list", help="installed models").set_defaults(func=_list)
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
    from app.engine.model_store import ModelStore

    store = ModelStore()
    for entry in store.list_models():
        tag = " (bundled)" if entry.bundled else ""
        print(f"{entry.name}{tag}\t{entry.source}")
    return 0


def _import(args: argparse.Namespace) -> int:
    from app.engine.model_store import ModelStore

    def action() -> None:
        entry = ModelStore().import_model(Path(args.path), args.name)
        print(f"imported {entry.name}")

    return _guarded("import failed", action)


def _convert(args: argparse.Namespace) -> int:
    from app.engine.loader import resolve_precision
    from app.engine.model_store import ModelStore

    def action() -> None:
        store = ModelStore()
        precision = resolve_precision(Precision(args.precision), "cpu")
        t0 = time.perf_counter()
        folder = store.converted(store.resolve(args.name), precision)
        print(f"{args.name} {precision.value}: {folder} ({time.perf_counter() - t0:.1f} s)")

    return _guarded("conversion failed", action)


def _remove(args: argparse.Namespace) -> int:
    from app.engine.model_store import ModelStore

    def action() -> None:
        ModelStore().remove_model(args.name)
        print(f"removed {args.name}")

    return _guarded("remove failed", action)
