"""A local stand-in for the Hugging Face hub (127.0.0.1 only), for download tests without internet.

It implements what huggingface_hub 2.4 uses for a download: repository info
(`GET /api/models/<repo>[/revision/<rev>]?blobs=True`: commit sha, each file's size, git blob id
and LFS sha256), file metadata (`HEAD /<repo>/resolve/<rev>/<file>`: ETag, X-Repo-Commit,
X-Linked-Etag / X-Linked-Size for LFS files) and file bytes (`GET`, with `Range: bytes=N-` ->
206). Faults a test can switch on: a status for a path, a connection cut after N bytes (once),
bytes served corrupted, a throttle (bytes per second), a stall. Every request is recorded.
The server thread is a daemon and `stop()` (or the fixture's teardown) ends it.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

COMMIT = "0123456789abcdef0123456789abcdef01234567"
_LFS_MIN_BYTES = 1_000_000  # like the hub: big files are LFS (sha256), small ones git blobs (sha1)
_MAX_STALL_S = 60.0  # a stalled answer still ends, so a broken test cannot hang the suite
_CHUNK = 1 << 16


@dataclass
class HostedFile:
    path: Path
    size: int
    sha256: str
    git_sha1: str

    @classmethod
    def of(cls, path: Path) -> HostedFile:
        sha256, size = hashlib.sha256(), path.stat().st_size
        sha1 = hashlib.sha1(f"blob {size}\0".encode())
        with path.open("rb") as handle:
            while chunk := handle.read(1 << 22):
                sha256.update(chunk)
                sha1.update(chunk)
        return cls(path, size, sha256.hexdigest(), sha1.hexdigest())

    @property
    def lfs(self) -> bool:
        return self.size >= _LFS_MIN_BYTES


@dataclass
class Faults:
    status: dict[str, int] = field(default_factory=dict)  # path substring -> HTTP status
    cut_after: dict[str, int] = field(default_factory=dict)  # file name -> bytes sent before a cut (once)
    corrupt: set[str] = field(default_factory=set)  # file names served with one byte changed
    stall: set[str] = field(default_factory=set)  # path substrings answered never (bounded)
    bytes_per_second: int = 0  # 0 = as fast as it goes


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: object, client_address: object) -> None:
        import sys

        if not isinstance(sys.exc_info()[1], ConnectionError):  # a killed or cancelled client: expected
            super().handle_error(request, client_address)  # type: ignore[arg-type]


class HubServer:
    def __init__(self, repos: dict[str, dict[str, HostedFile]]) -> None:
        self.repos = repos
        self.faults = Faults()
        self.requests: list[tuple[str, str, str]] = []  # (method, path, Range header)
        self._stopping = threading.Event()
        self._httpd = _QuietServer(("127.0.0.1", 0), _handler_for(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="test-hub", daemon=True)

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def start(self) -> HubServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def reset(self) -> None:
        self.faults = Faults()
        self.requests.clear()

    def wait_stopping(self, seconds: float) -> None:
        self._stopping.wait(seconds)


_RESOLVE = re.compile(r"^/(?P<repo>[^/]+/[^/]+)/resolve/(?P<rev>[^/]+)/(?P<file>.+)$")
_INFO = re.compile(r"^/api/models/(?P<repo>[^/]+/[^/]+?)(?:/revision/(?P<rev>[^/]+))?$")


def _handler_for(server: HubServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_HEAD(self) -> None:
            self._serve(body=False)

        def do_GET(self) -> None:
            self._serve(body=True)

        def _serve(self, body: bool) -> None:
            path = self.path.split("?")[0]
            server.requests.append((self.command, path, self.headers.get("Range", "")))
            if any(s in path for s in server.faults.stall):
                server.wait_stopping(_MAX_STALL_S)
                return
            if code := next((c for s, c in server.faults.status.items() if s in path), None):
                return self._error(code, "Injected")
            if match := _INFO.match(path):
                return self._info(match["repo"])
            if match := _RESOLVE.match(path):
                return self._file(match["repo"], match["file"], body)
            self._error(404, "RepoNotFound")

        def _error(self, code: int, error_code: str) -> None:
            payload = json.dumps({"error": f"{error_code} ({code})"}).encode()
            self.send_response(code)
            self.send_header("X-Error-Code", error_code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def _info(self, repo: str) -> None:
            files = server.repos.get(repo)
            if files is None:
                return self._error(404, "RepoNotFound")
            siblings = [{"rfilename": name, "size": f.size, "blobId": f.git_sha1,
                         **({"lfs": {"size": f.size, "sha256": f.sha256, "pointerSize": 134}} if f.lfs else {})}
                        for name, f in files.items()]
            payload = json.dumps({"id": repo, "modelId": repo, "sha": COMMIT, "private": False,
                                  "siblings": siblings}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def _file(self, repo: str, name: str, body: bool) -> None:
            hosted = server.repos.get(repo, {}).get(name)
            if hosted is None:
                return self._error(404, "EntryNotFound" if repo in server.repos else "RepoNotFound")
            start = int(m[1]) if (m := re.match(r"bytes=(\d+)-", self.headers.get("Range", ""))) else 0
            self.send_response(206 if start else 200)
            self.send_header("ETag", f'"{hosted.sha256 if hosted.lfs else hosted.git_sha1}"')
            self.send_header("X-Repo-Commit", COMMIT)
            if hosted.lfs:
                self.send_header("X-Linked-Etag", f'"{hosted.sha256}"')
                self.send_header("X-Linked-Size", str(hosted.size))
            if start:
                self.send_header("Content-Range", f"bytes {start}-{hosted.size - 1}/{hosted.size}")
            self.send_header("Content-Length", str(hosted.size - start))
            self.end_headers()
            if body:
                self._send_bytes(hosted, name, start)

        def _send_bytes(self, hosted: HostedFile, name: str, start: int) -> None:
            cut = server.faults.cut_after.pop(name, None)
            sent, rate = start, server.faults.bytes_per_second
            with hosted.path.open("rb") as handle:
                handle.seek(start)
                while chunk := handle.read(_CHUNK):
                    if name in server.faults.corrupt and sent == start:
                        chunk = bytes([chunk[0] ^ 0xFF]) + chunk[1:]
                    if cut is not None and sent - start + len(chunk) > cut:
                        self.wfile.write(chunk[: max(0, cut - (sent - start))])
                        self.wfile.flush()
                        self.close_connection = True
                        self.connection.shutdown(2)
                        return
                    self.wfile.write(chunk)
                    sent += len(chunk)
                    if rate:
                        time.sleep(len(chunk) / rate)
                    if server._stopping.is_set():
                        return

    return Handler
