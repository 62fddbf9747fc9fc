"""Diagnostics: scanner-level ones for any text, course-level ones from a snapshot."""

from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass

from mfls.features.keyspace import NearMissIndex
from mfls.features.lookup import invalid_span
from mfls.syntax.model import InvalidMarker, Marker, Reason, Role, ScanResult
from mfls.workspace.codes import DEFAULT_SEVERITIES, OFF
from mfls.workspace.config import COURSE_FILE
from mfls.workspace.index import CourseSnapshot, DocEntry, Occurrence, WorkspaceSnapshot
from mfls.workspace.uris import uri_to_path

Related = tuple[str, int, int, str]
DEPRECATED = "deprecated"


@dataclass(frozen=True)
class Diagnostic:
    code: str
    severity: str  # error | warning | information | hint
    start: int
    end: int
    message: str
    related: tuple[Related, ...] = ()
    tags: tuple[str, ...] = ()


def _diagnostic(
    code: str,
    start: int,
    end: int,
    message: str,
    related: tuple[Related, ...] = (),
    tags: tuple[str, ...] = (),
) -> Diagnostic:
    return Diagnostic(code, DEFAULT_SEVERITIES[code], start, end, message, related, tags)


def quoted(key: str) -> str:
    return f"“{key}”"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


# -- scanner level ----------------------------------------------------------------------


def scan_diagnostics(result: ScanResult, text: str | None = None) -> list[Diagnostic]:
    """Invalid markers and legacy bindings; `text`, when given, names control characters."""
    found = [_invalid(marker, text) for marker in result.invalid]
    for marker in result.markers:
        if marker.legacy:
            found.append(
                _diagnostic(
                    "legacy-binding",
                    marker.start,
                    marker.end,
                    f"`%{{{{...}}}}` is the old binding syntax; write `{{{{ {marker.key} }}}}` "
                    "instead. It binds the same question.",
                    tags=(DEPRECATED,),
                )
            )
    found.sort(key=lambda d: (d.start, d.end))
    return found


def _invalid(marker: InvalidMarker, text: str | None) -> Diagnostic:
    start, end = invalid_span(marker)
    if marker.reason is Reason.EMPTY:
        return _diagnostic(
            "marker-empty",
            start,
            end,
            "This memory marker names no question, so it is plain text. Write the question "
            "between the braces, e.g. `{{ What would you like to learn? }}`.",
        )
    if marker.reason is Reason.LINE_BREAK:
        return _diagnostic(
            "marker-line-break",
            start,
            end,
            "A question in a memory marker must fit on one line; this one is broken across "
            "lines, so the marker is plain text. Join the lines.",
        )
    if marker.reason is Reason.CONTROL_CHARACTER:
        named = _control_character(text[start:end]) if text is not None else None
        which = f" ({named})" if named else ""
        return _diagnostic(
            "marker-control-character",
            start,
            end,
            f"This question contains an invisible control character{which}, so the marker is "
            "plain text. Delete the character.",
        )
    hidden = []
    if marker.hidden_markers:
        hidden.append(_plural(marker.hidden_markers, "memory marker"))
    if marker.hidden_interactions:
        hidden.append(_plural(marker.hidden_interactions, "interaction"))
    hides = f" It hides {' and '.join(hidden)} written after it." if hidden else ""
    return _diagnostic(
        "marker-unclosed",
        start,
        end,
        "This `{{` has no closing `}}` in its paragraph, so everything after it up to the end "
        f"of the paragraph is plain text.{hides} Close the marker with `}}}}`.",
    )


def _control_character(body: str) -> str | None:
    for char in body[2:]:
        code = ord(char)
        if (code < 0x20 and char not in "\n\r") or (0x7F <= code <= 0x9F and code != 0x85):
            return f"U+{code:04X}, a control character"
    return None


# -- course level -----------------------------------------------------------------------


def document_diagnostics(snapshot: WorkspaceSnapshot, uri: str) -> list[Diagnostic]:
    """Every diagnostic of an indexed document, with the course's severities applied.

    For the `mfcourse.toml` of a course, the problems of that file."""
    found = snapshot.entry(uri)
    if found is None:
        course_id = _course_of_course_file(snapshot, uri)
        return [] if course_id is None else course_file_diagnostics(snapshot, course_id)
    course, entry = found
    result = entry.memory
    diagnostics = scan_diagnostics(result, entry.text)
    near_misses: NearMissIndex | None = None
    per_key: dict[str, _KeyVerdict] = {}
    for marker in result.markers:
        if marker.role is Role.BINDING:
            diagnostics.extend(_binding_diagnostics(course, entry, marker))
            continue
        if marker.literal or course.host.provides(marker.key):
            continue
        verdict = per_key.get(marker.key)
        if verdict is None:
            lesson_bindings = course.lesson_bindings(marker.key)
            if lesson_bindings:
                verdict = _read_before_asked(course, entry, marker.key, lesson_bindings)
            else:
                if near_misses is None:
                    near_misses = near_miss_index(course)
                verdict = _unbound(course, marker.key, near_misses)
            per_key[marker.key] = verdict
        if verdict.applies_before is None or (entry.order, marker.start) <= verdict.applies_before:
            diagnostics.append(
                Diagnostic(
                    verdict.code,
                    DEFAULT_SEVERITIES[verdict.code],
                    marker.start,
                    marker.end,
                    verdict.message,
                    verdict.related,
                )
            )
    return _with_severities(course, diagnostics)


@dataclass(frozen=True)
class _KeyVerdict:
    """What a document's references to one key get; `applies_before` limits it to those
    before that course position (read-before-asked), None applies it to every one."""

    code: str
    message: str
    related: tuple[Related, ...] = ()
    applies_before: tuple[int, int] | None = None


_QUIET = _KeyVerdict("read-before-asked", "", (), (-1, -1))


def _course_of_course_file(snapshot: WorkspaceSnapshot, uri: str) -> str | None:
    path = uri_to_path(uri)
    if path is None or os.path.basename(path) != COURSE_FILE:
        return None
    for course in snapshot.courses.values():
        if course.config_path == path:
            return course.id
    return None


def course_file_diagnostics(snapshot: WorkspaceSnapshot, course_id: str) -> list[Diagnostic]:
    """Problems of a course's `mfcourse.toml`, as offsets into that file's text."""
    course = snapshot.courses.get(course_id)
    if course is None:
        return []
    diagnostics = [
        Diagnostic(
            "course-file-invalid",
            "error" if problem.fatal else "warning",
            problem.start,
            problem.end,
            problem.message,
        )
        for problem in course.problems
    ]
    return _with_severities(course, diagnostics)


def _with_severities(course: CourseSnapshot, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    overrides = course.config.severities
    if not overrides:
        return diagnostics
    kept: list[Diagnostic] = []
    for diagnostic in diagnostics:
        severity = overrides.get(diagnostic.code)
        if severity is None:
            kept.append(diagnostic)
        elif severity != OFF:
            kept.append(
                Diagnostic(
                    diagnostic.code,
                    severity,
                    diagnostic.start,
                    diagnostic.end,
                    diagnostic.message,
                    diagnostic.related,
                    diagnostic.tags,
                )
            )
    return kept


def _at(occurrence: Occurrence, message: str) -> Related:
    return occurrence.uri, occurrence.marker.key_start, occurrence.marker.key_end, message


def _where(course: CourseSnapshot, occurrence: Occurrence) -> str:
    return course.docs[occurrence.uri].label


def _binding_diagnostics(
    course: CourseSnapshot, entry: DocEntry, marker: Marker
) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    host = course.host
    prefix = host.reserved_prefix_of(marker.key)
    if host.provides(marker.key):
        found.append(
            _diagnostic(
                "reserved-key-binding",
                marker.start,
                marker.end,
                f"{quoted(marker.key)} is provided by {host.title or host.name} and is "
                "read-only: an interaction cannot save an answer to it. Choose another "
                "question text, or read the provided value without binding it.",
            )
        )
    elif prefix is not None:
        found.append(
            _diagnostic(
                "reserved-key-binding",
                marker.start,
                marker.end,
                f"Questions starting with `{prefix}` are reserved by {host.title or host.name} "
                f"for the platform, which rejects binding {quoted(marker.key)}. Choose another "
                "question text.",
            )
        )
    if entry.kind == "reference":
        elsewhere = course.lesson_bindings(marker.key)
        related = tuple(_at(o, "a lesson binds it here") for o in elsewhere[:3])
        found.append(
            _diagnostic(
                "binding-in-reference",
                marker.start,
                marker.end,
                "This is a reference document (see `references` in mfcourse.toml): a binding "
                f"here grants no permission to save the answer to {quoted(marker.key)}. "
                "Bind it in a lesson.",
                related,
            )
        )
    return found


def _read_before_asked(
    course: CourseSnapshot, entry: DocEntry, key: str, bindings: tuple[Occurrence, ...]
) -> _KeyVerdict:
    if entry.kind != "lesson":
        return _QUIET
    first = min(bindings, key=course.position)
    where = "later in this lesson" if first.uri == entry.uri else f"in {_where(course, first)}"
    return _KeyVerdict(
        "read-before-asked",
        f"{quoted(key)} is read here before it is asked: in course order the "
        f"question is first bound {where}. Ask it earlier, or tell the AI what to do "
        "while the answer is missing.",
        (_at(first, "first bound here"),),
        course.position(first),
    )


def _unbound(course: CourseSnapshot, key: str, near_misses: NearMissIndex) -> _KeyVerdict:
    near = near_misses.nearest(key)
    if near is not None:
        related: tuple[Related, ...] = ()
        bound = course.lesson_bindings(near.key)
        if bound:
            related = (_at(min(bound, key=course.position), f"{quoted(near.key)} is bound here"),)
        where = "provided by the host" if course.host.provides(near.key) else "bound"
        return _KeyVerdict(
            "near-miss",
            f"{quoted(key)} is not bound in this course; did you mean "
            f"{quoted(near.key)} ({where})? The two differ only in "
            f"{_difference(key, near.key, near.distance)}, but a different text is a "
            "different question.",
            related,
        )
    return _KeyVerdict(
        "unbound-reference",
        f"No lesson of this course asks {quoted(key)}, and the host does not provide "
        "it, so the AI may have no answer to read. Bind it in an interaction "
        f"(`?[{{{{ {key} }}}} ...]`), or tell the AI to ask for the answer or to use a "
        "stated default.",
    )


def _difference(a: str, b: str, distance: int) -> str:
    if distance:
        return f"{_plural(distance, 'letter')} (after ignoring case, spacing and punctuation)"
    if "".join(a.split()) == "".join(b.split()):
        return "spacing"
    if a.casefold() == b.casefold():
        return "letter case"
    if unicodedata.normalize("NFKC", a) == unicodedata.normalize("NFKC", b):
        return "Unicode form (NFKC)"
    return "spacing, letter case, Unicode form or punctuation"


def _candidates(course: CourseSnapshot) -> set[str]:
    keys = {key for key in course.bindings if course.lesson_bindings(key)}
    return keys | set(course.host.provided_keys)


def near_miss_index(course: CourseSnapshot) -> NearMissIndex:
    """The course's candidate keys (bound in lessons, or host keys), built once per snapshot."""

    def build(previous: NearMissIndex | None, changed: frozenset[str] | None) -> NearMissIndex:
        if previous is None or changed is None:
            return NearMissIndex.build(_candidates(course))
        now = {key for key in changed if course.lesson_bindings(key)}
        now |= {key for key in changed if course.host.provides(key)}
        return previous.updated(now, changed - now)

    return course.cache.get("near-miss", build)
