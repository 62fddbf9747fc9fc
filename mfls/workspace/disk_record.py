"""`DiskRecord`: the workspace's reads and listings through its `Disk`, and the problems
they met.

Every file and folder the workspace skipped is kept here as data (`DiskProblem`), each
logged once when met: by the walks of the last indexing or re-listing (per walked root)
and by the latest read of each file. A read may record its problem in a record of the
caller's (`into`) instead, which the caller applies later or drops (a cold indexing, an
edit basis computed on the worker). The lock is the workspace's.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterable

from mfls import disk
from mfls.disk import Disk, DiskProblem, Listing, printable
from mfls.disk.problems import LIMIT
from mfls.workspace import course_creator
from mfls.workspace.config import COURSE_FILE, ConfigProblem
from mfls.workspace.index import relative_path

log = logging.getLogger("mfls")

_AT_START = (0, 0, 0, 0)
ReadProblems = dict[str, DiskProblem]
"""path -> the problem of its latest read (a read that went well removes it)."""


class DiskRecord:
    def __init__(
        self, disk: Disk, lock: threading.RLock, max_file_bytes: int, max_documents: int
    ) -> None:
        self.disk = disk
        self.max_file_bytes = max_file_bytes
        self.max_documents = max_documents
        self._lock = lock
        self._walks: dict[str, tuple[DiskProblem, ...]] = {}
        self._reads: ReadProblems = {}

    def read(self, path: str, root: str | None, into: ReadProblems | None = None) -> str | None:
        """The text of `path`, or None with its problem logged and kept (in `into`, or in
        this record)."""
        text, problems = self.disk.read_text(path, root, self.max_file_bytes)
        for problem in problems:
            log.warning("skipped %s: %s", problem.path, problem.reason)
        with self._lock:
            kept(self._reads if into is None else into, path, problems)
        return text

    def list(self, root: str) -> Listing:
        """Walk `root`; its problems are logged and replace those of its previous walk."""
        listing, problems = self.disk.walk(
            root, self.max_documents, landmarks=(COURSE_FILE, *course_creator.LANDMARKS)
        )
        for problem in problems:
            log.warning("skipped %s: %s", problem.path, problem.reason)
        with self._lock:
            self._walks[root] = problems
        return listing

    @property
    def problems(self) -> tuple[DiskProblem, ...]:
        """The files and folders skipped as things stand, walks first."""
        with self._lock:
            walked = [p for found in self._walks.values() for p in found]
            read = list(self._reads.values())
        return tuple(dict.fromkeys(walked + read))

    def problems_with(self, reads: ReadProblems, read: Iterable[str]) -> tuple[DiskProblem, ...]:
        """`problems` as they would be with `apply_reads(reads, read)`."""
        with self._lock:
            walked = [p for found in self._walks.values() for p in found]
            now = dict(self._reads)
        for path in read:
            kept(now, path, (reads[path],) if path in reads else ())
        return tuple(dict.fromkeys(walked + list(now.values())))

    def problems_of(self, root: str) -> tuple[DiskProblem, ...]:
        """`problems` of paths under `root` (nested courses included)."""
        return tuple(p for p in self.problems if disk.inside(p.path, root))

    def forget(self, path: str) -> None:
        """Forget the problems met at or under `path` (it was deleted)."""
        with self._lock:
            for known in [p for p in self._reads if disk.inside(p, path)]:
                del self._reads[known]
            for walked in [r for r in self._walks if disk.inside(r, path)]:
                del self._walks[walked]

    def forget_read(self, path: str) -> None:
        with self._lock:
            self._reads.pop(path, None)

    def start_walks(self) -> None:
        """A new indexing walks every folder again: the old walks' problems go."""
        with self._lock:
            self._walks = {}

    def take_reads(self, reads: ReadProblems, roots: Iterable[str]) -> None:
        """After a cold indexing: its `reads` replace every kept read problem but those of
        the course files of `roots` (read while planning)."""
        wanted = {os.path.join(root, COURSE_FILE) for root in roots}
        with self._lock:
            course_files = {p: found for p, found in self._reads.items() if p in wanted}
            self._reads = {**course_files, **reads}

    def apply_reads(self, reads: ReadProblems, read: Iterable[str]) -> None:
        """Keep what reads made elsewhere found: `reads` for each path of `read`."""
        with self._lock:
            for path in read:
                kept(self._reads, path, (reads[path],) if path in reads else ())

    def limit_problems(
        self, root: str, owner: Callable[[str], str | None]
    ) -> tuple[ConfigProblem, ...]:
        """The limits the course at `root` is over, as problems of its course file: a
        listing of its root, or of a folder holding it, stopped at the document limit; a
        member (whose course `owner` tells) left out over the size limit. The caller
        holds the lock."""
        found: list[ConfigProblem] = []
        for walked, problems in self._walks.items():
            if disk.inside(root, walked):
                limit = {"limit": str(self.max_documents)}
                found += [
                    ConfigProblem.of("config.document-limit", limit, _AT_START)
                    for problem in problems
                    if problem.kind == LIMIT
                ]
        for path, problem in self._reads.items():
            if problem.kind == LIMIT and owner(path) == root:
                arguments = {
                    "path": printable(relative_path(path, root)),
                    "limit": str(self.max_file_bytes),
                }
                found.append(ConfigProblem.of("config.file-limit", arguments, _AT_START))
        return tuple(found)


def kept(record: ReadProblems, path: str, problems: tuple[DiskProblem, ...]) -> None:
    """Keep the first of a read's `problems` for `path`, or forget its old one."""
    if problems:
        record[path] = problems[0]
    else:
        record.pop(path, None)
