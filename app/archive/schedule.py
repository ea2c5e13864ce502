"""One attempt per file, then one retry for files whose attempt failed for a reason that may
have been the worker's (`FileOutcome.ERROR`): a file failing twice is reported, not retried forever."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Protocol

from app.archive.file_job import FileJob, FileOutcome, FileResult

ATTEMPTS = 2


class Backend(Protocol):
    """Runs jobs and yields exactly one result per job, in any order."""

    def run(self, jobs: Sequence[FileJob]) -> Iterator[FileResult]: ...


def run_with_retry(
    backend: Backend,
    jobs: Sequence[FileJob],
    on_retry: Callable[[list[FileJob]], None] = lambda jobs: None,
) -> Generator[tuple[FileResult, int], None, None]:
    """(result, attempts) for every job: DONE and BAD_INPUT as they come; ERROR ones are run
    once more (`on_retry` is told which, first), and their second result is final."""
    by_index = {job.index: job for job in jobs}
    pending = list(jobs)
    for attempt in range(1, ATTEMPTS + 1):
        failed: list[FileJob] = []
        for result in backend.run(pending):
            if result.outcome is FileOutcome.ERROR and attempt < ATTEMPTS:
                failed.append(by_index[result.index])
            else:
                yield result, attempt
        if not failed:
            return
        on_retry(failed)
        pending = failed
