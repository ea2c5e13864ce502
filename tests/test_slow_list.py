"""The slow list (tests/slow_tests.py) names only tests that exist: a renamed test or module would
otherwise leave the list silently and run in the quick loop again."""

from __future__ import annotations

import ast

from earshot_testing import REPO_ROOT
from slow_tests import SLOW, is_slow


def test_every_entry_of_the_slow_list_names_a_folder_module_or_test_that_exists() -> None:
    missing = []
    for key in SLOW:
        path, _, test = key.partition("::")
        target = REPO_ROOT / path
        if path.endswith("/"):
            ok = target.is_dir()
        elif not target.is_file():
            ok = False
        else:
            names = {node.name for node in ast.walk(ast.parse(target.read_text(encoding="utf-8")))
                     if isinstance(node, ast.FunctionDef)}
            ok = not test or test.split("[", 1)[0] in names
        if not ok:
            missing.append(key)
    assert missing == []


def test_a_listed_module_folder_or_test_marks_its_tests_and_no_others() -> None:
    assert is_slow("tests/packaging/test_bundle.py::test_deb_installs")
    assert is_slow("tests/engine/test_long_audio.py::test_anything[3]")
    assert is_slow("tests/engine/test_word_timestamps.py::test_long_audio_gets_words_in_every_window[1]")
    assert not is_slow("tests/engine/test_word_timestamps.py::test_word_times_match_the_known_word_edges")
    assert not is_slow("tests/engine/unit/test_strategies_unit.py::test_top_k_returns_the_k_largest_entries")
