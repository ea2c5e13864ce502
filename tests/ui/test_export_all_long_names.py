""""Export all" with transcripts of media files whose names are at the file system's limit: each
file name fits the folder, none equals another or a file already there, and every one can be
written; "Save transcript as" proposes a name that fits. Real files in `tmp_path`; no window is
opened."""

from __future__ import annotations

import os
import time
from pathlib import Path

from app.history.entry import EntryKind, HistoryEntry
from app.ui.export_all import distinct_targets
from app.ui.save_paths import save_transcript_path


def test_export_all_gives_long_names_that_fit_and_overwrite_nothing(tmp_path: Path) -> None:
    limit = os.pathconf(tmp_path, "PC_NAME_MAX")
    same, other = "a" * (limit - 4), "a" * (limit - 5) + "b"  # the stems of 255-byte `.wav` files
    (tmp_path / "talk.json").write_text("kept")
    targets = distinct_targets([same, same, other, "talk"], "json", tmp_path)
    assert len({t.name.casefold() for t in targets}) == 4
    assert targets[3].name == "talk-2.json"  # names that fit: as before
    assert targets[0].name.startswith("a" * 200) and targets[1].name.endswith("-2.json")
    for target in targets:
        assert len(os.fsencode(target.name)) <= limit
        target.write_text("{}")
    assert (tmp_path / "talk.json").read_text() == "kept"


def test_save_transcript_as_proposes_a_name_that_fits_for_a_long_title(tmp_path: Path) -> None:
    title = "東京の朝静かな会議室で話したこと" * 8  # 384 bytes: a History entry renamed at length
    created = time.time()
    entry = HistoryEntry(1, EntryKind.DICTATION, title, "", created, created, "hello there")
    proposed = save_transcript_path(entry, tmp_path)
    assert proposed.parent == tmp_path and proposed.name.startswith(title[:40])
    assert len(os.fsencode(proposed.name)) <= os.pathconf(tmp_path, "PC_NAME_MAX")
    proposed.write_text("hello there")
