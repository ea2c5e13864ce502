"""Pick the right reader for a model folder."""

from __future__ import annotations

from pathlib import Path

from app.engine.convert.ct2_reader import is_ct2_folder, read_ct2_folder
from app.engine.convert.hf_reader import is_hf_folder, read_hf_folder
from app.engine.convert.weights import ModelFormatError, WhisperWeights


def model_files(folder: Path) -> list[Path]:
    """The files whose bytes define the model (hashed to key the conversion cache)."""
    if is_ct2_folder(folder):
        names = ["model.bin", "config.json", "tokenizer.json"]
    elif is_hf_folder(folder):
        names = sorted(p.name for p in folder.glob("*.safetensors")) + ["config.json", "tokenizer.json"]
    else:
        raise ModelFormatError(
            f"{folder} is not a Whisper model folder: expected a CTranslate2 folder (model.bin) "
            "or a Hugging Face folder (model.safetensors + config.json)"
        )
    return [folder / n for n in names if (folder / n).exists()]


def read_weights(folder: Path) -> WhisperWeights:
    if not folder.is_dir():
        raise ModelFormatError(f"{folder} is not a folder")
    if is_ct2_folder(folder):
        return read_ct2_folder(folder)
    if is_hf_folder(folder):
        return read_hf_folder(folder)
    model_files(folder)  # raises the explanatory error
    raise AssertionError("unreachable")
