"""What a key means in a course, decided once per course snapshot: the one place that
answers "is this key reserved, provided, legacy profile, asked, read before it is asked,
unbound, a near miss, ignored or dropped by the host?".

Diagnostics, the course map, the key table, code actions, hover, completion, semantic
tokens, code lenses and the course figures read these facts; none decides a key's verdict
itself (tests/architecture/test_facts_only.py). The kinds (`PLACE_ASKED` ...) are the map's
vocabulary of a place (the `mfls map --format json` contract); `PROBLEM_CODES` says which
diagnostic code a problem kind is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Final

from mfls.features.near_miss import Near, NearMissIndex
from mfls.syntax.model import Marker, Role
from mfls.workspace.catalog import EN, say
from mfls.workspace.config import CURRENT
from mfls.workspace.diagnostic_registry import (
    BINDING_IN_REFERENCE,
    LEGACY_PROFILE_KEY,
    NEAR_MISS,
    READ_BEFORE_ASKED,
    RESERVED_KEY_BINDING,
    UNBOUND_REFERENCE,
)
from mfls.workspace.hosts import HostProfile
from mfls.workspace.index import CourseSnapshot, DocEntry, Memo, Occurrence

PLACE_ASKED: Final = "asked"
"""A lesson binds the key: an interaction saves the learner's answer."""
PLACE_READ: Final = "read"
"""The key is read after a lesson asks it."""
PLACE_READ_BEFORE_ASKED: Final = "read-before-asked"
"""Read in a lesson that comes, in course order, before the first lesson asking it."""
PLACE_UNBOUND: Final = "unbound"
"""Read, but no lesson asks it and the host does not provide it."""
PLACE_NEAR_MISS: Final = "near-miss"
"""Unbound, and almost the text of a key that is bound (did you mean ...?)."""
PLACE_RESERVED: Final = "reserved"
"""Bound, but the host reserves the key (its own or one of its prefixes)."""
PLACE_LEGACY_PROFILE: Final = "legacy-profile"
"""Bound in the `%{{...}}` form the host still accepts for its legacy learner-profile
keys: kept as written (a warning), not a reserved-key error."""
PLACE_PROVIDED: Final = "provided"
"""Read, and the host provides the value."""
PLACE_REFERENCE_BINDING: Final = "reference-binding"
"""Bound in a reference document: no permission to save an answer."""

KINDS: Final = (
    PLACE_ASKED,
    PLACE_READ,
    PLACE_READ_BEFORE_ASKED,
    PLACE_UNBOUND,
    PLACE_NEAR_MISS,
    PLACE_RESERVED,
    PLACE_LEGACY_PROFILE,
    PLACE_PROVIDED,
    PLACE_REFERENCE_BINDING,
)
"""Every kind of place, in the order a legend lists them."""

ASKING: Final = frozenset(
    {PLACE_ASKED, PLACE_RESERVED, PLACE_LEGACY_PROFILE, PLACE_REFERENCE_BINDING}
)
"""The kinds of a binding; every other kind is a read."""

SAVES_ANSWER: Final = frozenset({PLACE_ASKED, PLACE_LEGACY_PROFILE})
"""The kinds of a binding whose interaction saves the learner's answer under its key."""


def legend(language: str = EN) -> dict[str, str]:
    """What each kind of place means, worded in `language` (catalog ids `legend.<kind>`)."""
    return {kind: say(language, f"legend.{kind}") for kind in KINDS}


LEGEND: Final[Mapping[str, str]] = legend()
"""The legend in English (the map's page and SVG)."""

PROBLEM_CODES: Final[Mapping[str, str]] = {
    PLACE_RESERVED: RESERVED_KEY_BINDING,
    PLACE_LEGACY_PROFILE: LEGACY_PROFILE_KEY,
    PLACE_UNBOUND: UNBOUND_REFERENCE,
    PLACE_NEAR_MISS: NEAR_MISS,
    PLACE_READ_BEFORE_ASKED: READ_BEFORE_ASKED,
    PLACE_REFERENCE_BINDING: BINDING_IN_REFERENCE,
}
"""The problem kinds, most serious first, with the diagnostic code their places get."""

RANK: Final = (*PROBLEM_CODES, PLACE_ASKED, PLACE_PROVIDED, PLACE_READ)
"""Every kind, the one a cell shows first (of several places in one lesson) first."""

_NEAR_MISSES: Final = Memo("near-miss candidates")
_READ_AFTER: Final[tuple[str, tuple[int, int] | None]] = (PLACE_READ, None)
"""The reads of a key after its first lesson binding."""
_FACTS: Final = Memo("course facts")


def near_miss_index(course: CourseSnapshot) -> NearMissIndex:
    """The course's candidate keys (bound in lessons, or host keys), built once per
    snapshot from the previous one's."""

    def build(previous: NearMissIndex | None, changed: frozenset[str] | None) -> NearMissIndex:
        if previous is None or changed is None:
            candidates = set(course.lesson_bound_keys()) | set(course.host.provided_keys)
            return NearMissIndex.build(candidates)
        bound = course.lesson_bound_keys()
        now = {key for key in changed if key in bound}
        now |= {key for key in changed if course.host.provides(key)}
        return previous.updated(now, changed - now)

    return course.cache.get(_NEAR_MISSES, build)


class CourseFacts:
    """The verdicts of one course snapshot, each asked of the course once per key."""

    __slots__ = (
        "_first_bindings",
        "_firsts",
        "_near",
        "_reads",
        "_reserved",
        "course",
        "host",
        "provided",
        "substituted",
    )

    def __init__(self, course: CourseSnapshot) -> None:
        self.course = course
        self.host: HostProfile = course.host
        self.provided: Callable[[str], bool] = course.host.provides
        """Whether the host provides the key's value (read-only)."""
        self.substituted: Callable[[Marker], bool] = course.host.substitutes
        """Whether the host's runtime puts the answer in place of the marker (False: a
        literal context the host drops or shows as written)."""
        self._reserved: dict[str, bool] = {}
        self._firsts: dict[str, tuple[int, int] | None] = {}
        self._first_bindings: dict[str, Occurrence | None] = {}
        self._near: dict[str, Near | None] = {}
        self._reads: dict[str, tuple[str, tuple[int, int] | None] | None] = {}

    # -- the host's word on a key or a marker

    def reserved_prefix(self, key: str) -> str | None:
        """The host's reserved prefix the key starts with, if any."""
        return self.host.reserved_prefix_of(key)

    def reserved(self, key: str) -> bool:
        """The host provides the key or reserves its prefix: no binding may save it."""
        found = self._reserved.get(key)
        if found is None:
            host = self.host
            found = host.provides(key) or (
                bool(host.reserved_prefixes) and host.reserved_prefix_of(key) is not None
            )
            self._reserved[key] = found
        return found

    def legacy_profile(self, marker: Marker) -> bool:
        """A `%{{...}}` binding of one of the host's legacy learner-profile keys: kept."""
        return self.host.is_legacy_profile_binding(marker)

    @property
    def profile_keys(self) -> frozenset[str]:
        """The host's legacy learner-profile keys (kept in the `%{{...}}` form)."""
        return self.host.legacy_profile_keys

    def read(self, marker: Marker) -> bool:
        """The marker reads its key: a reference the host substitutes."""
        return marker.role is not Role.BINDING and self.host.substitutes(marker)

    def reading(self, key: str) -> list[Occurrence]:
        """The key's occurrences that read it (`read`), every document's: the reads that
        hovers, lenses and completion count."""
        read = self.read
        return [o for o in self.course.references.get(key, ()) if read(o.marker)]

    @property
    def host_name(self) -> str:
        return self.host.title or self.host.name

    # -- the course's word on a key

    def first_asked(self, key: str) -> tuple[int, int] | None:
        """The course position of the key's first binding in a lesson, if any."""
        if key in self._firsts:
            return self._firsts[key]
        first = self.first_asking(key)
        found = self._firsts[key] = None if first is None else self.course.position(first)
        return found

    def first_asking(self, key: str) -> Occurrence | None:
        """The key's first binding in a lesson, in course order (where `first_asked` is)."""
        found = self._first_bindings
        if key in found:
            return found[key]
        first = found[key] = self.course.first_lesson_binding(key)
        return first

    def unbound(self, key: str) -> bool:
        """No lesson asks the key and the host does not provide it."""
        return not self.provided(key) and self.first_asked(key) is None

    def near(self, key: str) -> Near | None:
        """The key an unbound `key` probably means (bound in a lesson, or the host's)."""
        if key not in self._near:
            self._near[key] = near_miss_index(self.course).nearest(key)
        return self._near[key]

    def suggestion(self, key: str) -> str | None:
        near = self.near(key)
        return None if near is None else near.key

    def unbound_code(self, key: str) -> str:
        """The code an unbound key's reads get: near-miss when a near key exists."""
        return NEAR_MISS if self.near(key) is not None else UNBOUND_REFERENCE

    def bindings_in_lessons(self, key: str) -> tuple[Occurrence, ...]:
        """The key's bindings in lessons, in course order (a reserved key's too: see
        `saving_bindings`)."""
        return self.course.lesson_bindings(key)

    def saving_bindings(self, key: str) -> tuple[Occurrence, ...]:
        """The key's bindings in lessons that save the learner's answer (their kind is in
        SAVES_ANSWER), in course order: none of a key the host reserves (the host rejects
        them) but its legacy learner-profile bindings."""
        bindings = self.course.lesson_bindings(key)
        if not bindings or not self.reserved(key):
            return bindings
        return tuple(o for o in bindings if self.legacy_profile(o.marker))

    def bindings_in_references(self, key: str) -> tuple[Occurrence, ...]:
        """The key's bindings in reference documents (they save nothing), in course order."""
        docs = self.course.docs
        return tuple(o for o in self.course.bindings.get(key, ()) if docs[o.uri].kind != "lesson")

    def standing(self, key: str) -> str:
        """What the key is in the course as a whole, as a place kind: PLACE_PROVIDED (the
        host's), PLACE_ASKED or PLACE_RESERVED (a lesson binds it; the host reserves its
        prefix), PLACE_REFERENCE_BINDING (bound only in reference documents: unbound),
        PLACE_UNBOUND or PLACE_NEAR_MISS (no binding)."""
        if self.provided(key):
            return PLACE_PROVIDED
        if self.first_asked(key) is not None:
            return PLACE_RESERVED if self.reserved(key) else PLACE_ASKED
        if self.course.bindings.get(key):
            return PLACE_REFERENCE_BINDING
        return PLACE_UNBOUND if self.near(key) is None else PLACE_NEAR_MISS

    # -- a marker's kind

    def binding_kinds(self, entry: DocEntry, marker: Marker) -> tuple[str, ...]:
        """What a binding (one the document's target saves) is: its place kind first,
        then every further problem kind it has (a legacy profile key or a reserved one
        bound in a reference document is also a reference binding)."""
        if self.legacy_profile(marker):
            kind = PLACE_LEGACY_PROFILE
        elif self.reserved(marker.key):
            kind = PLACE_RESERVED
        else:
            return (PLACE_REFERENCE_BINDING,) if entry.kind == "reference" else (PLACE_ASKED,)
        return (kind, PLACE_REFERENCE_BINDING) if entry.kind == "reference" else (kind,)

    def ignored_reserved(self, entry: DocEntry, marker: Marker) -> bool:
        """A `{{ key }}` binding of a reserved key under an old target: its runtime binds
        nothing there, but the binding keeps its reserved-key error (the `%` form it reads
        would be refused too)."""
        return (
            marker.role is Role.BINDING
            and not marker.legacy
            and entry.target != CURRENT
            and self.reserved(marker.key)
        )

    def reads_of(self, order: int, key: str) -> tuple[str, tuple[int, int] | None] | None:
        """What the reads of `key` in the document at course `order` are, as (kind,
        before): `kind` for the reads at or before course position `before` (None: every
        read), PLACE_READ for those after. None: the host provides the key (PLACE_PROVIDED).

        A read before the key's first lesson binding in course order is read before it is
        asked, in a lesson or in a reference document that comes first (a course prompt,
        in force from the first lesson)."""
        reads = self._reads
        judged = reads[key] if key in reads else reads.setdefault(key, self._judge_reads(key))
        if judged is None or judged[1] is None or order <= judged[1][0]:
            return judged
        return _READ_AFTER

    def _judge_reads(self, key: str) -> tuple[str, tuple[int, int] | None] | None:
        if self.provided(key):
            return None
        limit = self.first_asked(key)
        if limit is None:
            return (PLACE_UNBOUND if self.near(key) is None else PLACE_NEAR_MISS), None
        return PLACE_READ_BEFORE_ASKED, limit

    def read_kind(self, entry: DocEntry, marker: Marker) -> str:
        """What a read of a key (`read(marker)` holds) is."""
        found = self.reads_of(entry.order, marker.key)
        if found is None:
            return PLACE_PROVIDED
        kind, before = found
        if before is None or (entry.order, marker.start) < before:
            return kind
        return PLACE_READ

    def verdicts(self, entry: DocEntry) -> list[tuple[Marker, tuple[str, ...]]]:
        """Each marker of `entry` that asks or reads a key, with its kinds (the place
        kind first, then any further problem kind), in text order."""
        keys = entry.keys
        found: list[tuple[Marker, tuple[str, ...]]] = []
        for bindings in keys.bindings.values():
            found.extend((m, self.binding_kinds(entry, m)) for m in bindings)
        old_target = entry.target != CURRENT
        for references in keys.references.values():
            for m in references:
                if self.read(m):
                    found.append((m, (self.read_kind(entry, m),)))
                elif old_target and self.ignored_reserved(entry, m):
                    found.append((m, (PLACE_RESERVED,)))
        found.sort(key=lambda pair: pair[0].start)
        return found

    def questions(self) -> Iterator[str]:
        """Every key the course asks or reads (the map's lanes, the key table's rows)."""
        seen: set[str] = set()
        for entry in self.course.docs.values():
            keys = entry.keys
            for key in keys.bindings:
                if key not in seen:
                    seen.add(key)
                    yield key
            old_target = entry.target != CURRENT
            for key, references in keys.references.items():
                if key not in seen and any(
                    self.read(m) or (old_target and self.ignored_reserved(entry, m))
                    for m in references
                ):
                    seen.add(key)
                    yield key


def facts_of(course: CourseSnapshot) -> CourseFacts:
    """The facts of `course`, made once per snapshot."""
    return course.cache.get(_FACTS, lambda previous, changed: CourseFacts(course))
