"""Download a Whisper model from the Hugging Face hub (or a mirror) and install it.

Flow: repository info (one request: the commit and each file's size and sha256) -> free-space
check -> each needed file fetched with huggingface_hub's http_get into
`<data>/downloads/<name>/files/<file>.part`, resumed with a Range request after a cut connection
or a killed process -> the sha256 (LFS files) or git blob sha1 (small files) checked -> the folder
handed to ModelStore.import_model (copy + weights check) -> conversion at the chosen precision.
Cancel removes the staging folder; nothing reaches models/ before every file is verified.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import logging
import os
import shutil
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from app.engine.models import hub
from app.engine.models.download_progress import ByteMeter, DownloadCancelled, Phase, Progress, ProgressCallback
from app.engine.models.model_names import check_model_name
from app.engine.models.store import BUNDLED_NAME, ModelEntry, ModelStore
from app.engine.types import Precision
from app.private_files import private_dir

log = logging.getLogger(__name__)
WANTED_FILES = (
    "config.json",
    "model.bin",
    "model.safetensors",
    "tokenizer.json",
    "vocabulary.*",
    "preprocessor_config.json",
    "generation_config.json",
)
_STATE_FILE = "download.json"
_CONVERTED_FACTOR = 2.0  # fp32 graphs from float16 weights take about twice the download


@dataclass(frozen=True)
class RemoteFile:
    """One file of the repository: `size` in bytes; `sha256` for LFS files, else the git blob sha1."""

    name: str
    size: int
    sha256: str | None
    git_sha1: str | None


@dataclass
class DownloadRequest:
    """What to download: a repository id, the installed name, the precision to convert to."""

    repo: str
    name: str
    precision: Precision = Precision.AUTO
    hub_options: hub.HubOptions = field(default_factory=hub.HubOptions)
    cancel: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        check_model_name(self.name)


def free_bytes(folder: Path) -> int:
    """Free space (bytes) on the volume holding `folder` (its nearest existing parent)."""
    while not folder.exists():
        folder = folder.parent
    return shutil.disk_usage(folder).free


def download_model(request: DownloadRequest, store: ModelStore, report: ProgressCallback) -> ModelEntry:
    """Download, verify, install (import_model) and convert; hub.DownloadError in one line on failure,
    DownloadCancelled when `request.cancel` is set (the staging folder is then gone)."""
    staging = store.data_dir / "downloads" / request.name
    endpoint = request.hub_options.resolved_endpoint
    try:
        entry = _fetch_and_install(request, store, staging, report)
    except DownloadCancelled:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    except hub.DownloadError:
        raise
    except Exception as exc:
        log.exception("downloading %s from %s failed", request.repo, endpoint)
        raise hub.DownloadError(hub.describe_error(exc, endpoint, request.repo)) from exc
    shutil.rmtree(staging, ignore_errors=True)
    report(Progress(Phase.CONVERTING, file=request.precision.value))
    store.converted(entry, _resolved(request.precision))
    report(Progress(Phase.DONE))
    return entry


def _fetch_and_install(
    request: DownloadRequest, store: ModelStore, staging: Path, report: ProgressCallback
) -> ModelEntry:
    if request.name == BUNDLED_NAME or (store.models_dir / request.name).exists():
        raise hub.DownloadError(f"a model named {request.name!r} is already installed")
    hub.configure_hub(request.hub_options)
    report(Progress(Phase.CHECKING, file=request.repo))
    commit, files = repository_files(request.repo, request.hub_options)
    files_dir = _prepare_staging(staging, request.repo, commit)
    _drop_unusable_parts(files, files_dir)
    _check_free_space(files, files_dir, store)
    meter = ByteMeter(sum(f.size for f in files), _have_bytes(files, files_dir), report, request.cancel)
    for remote in files:
        _fetch_file(request, commit, remote, files_dir, meter)
    if request.cancel.is_set():
        raise DownloadCancelled("download cancelled")
    report(Progress(Phase.INSTALLING, file=request.name))
    return store.import_model(files_dir, request.name, shown_as=request.repo)


def repository_files(repo: str, options: hub.HubOptions) -> tuple[str, list[RemoteFile]]:
    """(commit, the files Earshot needs) from one repository-info request."""
    from huggingface_hub import HfApi

    info = HfApi(endpoint=options.resolved_endpoint, token=options.resolved_token).model_info(
        repo, files_metadata=True, timeout=options.timeout_s
    )
    files = []
    for sibling in info.siblings or []:
        if any(fnmatch.fnmatch(sibling.rfilename, pattern) for pattern in WANTED_FILES):
            lfs = sibling.lfs
            files.append(
                RemoteFile(
                    sibling.rfilename,
                    int(lfs.size if lfs else sibling.size or 0),
                    lfs.sha256 if lfs else None,
                    None if lfs else sibling.blob_id,
                )
            )
    if not any(f.name in ("model.bin", "model.safetensors") for f in files):
        raise hub.DownloadError(f"{repo} has no model.bin or model.safetensors: not a Whisper model repository")
    return str(info.sha), files


def _prepare_staging(staging: Path, repo: str, commit: str) -> Path:
    """`staging/files`, kept from an earlier try of the same commit (resume), else emptied."""
    state = {"repo": repo, "commit": commit}
    state_path = staging / _STATE_FILE
    try:
        same = json.loads(state_path.read_text(encoding="utf-8")) == state
    except (OSError, ValueError):
        same = False
    if not same:
        shutil.rmtree(staging, ignore_errors=True)
    private_dir(staging.parent)
    private_dir(staging)
    state_path.write_text(json.dumps(state), encoding="utf-8")
    return private_dir(staging / "files")


def _check_free_space(files: list[RemoteFile], files_dir: Path, store: ModelStore) -> None:
    """Refuse up front: what is left to download + the installed copy + the converted graphs."""
    total = sum(f.size for f in files)
    needed = (total - _have_bytes(files, files_dir)) + total + int(total * _CONVERTED_FACTOR)
    free = free_bytes(files_dir)
    if free < needed:
        raise hub.DownloadError(
            f"not enough free disk space: {needed / 1e6:.0f} MB needed "
            f"(download, install and converted graphs), {free / 1e6:.0f} MB free"
        )


def _fetch_file(request: DownloadRequest, commit: str, remote: RemoteFile, files_dir: Path, meter: ByteMeter) -> None:
    from huggingface_hub import hf_hub_url
    from huggingface_hub.file_download import http_get
    from huggingface_hub.utils._headers import build_hf_headers

    final = files_dir / remote.name
    if final.exists():
        return  # verified in an earlier try
    part = _part(files_dir, remote)
    have = part.stat().st_size if part.exists() else 0
    if have > remote.size:
        part.unlink()
        meter.done_bytes -= have
        have = 0
    meter.file = remote.name
    url = hf_hub_url(request.repo, remote.name, revision=commit, endpoint=request.hub_options.resolved_endpoint)
    headers = build_hf_headers(token=request.hub_options.resolved_token)
    with part.open("ab") as out:
        http_get(
            url,
            out,
            resume_size=have,
            headers=headers,
            expected_size=remote.size,
            displayed_filename=remote.name,
            tqdm_class=cast(Any, meter.bar_factory()),
        )
    meter.file = remote.name
    try:
        _verify(part, remote)
    except hub.DownloadError:
        if not have:
            raise
        # the bytes kept from an earlier try were damaged (a disk error, a crash in the middle of a
        # write): they are gone now (_verify removed them), so the file is fetched once more, whole
        log.warning("%s resumed from %d kept bytes did not match its checksum; fetching it whole", remote.name, have)
        meter.done_bytes -= remote.size
        _fetch_file(request, commit, remote, files_dir, meter)
        return
    part.rename(final)


def _drop_unusable_parts(files: list[RemoteFile], files_dir: Path) -> None:
    """A `.part` that cannot be resumed is removed and its file fetched whole: something else in
    its place (a folder), or a file this user may not read and write (left by `sudo earshot`)."""
    for remote in files:
        part = _part(files_dir, remote)
        if not (part.exists() or part.is_symlink()):
            continue
        if part.is_file() and not part.is_symlink() and os.access(part, os.R_OK | os.W_OK):
            continue
        log.warning(
            "%s cannot be resumed (not a file this user may read and write); fetching %s whole", part, remote.name
        )
        if part.is_dir() and not part.is_symlink():
            shutil.rmtree(part)
        else:
            part.unlink()


def _verify(part: Path, remote: RemoteFile) -> None:
    """The hub's sha256 (LFS) or git blob sha1; a mismatch removes the file and says so."""
    if remote.sha256:
        digest, expected = hashlib.sha256(), remote.sha256
    elif remote.git_sha1:
        digest, expected = hashlib.sha1(f"blob {part.stat().st_size}\0".encode()), remote.git_sha1
    else:
        return
    with part.open("rb") as handle:
        while chunk := handle.read(1 << 22):
            digest.update(chunk)
    if digest.hexdigest() != expected:
        part.unlink()
        raise hub.DownloadError(
            f"hash mismatch: {remote.name} does not match the hub's checksum "
            "(a corrupted download or a tampered mirror); nothing was installed"
        )


def _have_bytes(files: list[RemoteFile], files_dir: Path) -> int:
    """Bytes already here from an earlier try: verified files and partial ones."""
    have = 0
    for remote in files:
        for path in (files_dir / remote.name, _part(files_dir, remote)):
            if path.exists():
                have += path.stat().st_size
                break
    return have


def _part(files_dir: Path, remote: RemoteFile) -> Path:
    return files_dir / f"{remote.name}.part"


def _resolved(precision: Precision) -> Precision:
    from app.engine.models.precisions import resolve_precision

    return resolve_precision(precision, "cpu")
