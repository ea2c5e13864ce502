"""huggingface_hub set up for Earshot: nothing but the repository's files, errors in one line.

Nothing here runs until the user starts a download (importing this module makes no request).
huggingface_hub 2.4 would otherwise add telemetry to its User-Agent and, to do so, fetch
`{endpoint}/api/agent-harnesses` (utils/_detect_agent.py, called from build_hf_headers unless
HF_HUB_DISABLE_TELEMETRY); with hf_xet installed it would fetch large files from a separate Xet
CAS service instead of the endpoint's `resolve/` URLs (HF_HUB_DISABLE_XET keeps it to plain,
resumable HTTP on the chosen endpoint or mirror).
"""

from __future__ import annotations

import errno
import logging
import os
import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit

_QUIET_HUB = {
    "HF_HUB_DISABLE_TELEMETRY": "1",  # no telemetry, no /api/agent-harnesses lookup
    "HF_HUB_DISABLE_XET": "1",  # files from the endpoint itself, resumable with Range
    "HF_HUB_DISABLE_UPDATE_CHECK": "1",  # the `hf` CLI's PyPI check (not used, but never)
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",  # our own progress; tqdm's would probe the terminal
}
os.environ.update(_QUIET_HUB)  # read when huggingface_hub is first imported

import httpx2  # noqa: E402  (after the switches above)
from huggingface_hub import constants, errors, set_client_factory  # noqa: E402
from huggingface_hub.utils._http import hf_request_event_hook  # noqa: E402

log = logging.getLogger(__name__)
DEFAULT_ENDPOINT = "https://huggingface.co"
_CHUNK_BYTES = 1 << 20  # hub's 10 MB chunks leave a 1 MB/s line without progress for 10 s
_STATUS_WORDS = {
    401: "needs an access token (Settings > Download models > Access token, or HF_TOKEN)",
    403: "access denied (gated repository: accept its terms on the hub, then set a token)",
    404: "not found",
}


class DownloadError(Exception):
    """A download failed; str() is the one line the user sees."""


@dataclass(frozen=True)
class HubOptions:
    """Where and how to download. `endpoint` empty = $HF_ENDPOINT, else huggingface.co (a mirror
    such as https://hf-mirror.com works the same); `token` empty = $HF_TOKEN / `hf auth login`;
    `timeout_s`: seconds without an answer (or without a byte) before giving up."""

    endpoint: str = ""
    token: str = ""
    timeout_s: float = 15.0

    def __post_init__(self) -> None:
        if self.timeout_s <= 0:
            raise ValueError(f"timeout_s must be positive, got {self.timeout_s}")
        if self.endpoint and urlsplit(self.endpoint).scheme not in ("http", "https"):
            raise ValueError(f"the mirror must be an http(s) address, got {self.endpoint!r}")

    @property
    def resolved_endpoint(self) -> str:
        return (self.endpoint or os.environ.get("HF_ENDPOINT") or DEFAULT_ENDPOINT).rstrip("/")

    @property
    def resolved_token(self) -> str | None:
        return self.token or None  # None: huggingface_hub reads HF_TOKEN or the stored login


def configure_hub(options: HubOptions) -> None:
    """Apply the switches, the timeouts and a client that uses the system's proxies and CA store."""
    constants.HF_HUB_DISABLE_TELEMETRY = True  # also when huggingface_hub was imported first
    constants.HF_HUB_DISABLE_XET = True
    constants.HF_HUB_DOWNLOAD_TIMEOUT = int(max(1, options.timeout_s))
    constants.HF_HUB_ETAG_TIMEOUT = int(max(1, options.timeout_s))
    constants.DOWNLOAD_CHUNK_SIZE = _CHUNK_BYTES
    _hub_logs_to_our_log()
    set_client_factory(
        lambda: httpx2.Client(
            event_hooks={"request": [hf_request_event_hook]},
            follow_redirects=True,
            timeout=options.timeout_s,
            verify=_system_tls_context(),
            trust_env=True,  # HTTPS_PROXY / NO_PROXY / ALL_PROXY from the environment
        )
    )


def _hub_logs_to_our_log() -> None:
    """huggingface_hub prints its warnings (retries) on stderr itself; send them to the diagnostics
    log instead, so the user sees one line per error and the log keeps the detail."""
    hub_logger = logging.getLogger("huggingface_hub")
    for handler in list(hub_logger.handlers):
        hub_logger.removeHandler(handler)
    for handler in logging.getLogger().handlers:
        if isinstance(handler, logging.FileHandler):  # the diagnostics log, not the console
            hub_logger.addHandler(handler)
    hub_logger.propagate = False


def _system_tls_context() -> ssl.SSLContext:
    """The operating system's trust store (corporate CAs included), not certifi's bundle."""
    try:
        import truststore  # Windows / macOS keychains; on Linux the same as OpenSSL's store

        return truststore.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    except ImportError:
        return ssl.create_default_context()  # OpenSSL's default paths: the system store on Linux


def describe_error(exc: BaseException, endpoint: str, repo: str) -> str:
    """One line naming the cause: offline, DNS, TLS, timeout, 401/403/404/5xx, disk full."""
    host = urlsplit(endpoint).hostname or endpoint
    for cause in _chain(exc):
        if isinstance(cause, OSError) and cause.errno == errno.ENOSPC:
            return "the disk is full: free some space and download again (it resumes)"
        if isinstance(cause, errors.HfHubHTTPError) and cause.response is not None:
            code = cause.response.status_code
            what = _STATUS_WORDS.get(code, "server error" if code >= 500 else "refused")
            return f"{repo} on {host}: HTTP {code}, {what}"
        if isinstance(cause, ssl.SSLError) or any(w in str(cause) for w in ("[SSL", "CERTIFICATE_VERIFY_FAILED")):
            return f"TLS: no trusted secure connection to {host} ({_first_line(cause)})"
        if isinstance(cause, httpx2.TimeoutException):
            return f"{host} did not answer in time: a slow or stalled connection (try again; it resumes)"
        if isinstance(cause, httpx2.ConnectError | httpx2.NetworkError | httpx2.RemoteProtocolError):
            if _looks_like_dns(cause):
                return f"cannot resolve {host} (DNS): offline, or set a mirror in Settings > Download models > Mirror"
            return f"cannot reach {host}: offline, or the connection was cut ({_first_line(cause)})"
    return _first_line(exc)


def _chain(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def _looks_like_dns(exc: BaseException) -> bool:
    text = str(exc).lower()
    return any(
        w in text
        for w in (
            "name or service not known",
            "nodename nor servname",
            "getaddrinfo",
            "name resolution",
            "no address associated",
        )
    )


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
