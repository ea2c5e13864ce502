"""Pick the right reader for a model folder."""

from __future__ import annotations

from pathlib import Path

from app.engine.convert.ct2_reader import is_ct2_folder, read_ct2_folder
from app.engine.convert.hf_reader import is_hf_folder, read_hf_folder
from app.engine.convert.weights import ModelFormatError, WhisperWeights
from app.engine.tokenizer import TokenizerError, WhisperTokenizer


def model_files(folder: Path) -> list[Path]:
    """The files whose bytes define the model (hashed to key the conversion cache)."""
    if is_ct2_folder(folder):
        names = ["model.bin", "config.json", "tokenizer.json"]
    elif is_hf_folder(folder):
        names = [*sorted(p.name for p in folder.glob("*.safetensors")), "config.json", "tokenizer.json"]
    else:
        raise ModelFormatError(
            f"{folder} is not a Whisper model folder: expected a CTranslate2 folder (model.bin) "
            "or a Hugging Face folder (model.safetensors + config.json)"
        )
    return [folder / n for n in names if (folder / n).exists()]


def read_weights(folder: Path) -> WhisperWeights:
    """Read and check a model folder: weights, facts, and a tokenizer that fits the weights."""
    if not folder.is_dir():
        raise ModelFormatError(f"{folder} is not a folder")
    if is_ct2_folder(folder):
        weights = read_ct2_folder(folder)
    elif is_hf_folder(folder):
        weights = read_hf_folder(folder)
    else:
        model_files(folder)  # raises the explanatory error
        raise AssertionError("unreachable")
    check_tokenizer(weights, folder)
    return weights


def check_tokenizer(weights: WhisperWeights, folder: Path) -> None:
    """The vocabulary ends with 1501 timestamp tokens after <|notimestamps|>: the tokenizer's
    special tokens must line up with the model's vocabulary size."""
    try:
        tokenizer = WhisperTokenizer(weights.tokenizer_json.decode("utf-8"), weights.is_multilingual)
        expected = tokenizer.timestamp_begin + 1501
    except (TokenizerError, UnicodeDecodeError) as exc:
        raise ModelFormatError(f"{folder}/tokenizer.json is not a Whisper tokenizer: {exc}") from None
    if expected != weights.dims.n_vocab:
        raise ModelFormatError(
            f"{folder}/tokenizer.json does not match the model: it implies {expected} tokens, "
            f"the weights have {weights.dims.n_vocab}"
        )
