"""The SQL of each History write (`HistoryStore._write` ops); `app.history.pending` applies the
same changes to entries read while writes are queued."""

from __future__ import annotations

STATEMENTS = {
    "create": "INSERT INTO entries(id, kind, title, source, created, updated, text, segments, stopped_at_s)"
    " VALUES (:id, :kind, :title, :source, :at, :at, :text, :segments, :stopped_at_s)",
    "append": "UPDATE entries SET text = text || :text, updated = :at,"
    " original = CASE WHEN original = '' THEN '' ELSE original || :text END WHERE id = :id",
    # a spoken "scratch that": only while the text still ends with what is taken back
    "take_back": "UPDATE entries SET text = substr(text, 1, length(text) - length(:removed)) || :text,"
    " updated = :at, original = CASE WHEN original = '' THEN ''"
    " ELSE substr(original, 1, length(original) - length(:removed)) || :text END"
    ", words = CASE WHEN :drop_words > 0 AND words != '' THEN (SELECT coalesce(json_group_array(json(value)),"
    " '[]') FROM (SELECT value FROM json_each(words) WHERE key < json_array_length(words) - :drop_words"
    " ORDER BY key)) ELSE words END"
    " WHERE id = :id AND substr(text, length(text) - length(:removed) + 1) = :removed",
    # the first edit keeps the text as it was transcribed, for Revert
    "set_text": "UPDATE entries SET original = CASE WHEN original = '' AND text != :text THEN text"
    " ELSE original END, text = :text, updated = :at WHERE id = :id",
    "set_segments": "UPDATE entries SET original = CASE WHEN original = '' AND text != :text THEN text"
    " ELSE original END, text = :text, segments = :segments, updated = :at WHERE id = :id",
    "revert": "UPDATE entries SET text = original, original = '', updated = :at WHERE id = :id AND original != ''",
    "rename": "UPDATE entries SET title = :title WHERE id = :id",
    "add_words": "UPDATE entries SET words = CASE WHEN words IN ('', '[]') THEN :words"
    " ELSE substr(words, 1, length(words) - 1) || ',' || substr(:words, 2) END WHERE id = :id",
    "add_segment": "UPDATE entries SET segments = json_insert(CASE WHEN segments = '' THEN '[]'"
    " ELSE segments END, '$[#]', json(:segment)) WHERE id = :id",
    "delete": "DELETE FROM entries WHERE id = :id",
    "delete_if_empty": "DELETE FROM entries WHERE id = :id AND trim(text) = ''",
}
