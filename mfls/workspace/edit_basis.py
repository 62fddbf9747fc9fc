"""The edit basis: what an edit of closed documents (a rename, a course-wide code action)
is computed from, read again from disk, changing nothing.

`EditBasis.snapshot` is the workspace snapshot with the asked-for closed documents as the
disk holds them now; the live snapshot is not touched: the documents read again travel
as `DiskCopies`, an effect the caller (the server's event loop) hands to
`Workspace.take_disk_copies`, which applies each one still current. Computed on the
server's worker by a DISK handler (`mfls.lsp.files`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from typing import NamedTuple

from mfls import disk
from mfls.disk import Disk, DiskProblem
from mfls.workspace import assembly
from mfls.workspace.disk_record import DiskRecord, ReadProblems
from mfls.workspace.index import CourseSnapshot, DocEntry, ScannedDocument, WorkspaceSnapshot
from mfls.workspace.planning import CoursePlan
from mfls.workspace.scanning import Scanner

log = logging.getLogger("mfls")


class DiskCopies(NamedTuple):
    """Closed documents read again: `paths`, the file read for each URI; `before`, the
    text the index held for each (None: not indexed) when it was read; `documents`, those
    whose text changed (None: no longer usable), to index in its place; `problems`, the
    problems of those reads. A URI's copy and its read's problem are applied together,
    only while the index still holds its `before` text."""

    documents: Mapping[str, ScannedDocument | None]
    before: Mapping[str, str | None]
    problems: ReadProblems
    paths: Mapping[str, str]


NO_COPIES = DiskCopies({}, {}, {}, {})


class EditBasis(NamedTuple):
    """What an edit of closed documents is computed from (`Workspace.edit_basis`).

    `snapshot` holds the asked-for closed documents as the disk holds them now;
    `unusable` the members of the course that could not be read, listed or decoded (an
    edit of the whole course must refuse); `aliases` the URIs that name a file another
    asked-for URI already names (through a link): their edits must be left out;
    `copies` what was read, for the live index (`Workspace.take_disk_copies`)."""

    snapshot: WorkspaceSnapshot
    unusable: tuple[DiskProblem, ...]
    aliases: frozenset[str]
    copies: DiskCopies = NO_COPIES


def member_problems(
    problems: Iterable[DiskProblem], nested: Iterable[str]
) -> tuple[DiskProblem, ...]:
    """The `problems` of course members (unreadable, unlistable or undecodable), not of
    links out of the root, loops, vanished files or files of the `nested` courses."""
    inner = tuple(nested)
    return tuple(p for p in problems if p.member and not any(disk.inside(p.path, n) for n in inner))


class Sources(NamedTuple):
    """What the edit basis reads from: the workspace's pieces, taken on the worker."""

    snapshot: WorkspaceSnapshot
    plan: CoursePlan | None
    unsettled: list[str]  # URIs of members the editor reported changed, not handled yet
    record: DiskRecord
    scanner: Scanner
    nested: Callable[[str], list[str]]  # the course roots nested in a root


def edit_basis(sources: Sources, course_id: str, uris: Iterable[str]) -> EditBasis:
    """Read again, through the disk, each closed document of `uris` in the course
    `course_id`: a text that changed since it was indexed is indexed again in the
    returned snapshot (one that can no longer be used is dropped, its problem kept), so
    an edit computed from it fits the bytes on disk. Only these documents are read, and
    the members the editor reported changed that the worker has not handled yet."""
    snapshot, plan = sources.snapshot, sources.plan
    course = snapshot.courses.get(course_id)
    if course is None:
        return EditBasis(snapshot, (), frozenset())
    wanted = list(dict.fromkeys(uris))
    members = plan.members if plan is not None else {}
    reads: ReadProblems = {}
    paths: dict[str, str] = {}
    documents: dict[str, ScannedDocument | None] = {}
    before: dict[str, str | None] = {}
    for uri in wanted + [u for u in sources.unsettled if u in members and u not in wanted]:
        entry = course.docs.get(uri)
        if entry is not None and entry.is_open:
            continue
        path = entry.path if entry is not None else members[uri][0] if uri in members else None
        if path is None:
            continue
        text = sources.record.read(path, course.root, reads)
        paths[uri] = path
        old = before[uri] = entry.text if entry is not None else None
        if text != old:
            documents[uri] = None if text is None else sources.scanner.one(text)
    for uri, document in documents.items():
        if document is None:
            snapshot = assembly.drop(snapshot, uri)
        else:
            snapshot = assembly.put(snapshot, uri, document, None, False, course.root, plan)
    if documents:
        log.info("read again %d documents changed on disk", len(documents))
    unusable: tuple[DiskProblem, ...] = ()
    if course.root is not None:
        found = sources.record.problems_with(reads, paths.values())
        in_course = [p for p in found if disk.inside(p.path, course.root)]
        unusable = member_problems(in_course, sources.nested(course.root))
    fresh = snapshot.courses.get(course_id)
    wanted += [u for u in documents if u not in wanted]
    disk_of = sources.record.disk
    aliases = _aliases(fresh, wanted, disk_of) if fresh is not None else frozenset()
    copies = DiskCopies(documents, before, reads, paths)
    return EditBasis(snapshot, unusable, aliases, copies)


def _aliases(course: CourseSnapshot, uris: Iterable[str], files: Disk) -> frozenset[str]:
    """The URIs of `uris` naming a file an earlier-chosen one names: per file, an open
    document wins, then the file's own (resolved) name, then the first in course
    order."""
    by_file: dict[str, list[DocEntry]] = {}
    for uri in uris:
        entry = course.docs.get(uri)
        if entry is not None and entry.path is not None:
            by_file.setdefault(files.real_path(entry.path), []).append(entry)
    aliases: set[str] = set()
    for real, entries in by_file.items():
        if len(entries) < 2:
            continue
        keep = min(entries, key=lambda e: (not e.is_open, e.path != real, e.order, e.uri))
        aliases.update(e.uri for e in entries if e is not keep)
    return frozenset(aliases)
