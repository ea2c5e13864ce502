"""`earshot transcribe DIR... [--recursive] [--jobs N] [--ray auto|local|ADDRESS]`: whole archives.

The driver lists the inputs, skips those the output folder's manifest says are done (same
content hash, model, precision and options; `--force` redoes them), hands the rest to a backend
(this process, N worker processes, or Ray actors), and itself writes every transcript, mirroring
the input tree under `--output-dir`, then the input's manifest line. So any run resumes any
other: a local run, a `--jobs` run and a Ray run of the same folder share one manifest.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import enum
import json
import logging
import sys
import time
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from app.archive.file_job import EngineSpec, FileJob, FileOutcome, FileResult
from app.archive.inputs import ArchiveInput, list_inputs
from app.archive.manifest import Manifest, ManifestError, RunLock
from app.archive.summary import RunSummary
from app.commands.common import one_line
from app.commands.stop_signals import exit_status
from app.commands.transcript_output import STDOUT, TranscriptOutput

if TYPE_CHECKING:
    from app.archive.schedule import Backend
    from app.engine.export.subtitles import SubtitleOptions
    from app.engine.transcribe.whisper_engine import WhisperEngine
    from app.engine.types import DecodeOptions

log = logging.getLogger(__name__)

MEASURED_JOBS = 2
"""Worker processes when `--jobs` is not given, at most one per physical core. bench/archive.py on
the 2-core machine (tiny.en int8, greedy, 23 files, 3.4 min): 2 workers x 1 thread took 143 and
178 s against 1 worker x 2 threads' 185 and 215 s (1.2-1.3x): per-file work that one engine does
on one thread (audio decoding, the voice detector, greedy decoder steps too small to split) runs
side by side. Not measured on more cores, so not raised past 2 there."""


def default_jobs() -> int:
    from app.engine.runtime.ort_sessions import physical_cores

    return max(1, min(MEASURED_JOBS, physical_cores()))


def add_archive_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--recursive",
        "-r",
        action="store_true",
        help="folders: take media files in every sub-folder too; transcripts mirror the tree",
    )
    p.add_argument(
        "--force", action="store_true", help="transcribe again what the output folder's manifest says is done"
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help=f"worker processes, each with its own engine and cores/N threads "
        f"(default: {MEASURED_JOBS}, at most one per core)",
    )
    p.add_argument(
        "--ray",
        default=None,
        metavar="auto|local|ADDRESS",
        help="transcribe on a Ray cluster (pip install 'earshot[cluster]'): auto = the running "
        "cluster, local = start one on this machine, or the head's address",
    )


def wants_archive_run(args: argparse.Namespace) -> bool:
    """--recursive, --force, --jobs, --ray, or a folder with --output-dir: the manifest-keeping
    archive run. (A folder printed to stdout is a one-line bad input.)"""
    folders = args.output_dir != STDOUT and any(Path(name).is_dir() for name in args.files)
    return bool(args.recursive or args.force or args.jobs is not None or args.ray or folders)


def run_archive(
    args: argparse.Namespace, engine: WhisperEngine, options: DecodeOptions, subtitles: SubtitleOptions | None
) -> int:
    """The whole run; exit status 0 (all done or skipped), 1 (some failed), 2 (usage), 128 + the
    signal that stopped it (130: Ctrl-C, 143: SIGTERM, 129: SIGHUP)."""
    started = time.perf_counter()
    if args.output_dir == STDOUT:
        print(
            "earshot: error: folders, --recursive, --force, --jobs and --ray write transcript files: give --output-dir",
            file=sys.stderr,
        )
        return 2
    jobs = default_jobs() if args.jobs is None else args.jobs
    if jobs < 1:
        print(f"earshot: error: --jobs must be at least 1, not {jobs}", file=sys.stderr)
        return 2
    lock = RunLock(Path(args.output_dir))
    try:
        lock.acquire()  # before the manifest is read: its compaction must not race another run
        run = ArchiveRun(
            Path(args.output_dir),
            args.formats or ["txt"],
            subtitles,
            settings_key(engine, options, args.formats or ["txt"], subtitles),
            args.force,
        )
    except ManifestError as exc:
        lock.release()
        print(f"earshot: error: {exc}", file=sys.stderr)
        return 2
    try:
        return _run(args, engine, run, options, jobs, started)
    finally:
        lock.release()


def _run(
    args: argparse.Namespace, engine: WhisperEngine, run: ArchiveRun, options: DecodeOptions, jobs: int, started: float
) -> int:
    inputs = run.collect(args.files, args.recursive)
    todo = run.plan(inputs, options)
    if todo:
        try:
            run.transcribe(_backend(args, engine, jobs), todo, inputs)
        except (RuntimeError, ConnectionError) as exc:  # --ray: Ray missing, or no cluster at that address
            if not args.ray:
                raise
            log.warning("the Ray run stopped", exc_info=True)
            print(f"earshot: error: --ray {args.ray}: {one_line(exc)}", file=sys.stderr)
            run.finish(started)
            return 2
        except KeyboardInterrupt as stop:  # Ctrl-C, SIGTERM, SIGHUP: the backend has ended its workers
            run.finish(started)
            print(
                "earshot: interrupted; finished files are written and recorded, the next run resumes", file=sys.stderr
            )
            return exit_status(stop)
    return run.finish(started)


def settings_key(
    engine: WhisperEngine, options: DecodeOptions, formats: list[str], subtitles: SubtitleOptions | None
) -> dict[str, Any]:
    """What makes a transcript what it is, as JSON values: a manifest record with other settings
    is not done for this run."""

    def plain(value: object) -> object:
        return value.value if isinstance(value, enum.Enum) else str(value)

    cues = subtitles if subtitles is not None and {"srt", "vtt"} & set(formats) else None  # only cues use them
    raw = {
        "model": engine.name,
        "precision": engine.precision.value,
        "options": dataclasses.asdict(options),
        "formats": sorted(set(formats)),
        "subtitles": dataclasses.asdict(cues) if cues else None,
    }
    result: dict[str, Any] = json.loads(json.dumps(raw, default=plain))
    return result


def _backend(args: argparse.Namespace, engine: WhisperEngine, jobs: int) -> Backend:
    from app.archive.local_pool import InProcessBackend, ProcessPoolBackend
    from app.engine.runtime.ort_sessions import physical_cores

    if args.ray:
        from app.archive.ray_pool import RayBackend

        spec = EngineSpec(args.model, engine.precision, args.provider, args.threads or 1)
        return RayBackend(spec, args.ray)
    if jobs == 1:
        return InProcessBackend(engine)
    threads = args.threads or max(1, physical_cores() // jobs)
    return ProcessPoolBackend(EngineSpec(args.model, engine.precision, args.provider, threads), jobs)


class ArchiveRun:
    """One archive run's state: the output folder, its manifest and the running summary."""

    def __init__(
        self,
        output_dir: Path,
        formats: list[str],
        subtitles: SubtitleOptions | None,
        settings: dict[str, Any],
        force: bool,
    ) -> None:
        self.output_dir, self.formats, self.subtitles = output_dir, list(dict.fromkeys(formats)), subtitles
        self.settings, self.force = settings, force
        self.manifest = Manifest(output_dir)
        self.summary = RunSummary()
        self.identities: dict[int, Any] = {}

    def collect(self, names: list[str], recursive: bool) -> list[ArchiveInput]:
        inputs, problems = list_inputs(names, recursive)
        for problem in problems:
            self._fail(problem)
        return inputs

    def plan(self, inputs: list[ArchiveInput], options: DecodeOptions) -> list[FileJob]:
        """The jobs still to do; skipped and unreadable inputs are counted here."""
        todo = []
        for index, item in enumerate(inputs):
            try:
                identity = self.manifest.identity(item.source, item.stem)
            except OSError as exc:
                log.warning("cannot read %s", item.source, exc_info=True)
                self._fail(f"{item.source}: {exc.strerror or one_line(exc)}")
                continue
            if not self.force and self.manifest.is_done(item.stem, identity, self.settings):
                self.summary.skipped += 1
                continue
            self.identities[index] = identity
            todo.append(FileJob(index, str(item.source), options))
        if self.summary.skipped:
            print(
                f"earshot: {self.summary.skipped} of {len(inputs)} inputs skipped: already done in "
                f"{self.manifest.path} (--force redoes them)",
                file=sys.stderr,
            )
        return todo

    def transcribe(self, backend: Backend, todo: list[FileJob], inputs: list[ArchiveInput]) -> None:
        from app.archive.schedule import run_with_retry

        with contextlib.closing(run_with_retry(backend, todo, self._say_retry)) as results:
            for result, attempts in results:
                self._take(result, attempts, inputs)

    def _take(self, result: FileResult, attempts: int, inputs: list[ArchiveInput]) -> None:
        item = inputs[result.index]
        if result.outcome is FileOutcome.DONE:
            self._record(item, result)
        else:
            again = " (failed twice)" if attempts > 1 else ""
            named = result.error if str(item.source) in result.error else f"{item.source}: {result.error}"
            self._fail(named + again)

    @staticmethod
    def _say_retry(jobs: list[FileJob]) -> None:
        print(
            f"earshot: {len(jobs)} file(s) retried: their worker failed ({', '.join(j.source for j in jobs[:3])}"
            f"{', ...' if len(jobs) > 3 else ''})",
            file=sys.stderr,
        )

    def _record(self, item: ArchiveInput, result: FileResult) -> None:
        assert result.meta is not None
        stem = PurePosixPath(item.stem)
        folder = self.output_dir.joinpath(*stem.parent.parts)
        output = TranscriptOutput(str(folder), self.formats, [str(item.source)], self.subtitles, stems=[stem.name])
        if not output.write(0, result.segments, result.meta):
            self.summary.failed += 1  # said on stderr by TranscriptOutput; not recorded, so redone next run
            return
        identity = self.identities[result.index]
        try:
            self.manifest.add(
                {
                    "stem": item.stem,
                    "source": str(item.source),
                    "sha256": identity.sha256,
                    "size": identity.size,
                    "mtime_ns": identity.mtime_ns,
                    "settings": self.settings,
                    "outputs": [str(stem.parent / output.file_name(0, fmt)) for fmt in self.formats],
                    "duration_s": round(result.meta.duration_s, 3),
                }
            )
        except OSError as exc:  # a full disk: the transcript is written, only the record of it is not
            log.warning("manifest line for %s not written", item.source, exc_info=True)
            self._fail(
                f"{item.source}: transcribed, but not recorded in {self.manifest.path} "
                f"({exc.strerror or one_line(exc)}): the next run transcribes it again"
            )
            return
        self.summary.done += 1
        self.summary.audio_s += result.meta.duration_s

    def _fail(self, line: str) -> None:
        print(f"earshot: error: {line}", file=sys.stderr)
        self.summary.failed += 1

    def finish(self, started: float) -> int:
        self.summary.wall_s = time.perf_counter() - started
        print(self.summary.line(), file=sys.stderr)
        return 1 if self.summary.failed else 0
