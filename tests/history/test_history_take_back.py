"""A spoken "scratch that" reaches the History entry: the end of its text is replaced, only while
the text still ends with what is taken back, also when the write waited for a locked database."""

from __future__ import annotations

import time
from pathlib import Path

from app.history.entry import EntryKind
from app.history.pending import apply_pending
from app.history.store import HistoryStore
from app.history.write_journal import PendingWrite


def test_take_back_replaces_the_end_of_the_text(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / "h.sqlite3")
    entry_id = store.create(EntryKind.DICTATION, "")
    store.append(entry_id, "Grüße aus Köln.")
    store.append(entry_id, " Wrong words.")
    store.take_back(entry_id, " Wrong words.")
    entry = store.get(entry_id)
    assert entry is not None and entry.text == "Grüße aus Köln."
    store.take_back(entry_id, "Köln.", "Bonn.")
    entry = store.get(entry_id)
    assert entry is not None and entry.text == "Grüße aus Bonn."
    store.close()


def test_take_back_leaves_text_that_no_longer_ends_with_it(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / "h.sqlite3")
    entry_id = store.create(EntryKind.DICTATION, "")
    store.append(entry_id, "Hello there.")
    store.set_text(entry_id, "Hello there, friend.")  # the user edited it meanwhile
    store.take_back(entry_id, " there.")
    entry = store.get(entry_id)
    assert entry is not None and entry.text == "Hello there, friend."
    store.close()


def test_a_queued_take_back_reads_as_it_will_be_stored(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / "h.sqlite3")
    entry_id = store.create(EntryKind.DICTATION, "")
    store.append(entry_id, "Keep. Drop.")
    [entry] = store.search()
    store.close()
    write = PendingWrite("take_back", {"id": entry_id, "removed": " Drop.", "text": "", "at": time.time()})
    [after] = apply_pending([entry], [write], {})
    assert after.text == "Keep."
    stale = PendingWrite("take_back", {"id": entry_id, "removed": " Other.", "text": "", "at": time.time()})
    assert apply_pending([entry], [stale], {})[0].text == "Keep. Drop."
