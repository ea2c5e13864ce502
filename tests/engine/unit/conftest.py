"""Fixtures for the engine's unit tests: the bundled model's tokenizer, read from its file
(no model is loaded or run)."""

from __future__ import annotations

import pytest

from app.engine.tokenizer import WhisperTokenizer


@pytest.fixture(scope="session")
def tokenizer_json() -> str:
    from app.engine.models.store import bundled_model_dir

    return (bundled_model_dir() / "tokenizer.json").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def tokenizer(tokenizer_json: str) -> WhisperTokenizer:
    """tiny.en's tokenizer (English-only: the start sequence is <|startoftranscript|> alone)."""
    return WhisperTokenizer(tokenizer_json, multilingual=False)
