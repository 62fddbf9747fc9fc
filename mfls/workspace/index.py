"""The immutable index: `WorkspaceSnapshot` -> `CourseSnapshot` -> `DocEntry`.

Snapshots are never changed after construction; an update builds a new one that shares
every unchanged course, document and key list with the old one. Each record names its
source document (uri, path) and the document version it was read from.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Container, Iterable, Iterator, Mapping
from functools import cached_property, lru_cache
from types import MappingProxyType
from typing import Any, ClassVar, Final, Literal, NamedTuple, Protocol, TypeVar

from mfls.syntax.grouping import group_by_key
from mfls.syntax.model import Interaction, Marker, ScanResult
from mfls.syntax.scanner import scan
from mfls.workspace.config import (
    COURSE_FILE,
    CURRENT,
    MARKDOWN_FLOW_03_READERS,
    ConfigProblem,
    CourseConfig,
)
from mfls.workspace.hosts import HostProfile
from mfls.workspace.overlay_mapping import GONE, Layered
from mfls.workspace.runtime_interactions import runtime_interactions
from mfls.workspace.uris import canonical_uri

DocKind = Literal["lesson", "reference"]
T = TypeVar("T")


class ScannedDocument(Protocol):
    """What the index needs of `mfls.syntax.document.Document`."""

    @property
    def text(self) -> str: ...

    def result(self) -> ScanResult: ...


class DiskDocument:
    """A closed document as read from disk: its text and its markers-only scan
    (markers, invalid markers, interactions). `result()` rescans the whole text
    (blocks and literals included) on demand, remembering the last few; this keeps an
    indexed course at a few times its size on disk."""

    __slots__ = ("_markers_only", "text")

    def __init__(self, text: str, result: ScanResult) -> None:
        self.text = text
        self._markers_only = ScanResult(
            markers=result.markers, invalid=result.invalid, interactions=result.interactions
        )

    def markers_only(self) -> ScanResult:
        return self._markers_only

    def result(self) -> ScanResult:
        return _full_scan(self.text)


def relative_path(path: str, root: str) -> str:
    """`path` relative to the directory `root`, with `/` separators (as globs and
    messages write it)."""
    return os.path.relpath(path, root).replace(os.sep, "/")


@lru_cache(maxsize=32)
def _full_scan(text: str) -> ScanResult:
    return scan(text)


class DocKeys:
    """A document's markers grouped by key; the per-key summary (for change detection)
    and first binding ordinals are computed on first use."""

    __slots__ = ("__dict__", "_first_binding", "bindings", "markers", "references")

    def __init__(
        self, markers: tuple[Marker, ...], binds: Callable[[Marker], bool] | None = None
    ) -> None:
        """`binds`, when given, decides which binding markers really bind (a target's
        runtime); the others count as references."""
        groups = group_by_key(markers, binds)
        self.markers = markers
        self.bindings: Mapping[str, tuple[Marker, ...]] = groups.bindings
        self.references: Mapping[str, tuple[Marker, ...]] = groups.references
        self._first_binding = groups.first_binding

    @property
    def first_binding(self) -> Mapping[str, int]:
        """key -> ordinal (index among the document's markers) of its first binding."""
        return self._first_binding

    @cached_property
    def summary(self) -> Mapping[str, tuple[int, int, int, int]]:
        """key -> (bindings, references, literal references, first binding ordinal)."""
        first = self.first_binding
        found: dict[str, tuple[int, int, int, int]] = {}
        for key, markers in self.bindings.items():
            found[key] = (len(markers), 0, 0, first[key])
        for key, markers in self.references.items():
            literal = sum(1 for m in markers if m.literal)
            bound = found.get(key, (0, 0, 0, -1))
            found[key] = (bound[0], len(markers) - literal, literal, bound[3])
        return found


EMPTY_KEYS = DocKeys(())


def runtime_binds(target: str, text: str) -> Callable[[Marker], bool]:
    """Which of mfls's bindings the runtime of `target` binds: only `%{{key}}`, and under
    markdown-flow 0.3.1 and 0.3.4 only with the `%` right after `?[` (their reader is
    `^%\\{\\{`)."""
    if target in MARKDOWN_FLOW_03_READERS:
        return lambda m: m.legacy and text[max(0, m.start - 2) : m.start] == "?["
    return lambda m: m.legacy


class _Record:
    """An immutable record of named fields (`_FIELDS`), equal to another of its class
    with equal fields. Written out rather than a dataclass: building a dataclass costs a
    command about 1.5 ms at start-up."""

    __slots__ = ()
    _FIELDS: ClassVar[tuple[str, ...]] = ()

    def _set(self, *values: object) -> None:
        """Sets the fields, in `_FIELDS` order, then any further slots (the constructor's
        only writes)."""
        slots: tuple[str, ...] = type(self).__slots__
        names = self._FIELDS + tuple(n for n in slots if n not in self._FIELDS)
        for name, value in zip(names, values, strict=True):
            object.__setattr__(self, name, value)

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self._FIELDS)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot set {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, _Record)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._FIELDS)
        return f"{type(self).__name__}({shown})"


class DocEntry(_Record):
    """One document of a course: where it comes from, which version, what it holds."""

    __slots__ = (
        "_keys",
        "document",
        "is_open",
        "kind",
        "order",
        "path",
        "target",
        "uri",
        "version",
    )
    _FIELDS = ("uri", "path", "version", "document", "kind", "order", "is_open", "target")

    uri: str
    path: str | None
    version: int | None
    document: ScannedDocument
    kind: DocKind
    order: int
    is_open: bool
    target: str
    _keys: DocKeys | None

    def __init__(
        self,
        uri: str,
        path: str | None,
        version: int | None,
        document: ScannedDocument,
        kind: DocKind,
        order: int,
        is_open: bool = False,
        target: str = CURRENT,
    ) -> None:
        self._set(uri, path, version, document, kind, order, is_open, target, None)

    @property
    def text(self) -> str:
        return self.document.text

    @property
    def result(self) -> ScanResult:
        """The whole scan: blocks and literals included."""
        return self.document.result()

    def result_near(self, offset: int) -> ScanResult:
        """The scan of the top-level blocks around `offset` (the whole scan when the
        document cannot say), without materializing the rest of a large open buffer."""
        between = getattr(self.document, "scan_between", None)
        if between is None:
            return self.document.result()
        return between(max(0, offset - 1), offset + 1)

    @property
    def marker_scan(self) -> ScanResult:
        """Markers, invalid markers and interactions; blocks and literals may be empty."""
        markers_only = getattr(self.document, "markers_only", None)
        return markers_only() if markers_only is not None else self.document.result()

    @property
    def keys(self) -> DocKeys:
        """Its markers by key (made on first use)."""
        keys: DocKeys | None = self._keys
        if keys is None:
            markers = self.marker_scan.markers
            if self.target == CURRENT:
                keys = DocKeys(markers)
            else:
                keys = DocKeys(markers, runtime_binds(self.target, self.text))
            object.__setattr__(self, "_keys", keys)
        return keys

    @property
    def interactions(self) -> tuple[Interaction, ...]:
        """Its interactions as its target's runtime reads them (escapes, where it has them)."""
        found = self.marker_scan
        return runtime_interactions(self.text, found.interactions, found.markers, self.target)

    def binds(self, marker: Marker) -> bool:
        """Whether `marker` saves an answer on this document's target (under an old
        target `?[{{ key }} ...]` is a binding to the scanner but saves nothing)."""
        return any(m is marker for m in self.keys.bindings.get(marker.key, ()))

    @property
    def label(self) -> str:
        """A short name for messages: the file name, or the URI's last segment."""
        if self.path is not None:
            return os.path.basename(self.path)
        return self.uri.rsplit("/", 1)[-1] or self.uri


class Occurrence(NamedTuple):
    uri: str
    version: int | None
    marker: Marker


class KeyOccurrences(Mapping[str, tuple[Occurrence, ...]]):
    """key -> occurrences of one role, in course order, resolved from the documents.

    Holds only which documents use each key; the occurrences themselves are built on
    first access (per snapshot), so an edit that keeps a document's keys touches no list.
    """

    def __init__(
        self,
        docs: Mapping[str, DocEntry],
        key_docs: Layered[str, tuple[str, ...]],
        binding: bool,
    ) -> None:
        self._docs = docs
        self.key_docs = key_docs
        self._binding = binding
        self._resolved: dict[str, tuple[Occurrence, ...]] = {}

    def __getitem__(self, key: str) -> tuple[Occurrence, ...]:
        found = self._resolved.get(key)
        if found is not None:
            return found
        uris = self.key_docs[key]
        occurrences: list[Occurrence] = []
        for uri in uris:
            entry = self._docs[uri]
            groups = entry.keys.bindings if self._binding else entry.keys.references
            occurrences.extend(Occurrence(uri, entry.version, m) for m in groups[key])
        found = self._resolved[key] = tuple(occurrences)
        return found

    def __contains__(self, key: object) -> bool:
        return key in self.key_docs

    def __iter__(self) -> Iterator[str]:
        return iter(self.key_docs)

    def __len__(self) -> int:
        return len(self.key_docs)


_MISSING: Any = object()


class Memo:
    """The name of a value of a `DerivedCache`: compared by identity, so two modules never
    share a value by choosing the same words."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"Memo({self.name!r})"


class DerivedCache:
    """Values computed lazily from one course snapshot, each at most once.

    A value may be derived from the same value of an earlier snapshot of the course plus
    the keys that changed since (None: anything may have changed). Only one earlier
    cache is ever linked, so old snapshots are not kept alive in a chain.
    """

    def __init__(
        self, previous: DerivedCache | None = None, changed: frozenset[str] | None = None
    ) -> None:
        self._values: dict[Memo, Any] = {}
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

    def get(self, name: Memo, build: Callable[[T | None, frozenset[str] | None], T]) -> T:
        """The value `name`; `build(previous_value, changed_keys)` makes it when missing."""
        known = self._values.get(name, _MISSING)
        if known is not _MISSING:
            return known
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


_LESSON_BINDINGS: Final = Memo("lesson bindings")
_FIRST_LESSON_DOCS: Final = Memo("first lesson documents")


def _new_memo(previous: object, changed: object) -> dict[str, Any]:
    return {}


def _frozen(mapping: dict[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(mapping)


def _layered(mapping: Mapping[str, T]) -> Layered[str, T]:
    return mapping if isinstance(mapping, Layered) else Layered(dict(mapping))


class CourseSnapshot(_Record):
    """One course at one moment: configuration, host, documents and key occurrences;
    `cache` holds what is derived from them (not part of its value)."""

    __slots__ = (
        "bindings",
        "cache",
        "config",
        "docs",
        "host",
        "id",
        "problems",
        "references",
        "root",
    )
    _FIELDS = ("id", "root", "config", "host", "docs", "bindings", "references", "problems")

    id: str
    root: str | None
    config: CourseConfig
    host: HostProfile
    docs: Mapping[str, DocEntry]
    bindings: KeyOccurrences
    references: KeyOccurrences
    problems: tuple[ConfigProblem, ...]
    cache: DerivedCache

    def __init__(
        self,
        id: str,
        root: str | None,
        config: CourseConfig,
        host: HostProfile,
        docs: Mapping[str, DocEntry],
        bindings: KeyOccurrences,
        references: KeyOccurrences,
        problems: tuple[ConfigProblem, ...] = (),
        cache: DerivedCache | None = None,
    ) -> None:
        fields = (id, root, config, host, docs, bindings, references, problems)
        self._set(*fields, DerivedCache() if cache is None else cache)

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
        memo: dict[str, tuple[Occurrence, ...]] = self.cache.get(_LESSON_BINDINGS, _new_memo)
        found = memo.get(key)
        if found is None:
            if key in self._first_lesson_docs():
                docs = self.docs
                found = tuple(o for o in self.bindings[key] if docs[o.uri].kind == "lesson")
            else:
                found = ()
            memo[key] = found
        return found

    def first_lesson_docs(self) -> Mapping[str, str]:
        """key -> the URI of the first lesson (course order) binding it."""
        return self._first_lesson_docs()

    def first_lesson_binding(self, key: str) -> Occurrence | None:
        """The first of `lesson_bindings(key)` in course order, without resolving the rest."""
        uri = self._first_lesson_docs().get(key)
        if uri is None:
            return None
        entry = self.docs[uri]
        return Occurrence(uri, entry.version, entry.keys.bindings[key][0])

    def lesson_bound_keys(self) -> Iterable[str]:
        """The keys some lesson binds."""
        return self._first_lesson_docs().keys()

    def _first_lesson_docs(self) -> Mapping[str, str]:
        """key -> URI of the first lesson (in course order) binding it, for every key a
        lesson binds: built once per snapshot, from the previous snapshot's table and the
        keys that changed since when there is one."""
        return self.cache.get(_FIRST_LESSON_DOCS, self._build_first_lesson_docs)

    def _build_first_lesson_docs(
        self, previous: Layered[str, str] | None, changed: frozenset[str] | None
    ) -> Layered[str, str]:
        if previous is None or changed is None:
            table: dict[str, str] = {}
            for key in self.bindings.key_docs:
                uri = self._first_lesson_doc(key)
                if uri is not None:
                    table[key] = uri
            return Layered(table)
        changes: dict[str, object] = {}
        for key in changed:
            uri = self._first_lesson_doc(key)
            changes[key] = GONE if uri is None else uri
        return previous.updated(changes)

    def _first_lesson_doc(self, key: str) -> str | None:
        best: DocEntry | None = None
        docs = self.docs
        for uri in self.bindings.key_docs.get(key, ()):
            entry = docs[uri]
            if entry.kind == "lesson" and (best is None or entry.order < best.order):
                best = entry
        return None if best is None else best.uri

    def position(self, occurrence: Occurrence) -> tuple[int, int]:
        """Course order: (document order, offset)."""
        return self.docs[occurrence.uri].order, occurrence.marker.start

    def keys_taken(self, also: Container[str] = frozenset()) -> KeysTaken:
        """The keys this course binds or reads (and `also`'s), tested without building a
        set of them."""
        return KeysTaken(self.bindings, self.references, also)

    def all_keys(self) -> Iterable[str]:
        yield from self.bindings
        for key in self.references:
            if key not in self.bindings:
                yield key


class KeysTaken:
    """Keys in use, as a container: in a course's bindings or references, or in `also`."""

    __slots__ = ("_also", "_bindings", "_references")

    def __init__(
        self, bindings: Container[str], references: Container[str], also: Container[str]
    ) -> None:
        self._bindings, self._references, self._also = bindings, references, also

    def __contains__(self, key: object) -> bool:
        return key in self._bindings or key in self._references or key in self._also


class WorkspaceSnapshot(NamedTuple):
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


def _key_docs(entries: Iterable[DocEntry], binding: bool) -> dict[str, tuple[str, ...]]:
    found: dict[str, list[str]] = {}
    for entry in entries:
        groups = entry.keys.bindings if binding else entry.keys.references
        for key in groups:
            found.setdefault(key, []).append(entry.uri)
    return {key: tuple(uris) for key, uris in found.items()}


def build_course(
    course_id: str,
    root: str | None,
    config: CourseConfig,
    host: HostProfile,
    entries: Iterable[DocEntry],
    problems: Iterable[ConfigProblem] = (),
) -> CourseSnapshot:
    """A course built from all its documents (entries in any order)."""
    ordered = sorted(entries, key=lambda e: e.order)
    docs = Layered({entry.uri: entry for entry in ordered})
    return CourseSnapshot(
        course_id,
        root,
        config,
        host,
        docs,
        KeyOccurrences(docs, Layered(_key_docs(ordered, True)), True),
        KeyOccurrences(docs, Layered(_key_docs(ordered, False)), False),
        tuple(problems),
    )


def _moved(
    key_docs: Layered[str, tuple[str, ...]],
    uri: str,
    old: Iterable[str],
    new: Iterable[str],
    docs: Mapping[str, DocEntry],
) -> Layered[str, tuple[str, ...]]:
    """`key_docs` with `uri` removed from the keys it left and added to the keys it gained."""
    old_keys, new_keys = set(old), set(new)
    if old_keys == new_keys:
        return key_docs
    changes: dict[str, object] = {}
    for key in old_keys - new_keys:
        remaining = tuple(u for u in key_docs[key] if u != uri)
        changes[key] = remaining if remaining else GONE
    for key in new_keys - old_keys:
        uris = (*key_docs.get(key, ()), uri)
        changes[key] = tuple(sorted(uris, key=lambda u: docs[u].order))
    return key_docs.updated(changes)


def _changed_keys(old: DocEntry | None, new: DocEntry | None) -> frozenset[str]:
    old_summary = old.keys.summary if old is not None else {}
    new_summary = new.keys.summary if new is not None else {}
    changed = {k for k, v in old_summary.items() if new_summary.get(k) != v}
    changed.update(k for k, v in new_summary.items() if old_summary.get(k) != v)
    if (
        old is not None
        and new is not None
        and (old.kind, old.order, old.target)
        != (
            new.kind,
            new.order,
            new.target,
        )
    ):
        changed.update(old_summary, new_summary)
    return frozenset(changed)


def replace_document(course: CourseSnapshot, entry: DocEntry) -> CourseSnapshot:
    """The course with `entry` added or replacing the document of the same URI.

    Only keys that the document gained or lost are touched; the rest is shared.
    """
    return _with_document(course, entry.uri, entry)


def remove_document(course: CourseSnapshot, uri: str) -> CourseSnapshot:
    if uri not in course.docs:
        return course
    return _with_document(course, uri, None)


def _with_document(course: CourseSnapshot, uri: str, entry: DocEntry | None) -> CourseSnapshot:
    """The course with the document at `uri` replaced by `entry`, or removed (None)."""
    old = course.docs.get(uri)
    docs = _layered(course.docs).updated({uri: GONE if entry is None else entry})
    old_keys = old.keys if old is not None else EMPTY_KEYS
    new_keys = entry.keys if entry is not None else EMPTY_KEYS
    bindings = _moved(course.bindings.key_docs, uri, old_keys.bindings, new_keys.bindings, docs)
    references = _moved(
        course.references.key_docs, uri, old_keys.references, new_keys.references, docs
    )
    return CourseSnapshot(
        course.id,
        course.root,
        course.config,
        course.host,
        docs,
        KeyOccurrences(docs, bindings, True),
        KeyOccurrences(docs, references, False),
        course.problems,
        course.cache.following(_changed_keys(old, entry)),
    )


def with_course(
    snapshot: WorkspaceSnapshot,
    course: CourseSnapshot | None,
    course_id: str,
    added: Iterable[str] = (),
    removed: Iterable[str] = (),
) -> WorkspaceSnapshot:
    """The snapshot with course `course_id` replaced by `course` (None removes it).

    `added`/`removed` name the document URIs that joined or left the course; every
    other URI keeps its course, and the URI map is shared when nothing moved.
    """
    courses = dict(snapshot.courses)
    if course is None:
        courses.pop(course_id, None)
    else:
        courses[course_id] = course
    added, removed = tuple(added), tuple(removed)
    course_of: Mapping[str, str] = snapshot.course_of
    if added or removed:
        updated = dict(snapshot.course_of)
        for uri in removed:
            if updated.get(uri) == course_id:
                del updated[uri]
        for uri in added:
            updated[uri] = course_id
        course_of = _frozen(updated)
    return WorkspaceSnapshot(_frozen(courses), course_of, snapshot.generation + 1)
