"""Renaming a key in a course's files: plan the edit from disk, render it as a diff,
and turn it into all-or-nothing file changes (`mfls rename` runs these)."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from mfls.features import rename as rn
from mfls.features.refusal import Refusal
from mfls.refactor.atomic import FileChange
from mfls.refactor.diff import diff_of_changes
from mfls.refactor.text_edits import apply_changes
from mfls.syntax.keys import NOT_UTF8, check_new_key
from mfls.syntax.model import ScanResult
from mfls.syntax.scanner import scan
from mfls.workspace.index import CourseSnapshot, relative_path


class RenameFailed(Exception):
    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


class _Skipped(logging.Handler):
    """Collects the files the workspace skips while indexing (its "skipped PATH" lines)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.paths: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if str(record.msg).startswith("skipped %s") and record.args:
            args = record.args if isinstance(record.args, tuple) else (record.args,)
            self.paths.append(str(args[0]))


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


def load_course(
    directory: str, keys: tuple[str, ...] | None = None
) -> tuple[CourseSnapshot, list[str]]:
    """Index the course at `directory`; also return the files that could not be read.

    With `keys`, only documents holding one of them are scanned (`KeyFilteredDocument`).
    """
    from mfls.workspace.workspace import Workspace

    root = os.path.abspath(directory)
    if not os.path.isdir(root):
        raise RenameFailed(f"{directory} is not a folder", status=2)
    collector = _Skipped()
    logger = logging.getLogger("mfls")
    logger.addHandler(collector)
    try:
        if keys is None:
            workspace = Workspace()
        else:
            wanted = keys
            workspace = Workspace(
                document_factory=lambda text, version: KeyFilteredDocument(text, wanted)
            )
        workspace.set_folders([root])
        workspace.index_all()
    finally:
        logger.removeHandler(collector)
    course = workspace.snapshot.courses.get(root)
    if course is None:
        raise RenameFailed(f"{directory} holds no MarkdownFlow documents", status=1)
    return course, collector.paths


def relative_name(path: str | None, root: str | None, uri: str) -> str:
    if path is None:
        return uri
    if root is not None:
        return relative_path(path, root)
    return path


def plan_rename(directory: str, old: str, new: str) -> tuple[CourseSnapshot, rn.WorkspaceChange]:
    """The validated rename of `old` to `new` in the course at `directory`."""
    old_key, problem = check_new_key(old)
    if problem == NOT_UTF8:
        raise RenameFailed("OLD is not valid UTF-8 text, so no marker can hold it", status=2)
    if old_key is None:
        raise RenameFailed(f"OLD is not a key a marker can hold ({problem})", status=2)
    new_key, _ = check_new_key(new)
    keys = (old_key,) if new_key is None else (old_key, new_key)
    course, skipped = load_course(directory, keys)
    change = rn.rename_key(course, old_key, new)
    if isinstance(change, Refusal):
        raise RenameFailed(change.message)
    needle = old_key.encode("utf-8")
    unsafe = [p for p in skipped if _holds(p, needle)]
    if unsafe:
        raise RenameFailed(
            "these course files could not be read but may use the key, so renaming would "
            "leave the course half-renamed: " + ", ".join(unsafe)
        )
    return course, change


def _holds(path: str, needle: bytes) -> bool:
    try:
        return needle in Path(path).read_bytes()
    except OSError:
        return False


def render_diff(course: CourseSnapshot, change: rn.WorkspaceChange) -> str:
    parts = []
    for doc in change.documents:
        label = relative_name(doc.path, course.root, doc.uri)
        parts.append(diff_of_changes(label, doc.text, doc.changes))
    return "".join(parts)


def file_changes(change: rn.WorkspaceChange) -> list[FileChange]:
    changes = []
    for doc in change.documents:
        if doc.path is None:
            raise RenameFailed(f"{doc.uri} is not a local file", status=2)
        new_text = apply_changes(doc.text, doc.changes)
        changes.append(
            FileChange(Path(doc.path), doc.text.encode("utf-8"), new_text.encode("utf-8"))
        )
    return changes
