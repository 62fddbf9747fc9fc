"""The rename records a host reads to move stored answers: building them, as data.

mfls renames keys in a course's files; answers a host stored under the old key stay
there. Every completed rename appends one `record_line` to `COURSE/.mfls/renames.jsonl`
(written by `mfls.disk.append_line`; the format is in docs/guide/diagnostics.md,
"Renames and stored answers"). This module is pure: identity and time are given by the caller.

`PendingRenames` keeps the editor's renames until every document the rename touched is
seen holding its new text (the server cannot know whether the client applied the edit).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

RECORD_DIRECTORY = ".mfls"
RECORD_NAME = "renames.jsonl"
SCHEMA = "mfls-rename-record"
SCHEMA_VERSION = 1

RENAME = "rename"
UNDO = "undo"  # an interrupted rename rolled back by `mfls rename --undo`
WRITTEN = "written"  # the tool wrote the files itself and checked them
OBSERVED = "observed"  # the server saw every touched document hold the new text
CLI_TOOL = "mfls rename"
SERVER_TOOL = "mfls server"
MAX_PENDING = 32


def records_path(course_root: str) -> str:
    return os.path.join(course_root, RECORD_DIRECTORY, RECORD_NAME)


def sha256_text(text: str) -> str:
    """The hash a record gives a document's content: SHA-256 of its UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def utc_time(moment: datetime.datetime) -> str:
    """ISO 8601 in UTC to the second, with a `Z`."""
    utc = moment.astimezone(datetime.timezone.utc).replace(microsecond=0, tzinfo=None)
    return utc.isoformat() + "Z"


def relative_file(path: str, root: str) -> str:
    """`path` relative to `root`, with `/` separators (the form a record holds)."""
    return os.path.relpath(path, root).replace(os.sep, "/")


@dataclass(frozen=True, slots=True)
class RecordFile:
    """One file of a rename: its path relative to the course root and the SHA-256 of
    its content before and after."""

    path: str
    sha256_before: str
    sha256_after: str


@dataclass(frozen=True, slots=True)
class RenameRecord:
    record_id: str
    course_root: str
    course_name: str | None
    old_key: str
    new_key: str
    time: str
    files: tuple[RecordFile, ...]
    tool: str
    tool_version: str
    action: str = RENAME
    applied: str = WRITTEN

    def to_json(self) -> dict[str, object]:
        return {
            "schema": SCHEMA,
            "version": SCHEMA_VERSION,
            "id": self.record_id,
            "action": self.action,
            "course": {"root": self.course_root, "name": self.course_name},
            "old_key": self.old_key,
            "new_key": self.new_key,
            "time": self.time,
            "files": [
                {"path": f.path, "sha256_before": f.sha256_before, "sha256_after": f.sha256_after}
                for f in self.files
            ],
            "tool": {"name": self.tool, "version": self.tool_version},
            "applied": self.applied,
        }


def record_line(record: RenameRecord) -> str:
    """The record as one JSON line (no line break inside: JSON escapes them)."""
    return json.dumps(record.to_json(), ensure_ascii=False, sort_keys=False) + "\n"


# ----- the editor's renames, until they are seen applied -------------------------


@dataclass(frozen=True, slots=True)
class PendingFile:
    uri: str
    path: str
    before: str  # SHA-256 of the text the edit was computed from
    expected: str  # the text the document holds once the edit is applied
    seen: bool = False


@dataclass(frozen=True, slots=True)
class PendingRename:
    """A rename the server answered; `record` lacks only the time it is seen applied."""

    record: RenameRecord
    files: tuple[PendingFile, ...]

    def observed(self, text_of: Callable[[str], str | None]) -> PendingRename:
        files = tuple(
            f if f.seen or text_of(f.uri) != f.expected else replace(f, seen=True)
            for f in self.files
        )
        return self if files == self.files else PendingRename(self.record, files)

    @property
    def applied(self) -> bool:
        return all(f.seen for f in self.files)


@dataclass(frozen=True, slots=True)
class PendingRenames:
    """The editor's renames not yet seen applied, oldest first (at most `MAX_PENDING`)."""

    waiting: tuple[PendingRename, ...] = ()

    def added(self, pending: PendingRename, *, once: bool = False) -> PendingRenames:
        """`pending` added last. `once`: a rename offered again (a quick fix asked for
        anew) replaces the one waiting for the same edit, so that applying it writes
        one record."""
        kept = self.waiting
        if once:
            same = _same_edit(pending)
            kept = tuple(p for p in kept if _same_edit(p) != same)
        return PendingRenames((*kept, pending)[-MAX_PENDING:])

    def observed(
        self, text_of: Callable[[str], str | None], now: str
    ) -> tuple[PendingRenames, list[RenameRecord]]:
        """The renames still waiting, and the records of those now seen applied."""
        waiting: list[PendingRename] = []
        done: list[RenameRecord] = []
        for pending in self.waiting:
            seen = pending.observed(text_of)
            if seen.applied:
                done.append(replace(seen.record, time=now))
            else:
                waiting.append(seen)
        return PendingRenames(tuple(waiting)), done


def _same_edit(pending: PendingRename) -> tuple[object, ...]:
    record = pending.record
    files = tuple((f.uri, f.before, f.expected) for f in pending.files)
    return (record.course_root, record.old_key, record.new_key, files)


def pending_files(
    documents: Sequence[tuple[str, str, str, str]], root: str
) -> tuple[PendingFile, ...]:
    """(uri, path, text before, text after) per document, as pending files; the record's
    files are made from them (`pending_record_files`)."""
    return tuple(
        PendingFile(uri, relative_file(path, root), sha256_text(before), after)
        for uri, path, before, after in documents
    )


def pending_record_files(files: Sequence[PendingFile]) -> tuple[RecordFile, ...]:
    return tuple(RecordFile(f.path, f.before, sha256_text(f.expected)) for f in files)
