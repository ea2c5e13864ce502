"""A file job's SRT from the window's Export menu, as the user saves it without changing anything:
readable cues (at most 2 lines of 42 characters, at most 7 s, never overlapping, most ending at a
sentence or clause end), not one cue per segment; "One cue per segment" is there, unticked.

Real window, engine and tiny.en; a 40 s recording made of the espeak clips with pauses."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from gui_helpers import normalized, open_window
from test_job_progress import long_recording

CUE = re.compile(r"(\d\d):(\d\d):(\d\d),(\d\d\d) --> (\d\d):(\d\d):(\d\d),(\d\d\d)\n((?:.+\n?)+)")


def cues(srt: str) -> list[tuple[float, float, list[str]]]:
    """(start, end, lines) of each cue."""
    found = []
    for match in CUE.finditer(srt):
        h1, m1, s1, ms1, h2, m2, s2, ms2 = (int(g) for g in match.groups()[:8])
        found.append((h1 * 3600 + m1 * 60 + s1 + ms1 / 1000, h2 * 3600 + m2 * 60 + s2 + ms2 / 1000,
                      match.group(9).strip("\n").split("\n")))
    return found


def test_the_default_srt_of_a_file_job_is_readable(qtbot, parts, tmp_path: Path) -> None:
    window = open_window(qtbot, parts)
    jobs = window.controller.jobs
    (job,) = jobs.add([long_recording(tmp_path / "talk.wav", 40.0)])
    qtbot.waitUntil(lambda: jobs.pending() == 0, timeout=300_000)
    panel = window.jobs_panel
    row = panel.rows[job.id]
    assert row.export_button.isEnabled()
    menu = {a.text(): a for a in row.export_button.menu().actions() if a.text()}
    assert not menu["One cue per segment (SRT, VTT)"].isChecked()  # readable is the default
    panel.save_as = lambda _parent, suggested, _fmt: str(tmp_path / Path(suggested).name)

    menu["SRT…"].trigger()

    srt = (tmp_path / "talk.srt").read_text(encoding="utf-8")
    shown = cues(srt)
    assert len(shown) > 5, srt
    assert all(len(lines) <= 2 and all(len(line) <= 42 for line in lines) for _s, _e, lines in shown), srt
    assert all(0 < end - start <= 7.0 + 0.0015 for start, end, _lines in shown), srt
    assert all(later[0] > earlier[1] for earlier, later in itertools.pairwise(shown)), srt  # no overlap
    ends = [lines[-1].rstrip()[-1:] for _s, _e, lines in shown]
    assert sum(end in ".!?,;:" for end in ends) >= 0.8 * len(ends), srt  # cut at sentence and clause ends
    assert any(len(lines) == 2 for _s, _e, lines in shown), srt  # two-line cues, not one line each
    text = jobs.jobs[job.id].transcript
    assert text is not None
    assert normalized(" ".join(" ".join(lines) for _s, _e, lines in shown)) == normalized(text.text)
    assert row.status.text() == f"Saved talk.srt in {tmp_path}"
