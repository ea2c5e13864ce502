"""The key a model's converted graphs are cached under: a hash of its defining files (its
weights, config and tokenizer), memoised by (path, size, mtime) in `<cache dir>/hashes.json` so
a model is read whole only once."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from app.engine.convert.readers import model_files
from app.private_files import private_dir, tighten


def content_hash(folder: Path, cache_dir: Path) -> str:
    """sha256 of the model's defining files, memoised by (path, size, mtime)."""
    files = model_files(folder)
    key = json.dumps([[str(f), f.stat().st_size, f.stat().st_mtime_ns] for f in files])
    memo_path = cache_dir / "hashes.json"
    memo = _read_json_dict(memo_path)
    if key in memo:
        return str(memo[key])
    digest = hashlib.sha256()
    for path in files:
        with path.open("rb") as handle:
            while chunk := handle.read(1 << 22):
                digest.update(chunk)
    value = digest.hexdigest()[:16]
    memo[key] = value
    _atomic_write_text(memo_path, json.dumps(memo))
    return value


def _read_json_dict(path: Path) -> dict[str, object]:
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def _atomic_write_text(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        private_dir(path.parent)
        tmp.write_text(text, encoding="utf-8")
        tighten(tmp)
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)  # the memo is only an optimisation
