"""Settings version 7: the vocabulary the decoder favours. The window's old "Vocabulary" field was
stored as the initial prompt; a version-6 file's entries become the favoured words."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.engine import types as engine_types
from app.settings import schema
from app.settings.schema import Settings, split_vocabulary
from app.settings.store import SettingsStore


def test_the_settings_bounds_are_the_engines() -> None:
    assert schema.DEFAULT_VOCABULARY_BOOST == engine_types.DEFAULT_VOCABULARY_BOOST
    assert schema.MAX_VOCABULARY_BOOST == engine_types.MAX_VOCABULARY_BOOST


def test_a_typed_list_splits_at_commas_and_lines() -> None:
    assert split_vocabulary(" Okonkwo,  New   York\nKubernetes,,\n okonkwo , Okonkwo") == (
        "Okonkwo", "New York", "Kubernetes", "okonkwo")
    assert split_vocabulary(" \n , ") == ()


def test_a_version_6_vocabulary_becomes_the_favoured_words(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('version = 6\n[decode]\ninitial_prompt = "Grafana, Siobhan Okonkwo"\nfile_beam_size = 1\n',
                    encoding="utf-8")
    loaded = SettingsStore(path).load()
    assert loaded.notice is None
    decode = loaded.settings.decode
    assert decode.vocabulary == ["Grafana", "Siobhan Okonkwo"]
    assert decode.initial_prompt == ""  # a list of words as a prompt is copied into the text
    assert decode.vocabulary_boost == schema.DEFAULT_VOCABULARY_BOOST and decode.file_beam_size == 1


def test_the_vocabulary_round_trips(tmp_path: Path) -> None:
    settings = Settings()
    settings.decode.vocabulary, settings.decode.vocabulary_boost = ["Nguyen", "Kubernetes"], 6.5
    store = SettingsStore(tmp_path / "settings.toml")
    store.save(settings)
    assert store.load().settings.decode == settings.decode


@pytest.mark.parametrize("boost", ["-1.0", "11.0", '"strong"'])
def test_a_boost_out_of_range_is_refused_with_a_notice(tmp_path: Path, boost: str) -> None:
    path = tmp_path / "settings.toml"
    path.write_text(f'version = 7\n[decode]\nvocabulary = ["Nguyen"]\nvocabulary_boost = {boost}\n', encoding="utf-8")
    loaded = SettingsStore(path).load()
    assert loaded.notice is not None and "vocabulary_boost" in loaded.notice
    assert loaded.settings.decode.vocabulary == []  # the defaults, the bad file kept aside
