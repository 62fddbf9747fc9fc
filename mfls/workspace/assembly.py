"""Snapshot assembly, pure: a new `WorkspaceSnapshot` from the course plans, the documents
read from disk, the open buffers and the previous snapshot.

Nothing here reads a file or holds a lock: what needs the disk (the course an open
document outside every plan belongs to, the limits a course is over) is found by the
caller and given. Unchanged courses and entries are the previous snapshot's own objects,
so a feature's per-course memo survives an assembly that did not touch its course.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from mfls.workspace.config import ConfigProblem, CourseConfig
from mfls.workspace.hosts import host_profile
from mfls.workspace.index import (
    CourseSnapshot,
    DocEntry,
    ScannedDocument,
    WorkspaceSnapshot,
    build_course,
    remove_document,
    replace_document,
    with_course,
)
from mfls.workspace.open_buffers import OpenBuffer
from mfls.workspace.planning import CoursePlan
from mfls.workspace.uris import uri_to_path


def entry(
    uri: str,
    document: ScannedDocument,
    version: int | None,
    is_open: bool,
    plan: CoursePlan | None,
) -> DocEntry:
    """The index entry of `document` in the course of `plan` (None: a course of its own)."""
    path = uri_to_path(uri)
    if plan is None or path is None:
        return DocEntry(uri, path, version, document, "lesson", 0, is_open)
    member = plan.members.get(uri)
    kind, order = (member[1], member[2]) if member else plan.classify(path)
    target = plan.config.runtime_target
    return DocEntry(uri, path, version, document, kind, order, is_open, target)


def empty_course(course_id: str, root: str | None, plan: CoursePlan | None) -> CourseSnapshot:
    config = plan.config if plan is not None else CourseConfig()
    problems = plan.problems if plan is not None else ()
    profile = host_profile(config.host, config.system_keys)
    return build_course(course_id, root, config, profile, (), problems)


def put(
    snapshot: WorkspaceSnapshot,
    uri: str,
    document: ScannedDocument,
    version: int | None,
    is_open: bool,
    root: str | None,
    plan: CoursePlan | None,
) -> WorkspaceSnapshot:
    """`snapshot` with `document` indexed under `uri`: in its course, or (in none yet) in
    the course at `root` (None: a course of its own); `plan` is that course's plan."""
    course = snapshot.course_for(uri)
    if course is None:
        course_id = root if root is not None else uri
        course = snapshot.courses.get(course_id) or empty_course(course_id, root, plan)
    added = () if uri in course.docs else (uri,)
    indexed = entry(uri, document, version, is_open, plan)
    return with_course(snapshot, replace_document(course, indexed), course.id, added=added)


def drop(snapshot: WorkspaceSnapshot, uri: str) -> WorkspaceSnapshot:
    """`snapshot` without `uri` (a course of no root left empty goes too)."""
    course = snapshot.course_for(uri)
    if course is None:
        return snapshot
    updated: CourseSnapshot | None = remove_document(course, uri)
    if updated is not None and updated.root is None and not updated.docs:
        updated = None
    return with_course(snapshot, updated, course.id, removed=(uri,))


def disk_documents(snapshot: WorkspaceSnapshot) -> dict[str, ScannedDocument]:
    """The documents of `snapshot` read from disk (not open), by URI."""
    found: dict[str, ScannedDocument] = {}
    for course in snapshot.courses.values():
        for uri, each in course.docs.items():
            if not each.is_open:
                found[uri] = each.document
    return found


def assemble(
    old: WorkspaceSnapshot,
    plans: Mapping[str, CoursePlan],
    on_disk: Mapping[str, ScannedDocument],
    buffers: Mapping[str, OpenBuffer],
    owners: Mapping[str, str | None],
    limits: Mapping[str, tuple[ConfigProblem, ...]],
) -> WorkspaceSnapshot:
    """The snapshot of `plans`, filled from the open `buffers` and the `on_disk`
    documents; an open document no plan lists goes to the course its `owners` entry
    names (None: its own), whose plan `plans` holds. `limits`: the limit problems per
    course root."""
    grouped: dict[str, tuple[str | None, list[DocEntry]]] = {}
    placed: set[str] = set()
    for root, plan in plans.items():
        entries: list[DocEntry] = []
        target = plan.config.runtime_target
        for uri, (path, kind, order) in plan.members.items():
            opened = buffers.get(uri)
            if opened is not None:
                document: ScannedDocument = opened.document
                entries.append(
                    DocEntry(uri, path, opened.version, document, kind, order, True, target)
                )
            elif uri in on_disk:
                entries.append(DocEntry(uri, path, None, on_disk[uri], kind, order, False, target))
            else:
                continue
            placed.add(uri)
        grouped[root] = (root, entries)
    for uri, buffer in buffers.items():
        if uri in placed:
            continue
        owner = owners.get(uri)
        course_id = owner if owner is not None else uri
        owner_plan = plans.get(owner) if owner is not None else None
        opened_entry = entry(uri, buffer.document, buffer.version, True, owner_plan)
        grouped.setdefault(course_id, (owner, []))[1].append(opened_entry)
    courses: dict[str, CourseSnapshot] = {}
    course_of: dict[str, str] = {}
    for course_id, (course_root, found) in grouped.items():
        known = plans.get(course_root) if course_root is not None else None
        config = known.config if known is not None else CourseConfig()
        problems = known.problems if known is not None else ()
        if course_root is not None:
            problems += limits.get(course_root, ())
        previous = old.courses.get(course_id)
        entries = [_same_or(previous, e) for e in found]
        if previous is not None and _unchanged(previous, entries, config, problems):
            course = previous
        else:
            profile = host_profile(config.host, config.system_keys)
            course = build_course(course_id, course_root, config, profile, entries, problems)
        courses[course_id] = course
        for each in entries:
            course_of[each.uri] = course_id
    return WorkspaceSnapshot(
        MappingProxyType(courses), MappingProxyType(course_of), old.generation + 1
    )


def _same_or(previous: CourseSnapshot | None, entry: DocEntry) -> DocEntry:
    """Reuse the previous entry object when nothing about the document changed."""
    old = previous.docs.get(entry.uri) if previous is not None else None
    return old if old is not None and old == entry else entry


def _unchanged(
    previous: CourseSnapshot | None,
    entries: list[DocEntry],
    config: CourseConfig,
    problems: tuple[ConfigProblem, ...],
) -> bool:
    """True when `previous` already holds exactly these entries under this configuration."""
    if previous is None or previous.config != config or previous.problems != problems:
        return False
    if len(previous.docs) != len(entries):
        return False
    return all(previous.docs.get(e.uri) is e for e in entries)
