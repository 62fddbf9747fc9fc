"""The rules of a document's keys in its course: what the facts (`features/facts.py`)
judge a binding or a read to be, as `Finding`s at its marker (legacy-profile-key,
reserved-key-binding, binding-in-reference, read-before-asked, unbound-reference,
near-miss). They decide nothing themselves; `diagnostic_wording` words them."""

from __future__ import annotations

import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final, NamedTuple

from mfls.features.binding_spelling import spelling_of
from mfls.features.facts import (
    PLACE_LEGACY_PROFILE,
    PLACE_READ,
    PLACE_REFERENCE_BINDING,
    PLACE_RESERVED,
    CourseFacts,
)
from mfls.features.finding import Counted, Finding, RelatedFound, Repeated, Said, said
from mfls.features.near_miss import Near
from mfls.syntax.model import Marker, Role
from mfls.workspace.catalog import brief, quoted
from mfls.workspace.config import CURRENT
from mfls.workspace.diagnostic_registry import (
    BINDING_IN_REFERENCE,
    LEGACY_PROFILE_KEY,
    NEAR_MISS,
    READ_BEFORE_ASKED,
    RESERVED_KEY_BINDING,
    RESERVED_KEY_BINDING_PREFIX,
    RESERVED_KEY_BINDING_PROVIDED,
    UNBOUND_REFERENCE,
    UNBOUND_REFERENCE_PAGE,
)
from mfls.workspace.index import CourseSnapshot, DocEntry, Memo, Occurrence

Rule = Callable[[CourseSnapshot, DocEntry, CourseFacts], Iterable[Finding | Repeated]]
"""A course-level rule: the findings of one document that the facts' verdicts give, each
at its marker."""


def _bindings(course: CourseSnapshot, entry: DocEntry, facts: CourseFacts) -> Iterator[Finding]:
    """legacy-profile-key, reserved-key-binding, binding-in-reference: the problem kinds
    the facts give a binding (`CourseFacts.binding_kinds`), in that order."""
    for key, bindings in entry.keys.bindings.items():
        legacy = reserved = in_reference = None
        for marker in bindings:
            for kind in facts.binding_kinds(entry, marker):
                if kind == PLACE_LEGACY_PROFILE:
                    legacy = legacy or _legacy_profile(facts, key)
                    yield Finding(LEGACY_PROFILE_KEY, marker.start, marker.end, legacy)
                elif kind == PLACE_RESERVED:
                    reserved = reserved or _reserved_words(facts, key)
                    yield Finding(RESERVED_KEY_BINDING, marker.start, marker.end, reserved)
                elif kind == PLACE_REFERENCE_BINDING:
                    in_reference = in_reference or _in_reference(facts, key)
                    yield Finding(BINDING_IN_REFERENCE, marker.start, marker.end, *in_reference)


def _ignored_reserved_bindings(
    course: CourseSnapshot, entry: DocEntry, facts: CourseFacts
) -> Iterator[Finding]:
    """reserved-key-binding under an old target (`CourseFacts.ignored_reserved`)."""
    if entry.target == CURRENT:
        return
    for marker in entry.marker_scan.markers:
        if facts.ignored_reserved(entry, marker):
            words = _reserved_words(facts, marker.key)
            yield Finding(RESERVED_KEY_BINDING, marker.start, marker.end, words)


def _reads(course: CourseSnapshot, entry: DocEntry, facts: CourseFacts) -> list[Repeated]:
    """read-before-asked, unbound-reference, near-miss: the reads (references the host
    substitutes) the facts judge so (`CourseFacts.reads_of`)."""
    substituted = facts.substituted
    reads_of = facts.reads_of
    binding = Role.BINDING
    order = entry.order
    uri = entry.uri
    unbound: dict[str, _KeyVerdict] = course.cache.get(_UNBOUND_NOW, _fresh)
    early: dict[tuple[str, bool], _KeyVerdict] = course.cache.get(_READ_BEFORE_ASKED, _fresh)
    found: list[Repeated] = []
    for key, references in entry.keys.references.items():
        judged = reads_of(order, key)
        if judged is None or judged[0] == PLACE_READ:
            continue
        # An ignored binding (old target) gets runtime-binding-ignored, not these.
        read = [m for m in references if m.role is not binding and substituted(m)]
        if not read:
            continue
        before = judged[1]
        if before is None:
            verdict = unbound.get(key) or _unbound_verdict(course, facts, key, unbound)
        else:
            first = facts.first_asking(key)
            assert first is not None
            here = first.uri == uri
            verdict = early.get((key, here)) or _read_before_asked(course, key, first, here, early)
            read = _before(read, order, before)
        found.append(Repeated(verdict.code, read, verdict.said, verdict.related))
    return found


def settle_reads(course: CourseSnapshot, facts: CourseFacts) -> None:
    """Judge now every key the course reads, and make the verdicts of those unbound: what
    the documents' findings share (processes forked afterwards share them too, instead of
    each making its own)."""
    unbound: dict[str, _KeyVerdict] = course.cache.get(_UNBOUND_NOW, _fresh)
    for key in course.references:
        judged = facts.reads_of(0, key)
        if judged is not None and judged[1] is None and key not in unbound:
            _unbound_verdict(course, facts, key, unbound)


MARKER_RULES: Final[tuple[Rule, ...]] = (_bindings, _ignored_reserved_bindings, _reads)
"""The course-level rules over the facts, in the order one marker's codes are listed."""


def key_findings(
    course: CourseSnapshot, entry: DocEntry, facts: CourseFacts
) -> list[Finding | Repeated]:
    """The findings of every rule of `MARKER_RULES` in `entry`, rule by rule (worded, they
    are put in text order, one marker's in rule order: `diagnostics`)."""
    found: list[Finding | Repeated] = []
    for rule in MARKER_RULES:
        found.extend(rule(course, entry, facts))
    return found


def _before(markers: list[Marker], order: int, limit: tuple[int, int]) -> list[Marker]:
    """The markers (in text order, of a document of course `order`) that come at or
    before course position `limit`."""
    if order != limit[0]:
        return markers if order < limit[0] else []
    return markers[: bisect_right(markers, limit[1], key=lambda m: m.start)]


class _KeyVerdict(NamedTuple):
    """What a document's judged references to one key get (said once per key)."""

    code: str
    said: Said
    related: tuple[RelatedFound, ...] = ()


def _at(occurrence: Occurrence, words: Said) -> RelatedFound:
    return occurrence.uri, occurrence.marker.key_start, occurrence.marker.key_end, words


def _reserved_words(facts: CourseFacts, key: str) -> Said:
    name = facts.host_name
    if facts.provided(key):
        return said(RESERVED_KEY_BINDING_PROVIDED, short=brief(key), quoted=quoted(key), host=name)
    prefix = facts.reserved_prefix(key)
    return said(RESERVED_KEY_BINDING_PREFIX, prefix=prefix, host=name, quoted=quoted(key))


def _legacy_profile(facts: CourseFacts, key: str) -> Said:
    keys = ", ".join(f"`{k}`" for k in sorted(facts.profile_keys))
    return said(
        LEGACY_PROFILE_KEY,
        profile=quoted(key),
        key=key,
        host=facts.host_name,
        keys=keys,
        prefix=facts.reserved_prefix(key) or "",
    )


def _in_reference(facts: CourseFacts, key: str) -> tuple[Said, tuple[RelatedFound, ...]]:
    there = Said("related.lesson-binds")
    related = tuple(_at(o, there) for o in facts.bindings_in_lessons(key)[:3])
    return said(BINDING_IN_REFERENCE, quoted=quoted(key)), related


_READ_BEFORE_ASKED: Final = Memo("read-before-asked verdicts")


def _read_before_asked(
    course: CourseSnapshot,
    key: str,
    first: Occurrence,
    here: bool,
    made: dict[tuple[str, bool], _KeyVerdict],
) -> _KeyVerdict:
    """What the reads of `key` before its `first` lesson binding get (`here`: in the
    document of that binding), made once per snapshot into `made`."""
    if here:
        where = Said("part.where.later")
    else:
        where = said("part.where.in", label=course.docs[first.uri].label)
    verdict = made[key, here] = _KeyVerdict(
        READ_BEFORE_ASKED,
        said(READ_BEFORE_ASKED, short=brief(key), where=where),
        (_at(first, Said("related.first-bound")),),
    )
    return verdict


_UNBOUND_NOW: Final = Memo("unbound verdicts now")
_UNBOUND_KEPT: Final = Memo("unbound verdicts kept")
_VerdictBasis = tuple[object, ...]
"""What an unbound verdict says: the near key, and where that key is first bound."""
VERDICTS_KEPT = 50_000


def _unbound_verdict(
    course: CourseSnapshot, facts: CourseFacts, key: str, settled: dict[str, _KeyVerdict]
) -> _KeyVerdict:
    """What the reads of an unbound `key` get, made once per snapshot into `settled`. It
    depends on the course only, so it is kept from snapshot to snapshot of the course
    while its basis holds (the same near key, first bound at the same place): a keystroke
    makes only the verdicts it changes."""
    memo: dict[str, tuple[_VerdictBasis, _KeyVerdict]]
    memo = course.cache.get(_UNBOUND_KEPT, _kept_verdicts)
    near = facts.near(key)
    bound = None if near is None else facts.first_asking(near.key)
    basis: _VerdictBasis = (near,)
    if near is not None and bound is not None:
        basis = (near, bound.uri, bound.marker.key_start, bound.marker.key_end)
    seen = memo.get(key)
    if seen is not None and seen[0] == basis:
        verdict = seen[1]
    else:
        verdict = _unbound(course, facts, key, near, bound)
        memo[key] = (basis, verdict)
    settled[key] = verdict
    return verdict


def _fresh(previous: object, changed: object) -> dict[Any, _KeyVerdict]:
    """Verdicts of this snapshot alone."""
    return {}


def _kept_verdicts(
    previous: dict[str, tuple[_VerdictBasis, _KeyVerdict]] | None, changed: object
) -> dict[str, tuple[_VerdictBasis, _KeyVerdict]]:
    """The verdicts of the course's previous snapshot (each checked against its basis
    before use; host and configuration are those of the course, which shares no cache
    with another configuration)."""
    if previous is None or len(previous) > VERDICTS_KEPT:
        return {}
    return previous


def _unbound(
    course: CourseSnapshot,
    facts: CourseFacts,
    key: str,
    near: Near | None,
    bound: Occurrence | None,
) -> _KeyVerdict:
    if near is not None:
        related: tuple[RelatedFound, ...] = ()
        if bound is not None:
            related = (_at(bound, said("related.near-bound", quoted=quoted(near.key))),)
        how = "part.near.provided" if facts.provided(near.key) else "part.near.bound"
        words = said(
            NEAR_MISS,
            near=brief(near.key, 38),
            near_full=quoted(near.key),
            how=Said(how),
            quoted=quoted(key),
            difference=_difference(key, near.key, near.distance),
        )
        return _KeyVerdict(NEAR_MISS, words, related)
    spelling = spelling_of(course.config)
    legacy = course.config.runtime_target != CURRENT
    if spelling.writable(key):
        binding = spelling.binding(key, legacy)
        return _KeyVerdict(
            UNBOUND_REFERENCE, said(UNBOUND_REFERENCE, short=brief(key), binding=binding)
        )
    taken = course.keys_taken(course.host.provided_keys)
    readable = spelling.readable_key(key, taken)
    words = said(
        UNBOUND_REFERENCE_PAGE,
        short=brief(key),
        readable=readable,
        binding=spelling.binding(readable, legacy),
    )
    return _KeyVerdict(UNBOUND_REFERENCE, words)


def _difference(a: str, b: str, distance: int) -> Said | Counted:
    if distance:
        return Counted("part.differs.letters", distance)
    if "".join(a.split()) == "".join(b.split()):
        return Said("part.differs.spacing")
    if a.casefold() == b.casefold():
        return Said("part.differs.case")
    if unicodedata.normalize("NFKC", a) == unicodedata.normalize("NFKC", b):
        return Said("part.differs.nfkc")
    return Said("part.differs.any")
