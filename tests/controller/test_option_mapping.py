"""The `[output]` settings and the clean-up options are mapped in one place, by name: every
clean-up option is stored under its own name with the same default, and each reaches the
options the output uses (a new option cannot be half added)."""

from __future__ import annotations

import dataclasses

from app.controller.desktop.integration import STORED_POSTPROCESS_FIELDS, options_from_settings
from app.dictation.postprocess import PostProcessOptions
from app.settings.schema import OutputSettings


def test_every_clean_up_option_is_stored_under_its_name_with_the_same_default() -> None:
    stored = {f.name: f.default for f in dataclasses.fields(OutputSettings)}
    defaults = PostProcessOptions()
    assert STORED_POSTPROCESS_FIELDS  # spoken punctuation, fillers, capitals, spaces
    for name in STORED_POSTPROCESS_FIELDS:
        assert name in stored, f"PostProcessOptions.{name} is not stored in [output]"
        assert stored[name] == getattr(defaults, name), name


def test_each_stored_choice_reaches_the_options_the_output_uses() -> None:
    for name in STORED_POSTPROCESS_FIELDS:
        flipped = dataclasses.replace(OutputSettings(), **{name: not getattr(OutputSettings(), name)})
        options, problem = options_from_settings(flipped)
        assert problem is None
        assert getattr(options.output.postprocess, name) is getattr(flipped, name), name
    options, _ = options_from_settings(OutputSettings(replacements="full stop -> ."))
    assert [(r.spoken, r.written) for r in options.output.postprocess.replacements] == [("full stop", ".")]
