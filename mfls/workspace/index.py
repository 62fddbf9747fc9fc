"""The immutable index: `WorkspaceSnapshot` -> `CourseSnapshot` -> `DocEntry`.

Snapshots are never changed after construction; an update builds a new one that shares
every unchanged course, document and key list with the old one. Each record names its
source document (uri, path) and the document version it was read from.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, Protocol, TypeVar

from mfls.syntax.model import Marker, Role, ScanResult
from mfls.workspace.config import COURSE_FILE, ConfigProblem, CourseConfig
from mfls.workspace.hosts import HostProfile
from mfls.workspace.uris import canonical_uri

DocKind = Literal["lesson", "reference"]
T = TypeVar("T")


class ScannedDocument(Protocol):
    """What the index needs of `mfls.syntax.document.Document`."""

    @property
    def text(self) -> str: ...

    def result(self) -> ScanResult: ...


@dataclass(frozen=True)
class DocEntry:
    uri: str
    path: str | None
    version: int | None
    document: ScannedDocument
    kind: DocKind
    order: int
    is_open: bool = False

    @property
    def text(self) -> str:
        return self.document.text

    @property
    def result(self) -> ScanResult:
        return self.document.result()

    @property
    def label(self) -> str:
        """A short name for messages: the file name, or the URI's last segment."""
        if self.path is not None:
            return os.path.basename(self.path)
        return self.uri.rsplit("/", 1)[-1] or self.uri


@dataclass(frozen=True, slots=True)
class Occurrence:
    uri: str
    version: int | None
    marker: Marker


class DerivedCache:
    """Values computed lazily from one course snapshot, each at most once.

    A value may be derived from the same value of an earlier snapshot of the course plus
    the keys that changed since (None: anything may have changed). Only one earlier
    cache is ever linked, so old snapshots are not kept alive in a chain.
    """

    def __init__(
        self, previous: DerivedCache | None = None, changed: frozenset[str] | None = None
    ) -> None:
        self._values: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._previous = previous
        self._changed = changed

    def following(self, changed: frozenset[str] | None) -> DerivedCache:
        """A cache for the next snapshot, where the `changed` keys differ from this one's."""
        with self._lock:
            if self._values:
                self._previous = None
                self._changed = None
                return DerivedCache(self, changed)
            previous, before = self._previous, self._changed
        if previous is None or before is None or changed is None:
            return DerivedCache()
        return DerivedCache(previous, before | changed)

    def get(self, name: str, build: Callable[[T | None, frozenset[str] | None], T]) -> T:
        """The value `name`; `build(previous_value, changed_keys)` makes it when missing."""
        with self._lock:
            if name in self._values:
                return self._values[name]
            previous = self._previous
            changed = self._changed
        earlier = None
        if previous is not None and changed is not None:
            with previous._lock:
                earlier = previous._values.get(name)
        value = build(earlier, changed if earlier is not None else None)
        with self._lock:
            return self._values.setdefault(name, value)


def _frozen(mapping: dict[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(mapping)


@dataclass(frozen=True)
class CourseSnapshot:
    id: str
    root: str | None
    config: CourseConfig
    host: HostProfile
    docs: Mapping[str, DocEntry]
    bindings: Mapping[str, tuple[Occurrence, ...]]
    references: Mapping[str, tuple[Occurrence, ...]]
    problems: tuple[ConfigProblem, ...] = ()
    cache: DerivedCache = field(default_factory=DerivedCache, compare=False, repr=False)

    @property
    def name(self) -> str:
        if self.config.name:
            return self.config.name
        if self.root is not None:
            return os.path.basename(self.root.rstrip(os.sep)) or self.root
        return self.id.rsplit("/", 1)[-1]

    @property
    def config_path(self) -> str | None:
        return None if self.root is None else os.path.join(self.root, COURSE_FILE)

    def occurrences(self, key: str) -> tuple[Occurrence, ...]:
        return self.bindings.get(key, ()) + self.references.get(key, ())

    def lesson_bindings(self, key: str) -> tuple[Occurrence, ...]:
        """Bindings in lesson documents: the only ones that declare an answer."""
        return tuple(o for o in self.bindings.get(key, ()) if self.docs[o.uri].kind == "lesson")

    def position(self, occurrence: Occurrence) -> tuple[int, int]:
        """Course order: (document order, offset)."""
        return self.docs[occurrence.uri].order, occurrence.marker.start

    def all_keys(self) -> Iterable[str]:
        yield from self.bindings
        for key in self.references:
            if key not in self.bindings:
                yield key


@dataclass(frozen=True)
class WorkspaceSnapshot:
    courses: Mapping[str, CourseSnapshot]
    course_of: Mapping[str, str]
    generation: int = 0

    @staticmethod
    def empty() -> WorkspaceSnapshot:
        return WorkspaceSnapshot(_frozen({}), _frozen({}), 0)

    def course_for(self, uri: str) -> CourseSnapshot | None:
        course_id = self.course_of.get(uri)
        if course_id is None:
            course_id = self.course_of.get(canonical_uri(uri))
        return None if course_id is None else self.courses.get(course_id)

    def entry(self, uri: str) -> tuple[CourseSnapshot, DocEntry] | None:
        course = self.course_for(uri)
        if course is None:
            return None
        entry = course.docs.get(uri) or course.docs.get(canonical_uri(uri))
        return None if entry is None else (course, entry)


def _document_occurrences(
    entry: DocEntry,
) -> tuple[dict[str, list[Occurrence]], dict[str, list[Occurrence]]]:
    bindings: dict[str, list[Occurrence]] = {}
    references: dict[str, list[Occurrence]] = {}
    for marker in entry.result.markers:
        target = bindings if marker.role is Role.BINDING else references
        target.setdefault(marker.key, []).append(Occurrence(entry.uri, entry.version, marker))
    return bindings, references


def build_course(
    course_id: str,
    root: str | None,
    config: CourseConfig,
    host: HostProfile,
    entries: Iterable[DocEntry],
    problems: Iterable[ConfigProblem] = (),
) -> CourseSnapshot:
    """A course built from all its documents (entries in any order)."""
    docs = {entry.uri: entry for entry in entries}
    bindings: dict[str, list[Occurrence]] = {}
    references: dict[str, list[Occurrence]] = {}
    for entry in sorted(docs.values(), key=lambda e: e.order):
        doc_bindings, doc_references = _document_occurrences(entry)
        for source, target in ((doc_bindings, bindings), (doc_references, references)):
            for key, found in source.items():
                target.setdefault(key, []).extend(found)
    return CourseSnapshot(
        course_id,
        root,
        config,
        host,
        _frozen(docs),
        _frozen({k: tuple(v) for k, v in bindings.items()}),
        _frozen({k: tuple(v) for k, v in references.items()}),
        tuple(problems),
    )


def _merge(
    current: Mapping[str, tuple[Occurrence, ...]],
    uri: str,
    added: dict[str, list[Occurrence]],
    keys: set[str],
    order_of: Callable[[str], int],
) -> Mapping[str, tuple[Occurrence, ...]]:
    merged = dict(current)
    for key in keys:
        kept = [o for o in current.get(key, ()) if o.uri != uri]
        new = added.get(key, [])
        if not kept:
            combined = new
        elif not new:
            combined = kept
        else:
            combined = sorted(kept + new, key=lambda o: (order_of(o.uri), o.marker.start))
        if combined:
            merged[key] = tuple(combined)
        else:
            merged.pop(key, None)
    return _frozen(merged)


def replace_document(course: CourseSnapshot, entry: DocEntry) -> CourseSnapshot:
    """The course with `entry` added or replacing the document of the same URI.

    Only the keys of the old and new document are touched; other key lists are shared.
    """
    old = course.docs.get(entry.uri)
    old_bindings, old_references = _document_occurrences(old) if old is not None else ({}, {})
    new_bindings, new_references = _document_occurrences(entry)
    docs = dict(course.docs)
    docs[entry.uri] = entry

    def order_of(uri: str) -> int:
        return docs[uri].order

    binding_keys = set(old_bindings) | set(new_bindings)
    reference_keys = set(old_references) | set(new_references)
    bindings = _merge(course.bindings, entry.uri, new_bindings, binding_keys, order_of)
    references = _merge(course.references, entry.uri, new_references, reference_keys, order_of)
    changed = frozenset(binding_keys | reference_keys)
    if old is not None and old.kind != entry.kind:
        changed = changed | frozenset(old_bindings) | frozenset(new_bindings)
    return CourseSnapshot(
        course.id,
        course.root,
        course.config,
        course.host,
        _frozen(docs),
        bindings,
        references,
        course.problems,
        course.cache.following(changed),
    )


def remove_document(course: CourseSnapshot, uri: str) -> CourseSnapshot:
    old = course.docs.get(uri)
    if old is None:
        return course
    old_bindings, old_references = _document_occurrences(old)
    docs = dict(course.docs)
    del docs[uri]

    def order_of(other: str) -> int:
        return docs[other].order

    bindings = _merge(course.bindings, uri, {}, set(old_bindings), order_of)
    references = _merge(course.references, uri, {}, set(old_references), order_of)
    return CourseSnapshot(
        course.id,
        course.root,
        course.config,
        course.host,
        _frozen(docs),
        bindings,
        references,
        course.problems,
        course.cache.following(frozenset(old_bindings) | frozenset(old_references)),
    )


def with_course(
    snapshot: WorkspaceSnapshot, course: CourseSnapshot | None, course_id: str
) -> WorkspaceSnapshot:
    """The snapshot with course `course_id` replaced by `course` (None removes it)."""
    courses = dict(snapshot.courses)
    old = courses.get(course_id)
    if course is None:
        courses.pop(course_id, None)
    else:
        courses[course_id] = course
    old_uris = set(old.docs) if old is not None else set()
    new_uris = set(course.docs) if course is not None else set()
    course_of: Mapping[str, str] = snapshot.course_of
    if old_uris != new_uris:
        updated = dict(snapshot.course_of)
        for uri in old_uris - new_uris:
            if updated.get(uri) == course_id:
                del updated[uri]
        for uri in new_uris:
            updated[uri] = course_id
        course_of = _frozen(updated)
    return WorkspaceSnapshot(_frozen(courses), course_of, snapshot.generation + 1)
