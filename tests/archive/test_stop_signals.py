"""An archive run stopped by a signal, as a service manager, a closed terminal, Ctrl-C or kill -9
stop it: real processes, real signals, the real tiny.en. The run ends within seconds, no worker
outlives it (none holds its stdout or stderr), finished transcripts and manifest lines are kept,
and the next run does the rest."""

from __future__ import annotations

import signal

import pytest
from archive_testing import LONG_STEM, check_resumed, make_archive, start_run, stop_and_check, wait_for


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGKILL],
                         ids=lambda s: signal.Signals(s).name)
def test_a_signal_stops_a_two_worker_run_and_its_workers(tmp_path, signum):
    archive, out = tmp_path / "in", tmp_path / "out"
    stems = [*make_archive(archive, copies=4, long_file=True), LONG_STEM]
    process = start_run(archive, out, "--jobs", "2")
    tree = wait_for(process, out, finished=2, workers=2)
    stderr = stop_and_check(process, tree, signum)
    if signum != signal.SIGKILL:
        assert "interrupted; finished files are written and recorded" in stderr
    check_resumed(archive, out, stems)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=lambda s: signal.Signals(s).name)
def test_a_signal_stops_a_run_in_one_process(tmp_path, signum):
    """A service manager's SIGTERM, Ctrl-C's SIGINT, a closed terminal's SIGHUP (SIGKILL:
    test_folder_runs.py's run killed half way)."""
    archive, out = tmp_path / "in", tmp_path / "out"
    stems = [*make_archive(archive, copies=2, long_file=True), LONG_STEM]
    process = start_run(archive, out, "--jobs", "1")
    tree = wait_for(process, out, finished=1, workers=0)
    stderr = stop_and_check(process, tree, signum)
    assert "interrupted; finished files are written and recorded" in stderr
    check_resumed(archive, out, stems)
