"""Loading one course folder in one go (from disk, or from another `Disk`), for the
command line.

`load_course` indexes a course folder and returns it with the files the workspace
skipped (as `DiskProblem`s); `unusable_members` tells which of those belong to the
course (so a rename must refuse), `skipped_holding` which may use a key.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

from mfls.disk import REAL_DISK, Disk, DiskProblem
from mfls.disk.reading import inside, real_path
from mfls.syntax.model import ScanResult
from mfls.syntax.scanner import scan
from mfls.workspace.index import CourseSnapshot
from mfls.workspace.workspace import Workspace, member_problems


class KeyFilteredDocument:
    """A document scanned only when its text holds one of the keys of interest.

    A marker's key is one contiguous run of its source text, so a document that does not
    contain a key's text has no marker of that key: the rename and its conflict check
    read the same markers as a full scan, without scanning the rest of the course."""

    __slots__ = ("_result", "keys", "text")

    def __init__(self, text: str, keys: tuple[str, ...]) -> None:
        self.text = text
        self.keys = keys
        self._result: ScanResult | None = None

    def result(self) -> ScanResult:
        if self._result is None:
            if any(key in self.text for key in self.keys):
                self._result = scan(self.text)
            else:
                self._result = ScanResult()
        return self._result

    def edited(
        self, start: int, end: int, new_text: str, version: int | None = None
    ) -> KeyFilteredDocument:
        return KeyFilteredDocument(self.text[:start] + new_text + self.text[end:], self.keys)


@dataclass(frozen=True, slots=True)
class CourseLoad:
    """A course folder as loaded: `course` is None when `directory` is no folder
    (`is_folder` False); `problems` are the paths skipped while indexing it; `nested`
    the roots of the courses inside it (their files are not its members)."""

    directory: str
    course: CourseSnapshot | None
    problems: tuple[DiskProblem, ...]
    is_folder: bool = True
    nested: tuple[str, ...] = ()


def load_course(
    directory: str, keys: tuple[str, ...] | None = None, disk: Disk = REAL_DISK
) -> CourseLoad:
    """Index the course at `directory` (its folder as the one workspace folder).

    With `keys`, only documents holding one of them are scanned (`KeyFilteredDocument`).
    """
    root = os.path.abspath(directory)
    if not disk.is_directory(root):
        return CourseLoad(directory, None, (), is_folder=False)
    if keys is None:
        workspace = Workspace(disk=disk)
    else:
        wanted = keys
        workspace = Workspace(
            document_factory=lambda text, version: KeyFilteredDocument(text, wanted), disk=disk
        )
    workspace.set_folders([root])
    workspace.index_all()
    nested = tuple(
        other.root
        for other in workspace.snapshot.courses.values()
        if other.root is not None and other.root != root and inside(other.root, root)
    )
    return CourseLoad(
        directory, workspace.snapshot.courses.get(root), workspace.disk_problems, nested=nested
    )


def unusable_members(loaded: CourseLoad) -> tuple[DiskProblem, ...]:
    """The skipped files and folders that belong to the course: ones that could not be
    read, listed or decoded, not links out of its root, loops, vanished files, or the
    files of a course nested in it."""
    return member_problems(loaded.problems, loaded.nested)


def real_paths(paths: Iterable[str]) -> dict[str, str]:
    """Each of `paths` with every link resolved on the real disk (what a rename writes,
    and where)."""
    return {path: real_path(path) for path in paths}


def skipped_holding(
    problems: tuple[DiskProblem, ...], needle: bytes, disk: Disk = REAL_DISK
) -> tuple[str, ...]:
    """The skipped files whose bytes hold `needle` (files that cannot be read at all, and
    folders, count as not holding it)."""
    return tuple(dict.fromkeys(p.path for p in problems if disk.contains(p.path, needle)))
