"""The tokenizer (app/engine/tokenizer.py) on the bundled model's tokenizer.json (a file read, no
model run): special tokens found by name, the start sequence, text in and out, and the one-line
errors a broken file gets."""

from __future__ import annotations

import json

import pytest

from app.engine.tokenizer import TokenizerError, WhisperTokenizer
from app.engine.types import Task


def test_the_special_tokens_of_an_english_only_model_are_openais(tokenizer: WhisperTokenizer) -> None:
    """openai's .en vocabulary (GPT-2's, then the specials): ids every Whisper tool agrees on."""
    assert (tokenizer.eot, tokenizer.sot, tokenizer.sot_prev) == (50256, 50257, 50360)
    assert (tokenizer.no_timestamps, tokenizer.timestamp_begin) == (50362, 50363)
    assert tokenizer.no_speech == tokenizer.special("<|nocaptions|>") == 50361  # .en models have no <|nospeech|>


def test_an_english_only_model_starts_with_the_start_token_alone(tokenizer: WhisperTokenizer) -> None:
    assert tokenizer.sot_sequence("de", Task.TRANSCRIBE) == [tokenizer.sot]
    assert tokenizer.sot_sequence(None, Task.TRANSLATE) == [tokenizer.sot]


def test_a_multilingual_start_sequence_names_the_language_and_the_task(tokenizer_json: str) -> None:
    tok = WhisperTokenizer(tokenizer_json, multilingual=True)
    assert list(tok.language_tokens)[:4] == ["en", "zh", "de", "es"]  # openai's LANGUAGES order
    assert tok.language_tokens["en"] == tok.sot + 1
    german = tok.sot_sequence("de", Task.TRANSLATE)
    assert german == [tok.sot, tok.language_tokens["de"], tok.special("<|translate|>")]
    assert tok.sot_sequence(None, Task.TRANSCRIBE)[1:] == [tok.language_tokens["en"], tok.special("<|transcribe|>")]
    with pytest.raises(TokenizerError, match="unknown language code 'xx'"):
        tok.sot_sequence("xx", Task.TRANSCRIBE)


def test_text_survives_encode_then_decode(tokenizer: WhisperTokenizer) -> None:
    for text in (" Hello, world.", ' "Quoted" (words) unbelievably', " 😀 café", " こんにちは世界", " 3.5 kg, 20%"):
        assert tokenizer.decode(tokenizer.encode(text)) == text
    assert tokenizer.encode(" Hello, world.") == [18435, 11, 995, 13]  # GPT-2's byte-level BPE


def test_decode_drops_specials_and_timestamps(tokenizer: WhisperTokenizer) -> None:
    tok = tokenizer
    text = tok.encode(" Good morning.")
    assert tok.decode([tok.sot, tok.no_timestamps, tok.timestamp_begin, *text, tok.timestamp_begin + 50, tok.eot]) \
        == " Good morning."


def test_non_speech_specials_are_the_task_and_start_tokens_and_no_speech(tokenizer: WhisperTokenizer) -> None:
    names = ("<|translate|>", "<|transcribe|>", "<|startoftranscript|>", "<|startoflm|>", "<|startofprev|>")
    expected = sorted({tokenizer.special(n) for n in names} | {tokenizer.no_speech})
    assert tokenizer.non_speech_specials() == expected
    assert tokenizer.eot not in expected  # the end of text must stay possible


def test_a_file_that_is_not_a_tokenizer_gets_one_line_naming_it() -> None:
    with pytest.raises(TokenizerError) as raised:
        WhisperTokenizer('{"model": 42}', multilingual=False)
    assert str(raised.value).startswith("cannot read tokenizer.json:")
    assert "\n" not in str(raised.value)


def test_a_tokenizer_without_whispers_specials_is_refused_by_name(tokenizer_json: str) -> None:
    data = json.loads(tokenizer_json)
    data["added_tokens"] = [t for t in data["added_tokens"] if t["content"] != "<|notimestamps|>"]
    with pytest.raises(TokenizerError, match=r"lacks the special token <\|notimestamps\|>"):
        WhisperTokenizer(json.dumps(data), multilingual=False)
    with pytest.raises(TokenizerError, match="has no token"):
        WhisperTokenizer(tokenizer_json, multilingual=False).special("<|nosuchtoken|>")
