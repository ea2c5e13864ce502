"""`earshot transcribe DIR --ray local`: a real local Ray cluster (2 CPUs here) and real actors, one
tiny.en engine each; a worker killed with SIGKILL mid-run, as a lost node would be."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from archive_testing import (
    LONG_STEM,
    STOP_WITHIN_S,
    check_resumed,
    earshot,
    earshot_command,
    earshot_env,
    make_archive,
    manifest_stems,
    single_file_texts,
    start_run,
    stop_and_check,
    wait_for,
)
from archive_testing import summary_counts as counts
from earshot_testing import REPO_ROOT, process_tree, still_running

pytest.importorskip("ray", reason="the cluster extra (pip install 'earshot[cluster]'); CI installs it")


def _engine_actors(root: int) -> list[int]:
    """The Ray actor processes (their title says `ray::EngineActor`) started by the run `root`."""
    actors = []
    for pid in process_tree(root):
        try:
            if b"EngineActor" in Path(f"/proc/{pid}/cmdline").read_bytes():
                actors.append(pid)
        except OSError:
            continue
    return actors


def test_a_ray_run_resumes_a_local_run_and_survives_a_killed_worker(tmp_path):
    archive, out = tmp_path / "in", tmp_path / "out"
    single = single_file_texts(tmp_path / "single")
    stems = make_archive(archive, copies=3)
    local = earshot(str(archive), "--recursive", "--output-dir", str(out))
    assert counts(local.stderr) == (3, 0, 0), local.stderr
    stems.update(make_archive(archive, copies=9, start=3))

    process = subprocess.Popen(earshot_command(str(archive), "--recursive", "--output-dir", str(out),
                                               "--ray", "local"),
                               cwd=REPO_ROOT, env=earshot_env(), stderr=subprocess.PIPE, text=True)
    deadline, killed = time.monotonic() + 300, None
    while killed is None and process.poll() is None and time.monotonic() < deadline:
        actors = _engine_actors(process.pid)
        if len(manifest_stems(out)) > 3 and actors:  # a file came back from the cluster: kill a worker
            killed = actors[0]
            os.kill(killed, signal.SIGKILL)
        time.sleep(0.05)
    _, stderr = process.communicate(timeout=600)
    assert killed is not None, f"the run ended before a worker could be killed: {stderr}"
    assert process.returncode == 0, stderr
    assert counts(stderr) == (9, 3, 0)  # the local run's files skipped, every other one done
    assert "retried: their worker failed" in stderr  # what the killed worker held ran again elsewhere
    for stem, clip in stems.items():
        assert (out / f"{stem}.txt").read_text() == single[clip], stem
    again = earshot(str(archive), "--recursive", "--output-dir", str(out))  # and the local run resumes it
    assert counts(again.stderr) == (0, 12, 0)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGKILL],
                         ids=lambda s: signal.Signals(s).name)
def test_a_signal_stops_a_local_ray_run_and_its_actors(tmp_path, signum):
    """SIGTERM, SIGINT, SIGHUP: the run says what it kept and `ray.shutdown()` stops the cluster it started, all
    within seconds. SIGKILL: the actors end with the driver and nothing holds the run's output; Ray's
    two agent processes end by themselves once their GCS calls time out (about a minute)."""
    archive, out = tmp_path / "in", tmp_path / "out"
    stems = [*make_archive(archive, copies=4, long_file=True), LONG_STEM]
    process = start_run(archive, out, "--ray", "local")
    tree = wait_for(process, out, finished=2, workers=1)
    assert _engine_actors(process.pid)
    if signum != signal.SIGKILL:
        stderr = stop_and_check(process, tree, signum)
        assert "interrupted; finished files are written and recorded" in stderr
    else:
        actors = _engine_actors(process.pid)
        process.send_signal(signum)
        process.communicate(timeout=STOP_WITHIN_S)  # EOF: nothing holds stdout/stderr any more
        deadline = time.monotonic() + STOP_WITHIN_S
        while still_running(actors) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert still_running(actors) == []
    check_resumed(archive, out, stems)
