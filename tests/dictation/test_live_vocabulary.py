"""Live dictation with the user's vocabulary, through the real worker and tiny.en: a listed surname
the model does not know (tests/data/espeak_names.wav) is committed written right, also from
`earshot dictate --vocabulary`."""

from __future__ import annotations

import dataclasses

from dictation_helpers import replay
from earshot_testing import DATA_DIR, read_wav

from app.cli import main
from app.dictation.live_worker import DictationOptions
from app.dictation.policy import PolicyOptions, streaming_decode_options
from app.engine.wer import normalize

SAID = "The invoice from Schwarzkopf arrived after the deadline."


def test_live_dictation_writes_the_listed_surname(engine) -> None:  # type: ignore[no-untyped-def]
    decode = dataclasses.replace(streaming_decode_options(), vocabulary=("Schwarzkopf", "Okonkwo"))
    options = DictationOptions(PolicyOptions(decode=decode), realtime=False)
    result = replay(engine, read_wav(DATA_DIR / "espeak_names.wav"), options)
    assert "Schwarzkopf" in result.committed, result.committed
    assert normalize(result.committed) == normalize(SAID), result.committed


def test_earshot_dictate_takes_a_vocabulary(capsys) -> None:  # type: ignore[no-untyped-def]
    clip = str(DATA_DIR / "espeak_names.wav")
    assert main(["dictate", "--input", clip, "--vocabulary", "Schwarzkopf, Okonkwo"]) == 0
    assert "Schwarzkopf" in capsys.readouterr().out
    assert main(["dictate", "--input", clip, "--vocabulary", "Schwarzkopf", "--vocabulary-boost", "-1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("earshot dictate: ") and "--vocabulary-boost" in err[0], err
