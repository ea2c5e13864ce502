"""`earshot transcribe DIR --ray local`: a real local Ray cluster (2 CPUs here) and real actors, one
tiny.en engine each; a worker killed with SIGKILL mid-run, as a lost node would be."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from archive_testing import earshot, earshot_command, earshot_env, make_archive, manifest_stems, single_file_texts
from archive_testing import summary_counts as counts
from earshot_testing import REPO_ROOT

pytest.importorskip("ray", reason="the cluster extra (pip install 'earshot[cluster]'); CI installs it")


def _descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue  # ended while listed
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _engine_actors(root: int) -> list[int]:
    """The Ray actor processes (their title says `ray::EngineActor`) started by the run `root`."""
    actors = []
    for pid in _descendants(root):
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
