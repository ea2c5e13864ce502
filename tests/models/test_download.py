"""Downloads from a local hub (tests/models/hub_server.py; HF_ENDPOINT points at it): the real
tiny.en and multilingual base bytes, the real huggingface_hub client, the real import and
conversion. No internet; the server listens on 127.0.0.1 only."""

from __future__ import annotations

import hashlib
import json
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from download_helpers import BAD_TOKENIZER_REPO, TINY_COPY_REPO, earshot, start_earshot
from earshot_testing import (
    another_users,
    home_env,
    process_tree,
    still_running,
    without_file_permission_override,
)
from hub_server import HubServer

from app.engine.models import downloader
from app.engine.models.download_progress import DownloadCancelled, Phase, Progress
from app.engine.models.downloader import DownloadRequest, download_model
from app.engine.models.hub import DownloadError, HubOptions
from app.engine.models.store import ModelStore
from app.engine.types import Precision

TINY_COPY = "whisper-tiny-copy"


def _installed(data: Path) -> list[str]:
    models = data / "models"
    return sorted(p.name for p in models.iterdir()) if models.is_dir() else []


def _messages(stderr: str) -> list[str]:
    """What the CLI said besides its progress lines (those start with a phase name)."""
    phases = tuple(p.value for p in Phase)
    return [line for line in stderr.replace("\r", "\n").splitlines() if line.strip() and not line.startswith(phases)]


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_catalog_lists_every_model_without_a_request(hub: HubServer) -> None:
    result = earshot("models", "catalog")
    assert result.returncode == 0, result.stderr
    names = [line.split()[0] for line in result.stdout.splitlines()]
    assert names == ["tiny", "tiny.en", "base", "base.en", "small", "small.en", "medium", "medium.en",
                     "large-v3", "large-v3-turbo", "distil-large-v3.5"]
    assert "installed" in result.stdout.splitlines()[1]  # tiny.en comes with Earshot
    assert hub.requests == []


def test_download_base_verifies_converts_and_transcribes(hub: HubServer, tmp_path: Path) -> None:
    result = earshot("models", "download", "base", "--precision", "fp32")
    assert result.returncode == 0, result.stderr
    assert "installed base from Systran/faster-whisper-base" in result.stdout
    assert _installed(tmp_path / "data") == ["base"]
    assert not (tmp_path / "data" / "downloads" / "base").exists()  # staging removed
    # only the repository's info and its files: no telemetry, no /api/agent-harnesses, no HEAD probes elsewhere
    paths = {path for _method, path, _range in hub.requests}
    assert paths == {"/api/models/Systran/faster-whisper-base"} | {
        f"/Systran/faster-whisper-base/resolve/{hub_commit()}/{f}"
        for f in ("config.json", "model.bin", "tokenizer.json", "vocabulary.txt")}
    listing = earshot("models", "list")
    base_row = next(line for line in listing.stdout.splitlines() if line.startswith("base\t"))
    assert "fp32" in base_row and " MB" in base_row
    spoken = earshot("transcribe", "--model", "base", "--precision", "fp32", "tests/data/espeak_meeting.wav")
    assert spoken.returncode == 0, spoken.stderr
    assert "meeting" in spoken.stdout.lower()


def hub_commit() -> str:
    from hub_server import COMMIT

    return COMMIT


def test_download_killed_half_way_resumes_and_completes(hub: HubServer, tmp_path: Path,
                                                        bundled_model_dir: Path) -> None:
    hub.faults.bytes_per_second = 8_000_000  # ~10 s for the 75 MB model.bin: time to kill it
    first = start_earshot("models", "download", TINY_COPY_REPO, "--precision", "fp32")
    part = tmp_path / "data" / "downloads" / TINY_COPY / "files" / "model.bin.part"
    deadline = time.monotonic() + 120
    while not (part.exists() and part.stat().st_size > 10_000_000):
        assert first.poll() is None and time.monotonic() < deadline, first.communicate()
        time.sleep(0.1)
    first.send_signal(signal.SIGKILL)
    first.communicate()
    assert _installed(tmp_path / "data") == []  # nothing installed from the half download
    hub.reset()
    seen: list[Progress] = []
    download_model(_request(), ModelStore(), seen.append)  # the same download, started again
    downloading = [p for p in seen if p.phase is Phase.DOWNLOADING]
    assert downloading[0].done_bytes > 10_000_000  # counted from what the killed one left
    assert downloading[-1].done_bytes == downloading[-1].total_bytes
    ranges = [r for _m, path, r in hub.requests if path.endswith("/model.bin")]
    assert len(ranges) == 1 and int(ranges[0].removeprefix("bytes=").rstrip("-")) > 10_000_000
    installed = tmp_path / "data" / "models" / TINY_COPY / "model.bin"
    assert _sha256(installed) == _sha256(bundled_model_dir / "model.bin")


def _request(**kwargs: object) -> DownloadRequest:
    return DownloadRequest(TINY_COPY_REPO, TINY_COPY, Precision.FP32, HubOptions(timeout_s=2), **kwargs)  # type: ignore[arg-type]


def test_cut_connection_resumes_with_a_range_request(hub: HubServer, tmp_path: Path) -> None:
    hub.faults.cut_after["model.bin"] = 20_000_000
    seen: list[Progress] = []
    download_model(_request(), ModelStore(), seen.append)
    ranges = [r for _m, path, r in hub.requests if path.endswith("/model.bin")]
    assert ranges[0] == ""
    assert 0 < int(ranges[1].removeprefix("bytes=").rstrip("-")) <= 20_000_000  # from what was kept
    assert _installed(tmp_path / "data") == [TINY_COPY]
    downloading = [p for p in seen if p.phase is Phase.DOWNLOADING]
    assert downloading[-1].done_bytes == downloading[-1].total_bytes  # counted once, cut or not
    assert any(p.rate_bps > 0 and p.eta_s is not None for p in downloading)
    assert [p.phase for p in seen][-3:] == [Phase.INSTALLING, Phase.CONVERTING, Phase.DONE]


def test_bytes_that_do_not_match_the_sha256_are_refused(hub: HubServer, tmp_path: Path) -> None:
    hub.faults.corrupt.add("model.bin")
    result = earshot("models", "download", TINY_COPY_REPO, "--timeout", "5")
    assert result.returncode == 2
    assert len(_messages(result.stderr)) == 1, result.stderr
    assert "hash mismatch: model.bin" in result.stderr
    assert _installed(tmp_path / "data") == []
    assert not (tmp_path / "data" / "downloads" / TINY_COPY / "files" / "model.bin.part").exists()


def test_a_downloaded_model_that_is_not_whisper_names_the_repository(hub: HubServer, tmp_path: Path) -> None:
    result = earshot("models", "download", BAD_TOKENIZER_REPO, "--timeout", "5")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    (message,) = _messages(result.stderr)
    assert f"{BAD_TOKENIZER_REPO}/tokenizer.json is not a Whisper tokenizer" in message, message
    assert str(tmp_path) not in message  # not the private folder it was downloaded into
    assert _installed(tmp_path / "data") == []


@pytest.mark.parametrize(("model", "fault", "expected"), [
    ("test-owner/no-such-model", None, "HTTP 404, not found"),
    (TINY_COPY_REPO, "/api/models/", "HTTP 500, server error"),
    (TINY_COPY_REPO, "/resolve/", "HTTP 500, server error"),
])
def test_server_errors_give_one_line(hub: HubServer, tmp_path: Path, model: str, fault: str | None,
                                     expected: str) -> None:
    if fault:
        hub.faults.status[fault] = 500
    result = earshot("models", "download", model, "--timeout", "5")
    assert result.returncode == 2
    assert len(_messages(result.stderr)) == 1, result.stderr
    assert expected in result.stderr
    assert _installed(tmp_path / "data") == []


def test_a_stalled_server_times_out_in_one_line(hub: HubServer, tmp_path: Path) -> None:
    hub.faults.stall.add("/resolve/")
    result = earshot("models", "download", TINY_COPY_REPO, "--timeout", "1", timeout=120)
    assert result.returncode == 2
    assert len(_messages(result.stderr)) == 1, result.stderr
    assert "did not answer in time" in result.stderr
    assert _installed(tmp_path / "data") == []


def test_the_bundled_name_is_refused_without_downloading(hub: HubServer) -> None:
    result = earshot("models", "download", "tiny.en")
    assert result.returncode == 2
    assert "already installed" in result.stderr
    assert hub.requests == []


def test_cancel_leaves_nothing(hub: HubServer, tmp_path: Path) -> None:
    hub.faults.bytes_per_second = 20_000_000
    request = _request()

    def report(progress: Progress) -> None:
        if progress.done_bytes > 5_000_000:
            request.cancel.set()  # what the Cancel button does, from another thread

    with pytest.raises(DownloadCancelled):
        download_model(request, ModelStore(), report)
    assert _installed(tmp_path / "data") == []
    assert not (tmp_path / "data" / "downloads" / TINY_COPY).exists()


def test_a_full_disk_is_refused_before_any_file_is_fetched(hub: HubServer, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # a fake for the free-space query only: this machine's disk cannot be filled for a test
    monkeypatch.setattr(downloader, "free_bytes", lambda _folder: 50_000_000)
    with pytest.raises(DownloadError, match=r"not enough free disk space: \d+ MB needed .* 50 MB free"):
        download_model(_request(), ModelStore(), lambda _p: None)
    assert [path for _m, path, _r in hub.requests] == [f"/api/models/{TINY_COPY_REPO}"]
    assert _installed(tmp_path / "data") == []


def test_cancel_from_another_thread_stops_a_throttled_download_quickly(hub: HubServer, tmp_path: Path) -> None:
    hub.faults.bytes_per_second = 2_000_000
    request = _request()
    threading.Timer(1.0, request.cancel.set).start()
    with pytest.raises(DownloadCancelled):
        download_model(request, ModelStore(), lambda _p: None)
    assert not (tmp_path / "data" / "downloads").joinpath(TINY_COPY).exists()


def test_a_download_connects_to_the_chosen_endpoint_only(hub: HubServer, tmp_path: Path) -> None:
    """Under strace: every connect() goes to the hub's 127.0.0.1 port; no DNS, no other host."""
    import os
    import re
    import shutil
    import subprocess
    import sys

    from download_helpers import REPO_ROOT

    strace = shutil.which("strace")
    assert strace, "strace is needed to watch the process's sockets (apt-get install strace)"
    trace = tmp_path / "strace.txt"
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    result = subprocess.run([strace, "-f", "-qq", "-e", "trace=connect", "-o", str(trace), sys.executable, "-m", "app",
                             "models", "download", TINY_COPY_REPO, "--precision", "fp32"],
                            cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stderr
    port = hub.endpoint.rsplit(":", 1)[1]
    inet = [line for line in trace.read_text().splitlines() if re.search(r"AF_INET6?\b", line)]
    assert inet and all(f"sin_port=htons({port})" in line and "127.0.0.1" in line for line in inet), inet[:10]


def test_nothing_listening_says_offline_in_one_line(hub: HubServer, tmp_path: Path) -> None:
    import socket

    with socket.socket() as probe:  # a free port on 127.0.0.1 that nobody answers on
        probe.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{probe.getsockname()[1]}"
    request = DownloadRequest(TINY_COPY_REPO, TINY_COPY, Precision.FP32, HubOptions(endpoint=closed, timeout_s=2))
    with pytest.raises(DownloadError, match=r"^cannot reach 127\.0\.0\.1: offline"):
        download_model(request, ModelStore(), lambda _p: None)
    assert _installed(tmp_path / "data") == []


def test_a_tls_failure_names_tls(hub: HubServer, tmp_path: Path) -> None:
    tls = hub.endpoint.replace("http://", "https://")  # the test hub speaks plain HTTP: the handshake fails
    request = DownloadRequest(TINY_COPY_REPO, TINY_COPY, Precision.FP32, HubOptions(endpoint=tls, timeout_s=2))
    with pytest.raises(DownloadError, match=r"^TLS: "):
        download_model(request, ModelStore(), lambda _p: None)
    assert _installed(tmp_path / "data") == []


def _left_part(data: Path, model_bin: Path, damage: str) -> Path:
    """The staging folder as an earlier try of the same commit leaves it, with model.bin.part
    damaged as `damage` says: 20 MB kept with 4 KB of garbage in their middle, empty, a folder."""
    staging = data / "downloads" / TINY_COPY
    (staging / "files").mkdir(parents=True)
    (staging / "download.json").write_text(json.dumps({"repo": TINY_COPY_REPO, "commit": hub_commit()}))
    part = staging / "files" / "model.bin.part"
    if damage == "a_folder":
        part.mkdir()
        (part / "stray").write_bytes(b"x")
    elif damage == "empty":
        part.write_bytes(b"")
    else:
        kept = bytearray(model_bin.read_bytes()[:20_000_000])
        kept[10_000_000:10_004_096] = np.random.default_rng(3).bytes(4096)
        part.write_bytes(bytes(kept))
    return part


@pytest.mark.parametrize("damage", ["damaged_in_the_middle", "empty", "a_folder"])
def test_a_damaged_local_part_is_fetched_again_and_the_model_installed(hub: HubServer, tmp_path: Path,
                                                                        bundled_model_dir: Path, damage: str) -> None:
    _left_part(tmp_path / "data", bundled_model_dir / "model.bin", damage)
    result = earshot("models", "download", TINY_COPY_REPO, "--precision", "fp32", "--timeout", "5")
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    installed = tmp_path / "data" / "models" / TINY_COPY / "model.bin"
    assert _sha256(installed) == _sha256(bundled_model_dir / "model.bin")
    assert not (tmp_path / "data" / "downloads" / TINY_COPY).exists()
    ranges = [r for _m, path, r in hub.requests if path.endswith("/model.bin")]
    assert ranges == (["bytes=20000000-", ""] if damage == "damaged_in_the_middle" else [""])


def test_a_local_part_this_user_may_not_read_is_fetched_again_and_the_model_installed(
        hub: HubServer, bundled_model_dir: Path, tmp_path: Path) -> None:
    """A real unreadable `.part`: another user's 0600 file (as a `sudo earshot models download`
    killed half way leaves it), met by a download that root's file permission override is taken from."""
    data = tmp_path / "data" / "earshot"
    part = another_users(_left_part(data, bundled_model_dir / "model.bin", "damaged_in_the_middle"))
    command = [sys.executable, "-m", "app", "models", "download", TINY_COPY_REPO, "--precision", "fp32",
               "--timeout", "5"]
    result = subprocess.run(without_file_permission_override(command), cwd=tmp_path, capture_output=True, text=True,
                            env=home_env(tmp_path, HF_ENDPOINT=hub.endpoint, HF_HOME=str(tmp_path / "hf")), timeout=600)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert not part.exists()  # fetched again whole, installed, and the downloads folder cleared
    assert _sha256(data / "models" / TINY_COPY / "model.bin") == _sha256(bundled_model_dir / "model.bin")
    assert [r for _m, path, r in hub.requests if path.endswith("/model.bin")] == [""]  # whole, no resume tried


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=lambda s: signal.Signals(s).name)
def test_a_signal_stops_a_download_which_the_same_command_resumes(hub: HubServer, tmp_path: Path,
                                                                   bundled_model_dir: Path, signum: int) -> None:
    """A service manager's SIGTERM, Ctrl-C, a closed terminal: the command says so in one line and
    exits with 128 + the signal, nothing is installed, no process of it is left, and the same
    command resumes from the bytes it kept."""
    hub.faults.bytes_per_second = 8_000_000
    first = start_earshot("models", "download", TINY_COPY_REPO, "--precision", "fp32")
    part = tmp_path / "data" / "downloads" / TINY_COPY / "files" / "model.bin.part"
    deadline = time.monotonic() + 120
    while not (part.exists() and part.stat().st_size > 10_000_000):
        assert first.poll() is None and time.monotonic() < deadline, first.communicate()
        time.sleep(0.1)
    tree = process_tree(first.pid)
    first.send_signal(signum)
    _out, stderr = first.communicate(timeout=60)
    assert first.returncode == 128 + signum, stderr
    assert "Traceback" not in stderr and still_running(tree) == []
    assert _messages(stderr)[-2:] == [
        f"earshot: download of {TINY_COPY} stopped; nothing was installed, and the same command resumes it",
        "interrupted"]
    assert _installed(tmp_path / "data") == [] and part.stat().st_size > 10_000_000
    hub.reset()
    again = earshot("models", "download", TINY_COPY_REPO, "--precision", "fp32")
    assert again.returncode == 0, again.stderr
    ranges = [r for _m, path, r in hub.requests if path.endswith("/model.bin")]
    assert len(ranges) == 1 and int(ranges[0].removeprefix("bytes=").rstrip("-")) > 10_000_000
    assert _sha256(tmp_path / "data" / "models" / TINY_COPY / "model.bin") == _sha256(bundled_model_dir / "model.bin")
