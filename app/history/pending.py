"""The history as it will read once the writes queued while the database was locked are stored."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from app.history.entry import EntryKind, HistoryEntry, parse_segments
from app.history.write_journal import PendingWrite


def apply_pending(
    entries: list[HistoryEntry], pending: Sequence[PendingWrite], renamed: dict[int, int]
) -> list[HistoryEntry]:
    """`entries` with each of `pending` applied in order, as the SQL of `statements.STATEMENTS`
    would (newest first); `renamed`: id handed out -> id stored."""
    by_id = {e.id: e for e in entries}
    for write in pending:
        args = write.args
        entry_id = renamed.get(int(args["id"]), int(args["id"]))
        entry = by_id.get(entry_id)
        if write.op == "create":
            by_id[entry_id] = HistoryEntry(
                entry_id,
                EntryKind(args["kind"]),
                args["title"],
                args["source"],
                args["at"],
                args["at"],
                args["text"],
                parse_segments(args.get("segments", "")),
                stopped_at_s=float(args.get("stopped_at_s", 0.0)),
            )
        elif entry is None:
            continue
        elif write.op == "delete" or (write.op == "delete_if_empty" and not entry.text.strip()):
            del by_id[entry_id]
        else:
            by_id[entry_id] = _changed(entry, write)
    return sorted(by_id.values(), key=lambda e: (e.updated, e.id), reverse=True)


def _changed(entry: HistoryEntry, write: PendingWrite) -> HistoryEntry:
    args, replace = write.args, dataclasses.replace
    if write.op == "rename":
        return replace(entry, title=args["title"])
    if write.op == "add_words":
        return replace(entry, words=entry.words + parse_segments(args["words"]))
    if write.op == "add_segment":
        return replace(entry, segments=entry.segments + parse_segments(f"[{args['segment']}]"))
    if write.op == "append":
        original = entry.original + args["text"] if entry.original else ""
        return replace(entry, text=entry.text + args["text"], original=original, updated=args["at"])
    if write.op == "take_back" and entry.text.endswith(args["removed"]):
        cut = len(args["removed"])
        original = entry.original[: len(entry.original) - cut] + args["text"] if entry.original else ""
        words = entry.words[: max(0, len(entry.words) - int(args.get("drop_words", 0)))]
        return replace(
            entry,
            text=entry.text[: len(entry.text) - cut] + args["text"],
            original=original,
            words=words,
            updated=args["at"],
        )
    if write.op == "set_segments":
        first_edit = not entry.original and entry.text != args["text"]
        original = entry.text if first_edit else entry.original
        return replace(
            entry, text=args["text"], original=original, segments=parse_segments(args["segments"]), updated=args["at"]
        )
    if write.op == "set_text":
        first_edit = not entry.original and entry.text != args["text"]
        original = entry.text if first_edit else entry.original
        return replace(entry, text=args["text"], original=original, updated=args["at"])
    if write.op == "revert" and entry.original:
        return replace(entry, text=entry.original, original="", updated=args["at"])
    return entry
