"""Diagnostics: scanner-level ones for any text, course-level ones from a snapshot."""

from __future__ import annotations

import os
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final, NamedTuple

from mfls.features.at_offset import invalid_span
from mfls.features.binding_spelling import NO_PAGE, BindingSpelling, spelling_of
from mfls.features.facts import PLACE_READ, CourseFacts, facts_of
from mfls.features.gate_values import gate_problems
from mfls.features.lesson_structure import structure_of
from mfls.features.messages import EN, LANGUAGES, bare, brief, counted, quoted, say
from mfls.features.near_miss import Near
from mfls.features.page_checks import page_problems
from mfls.features.suppressions import Unused, directives_of, may_hold_directives, partition
from mfls.syntax.keys import trimmed
from mfls.syntax.model import Interaction, InvalidMarker, Marker, Reason, Role, ScanResult
from mfls.workspace import diagnostic_registry as codes
from mfls.workspace.config import (
    COURSE_FILE,
    CURRENT,
    MARKDOWN_FLOW_03,
    MARKDOWN_FLOW_03_READERS,
    MARKDOWN_FLOW_034,
    MARKDOWN_FLOW_04,
    ConfigProblem,
)
from mfls.workspace.diagnostic_registry import (
    BINDING_IN_REFERENCE,
    COURSE_FILE_INVALID,
    DEFAULT_SEVERITIES,
    EMPTY_INTERACTION,
    EMPTY_INTERACTION_LEGACY,
    LEGACY_BINDING,
    LEGACY_PROFILE_KEY,
    MARKER_CONTROL_CHARACTER,
    MARKER_EMPTY,
    MARKER_LINE_BREAK,
    MARKER_LINE_BREAK_RUNS_ON,
    MARKER_UNCLOSED,
    NEAR_MISS,
    OFF,
    READ_BEFORE_ASKED,
    RESERVED_KEY_BINDING,
    RESERVED_KEY_BINDING_PREFIX,
    RESERVED_KEY_BINDING_PROVIDED,
    RUNTIME_BINDING_IGNORED,
    RUNTIME_BINDING_IGNORED_POSITION,
    RUNTIME_KEY_DIFFERS,
    UNBOUND_REFERENCE,
    UNBOUND_REFERENCE_PAGE,
    UNKNOWN_GATE_VALUE,
    UNUSED_SUPPRESSION,
    UNUSED_SUPPRESSION_UNKNOWN,
)
from mfls.workspace.index import CourseSnapshot, DocEntry, Memo, Occurrence, WorkspaceSnapshot
from mfls.workspace.uris import uri_to_path

Related = tuple[str, int, int, str]
DEPRECATED = "deprecated"


class Diagnostic(NamedTuple):
    """One problem at `[start, end)` of a document's text (a tuple: a dense course makes
    them by the ten thousand)."""

    code: str
    severity: str  # error | warning | information | hint
    start: int
    end: int
    message: str
    related: tuple[Related, ...] = ()
    tags: tuple[str, ...] = ()


_new_tuple = tuple.__new__


def _diagnostic(
    code: str,
    start: int,
    end: int,
    message: str,
    related: tuple[Related, ...] = (),
    tags: tuple[str, ...] = (),
) -> Diagnostic:
    return Diagnostic(code, DEFAULT_SEVERITIES[code], start, end, message, related, tags)


# -- scanner level ----------------------------------------------------------------------


def scan_diagnostics(
    result: ScanResult,
    text: str | None = None,
    quiet_legacy: frozenset[str] = frozenset(),
    target: str = CURRENT,
    reserved: Callable[[str], bool] | None = None,
    language: str = EN,
    spelling: BindingSpelling = NO_PAGE,
) -> list[Diagnostic]:
    """Invalid markers, legacy bindings (but those of the keys in `quiet_legacy`) and
    interactions that ask nothing; `text`, when given, names control characters and
    tells a missing `}}` from a broken line. Under an old `target` (a released
    markdown-flow), what its runtime reads otherwise instead of the legacy hints; a
    binding of a `reserved` key keeps its reserved-key error instead (the `%` form
    would not help). No legacy hint where the learner page is targeted (`spelling`): it
    reads no other form. Messages in `language`, the bindings they advise as `spelling`
    writes them."""
    found = [_invalid(marker, text, language) for marker in result.invalid]
    for interaction in result.interactions:
        asks = interaction.choices or interaction.input is not None
        if interaction.binding is not None and not asks:
            found.append(_asks_nothing(result, interaction, language, spelling))
    if target != CURRENT:
        found.extend(runtime_diagnostics(result, text, target, reserved, language, spelling))
        found.sort(key=lambda d: (d.start, d.end))
        return found
    if not spelling.converts_legacy:
        found.sort(key=lambda d: (d.start, d.end))
        return found
    for marker in result.markers:
        if marker.legacy and marker.key not in quiet_legacy:
            found.append(
                _diagnostic(
                    LEGACY_BINDING,
                    marker.start,
                    marker.end,
                    say(language, LEGACY_BINDING, bare=bare(marker.key)),
                    tags=(DEPRECATED,),
                )
            )
    found.sort(key=lambda d: (d.start, d.end))
    return found


_RUNTIME_NAMES: Final = {
    MARKDOWN_FLOW_04: "markdown-flow 0.4.2",
    MARKDOWN_FLOW_03: "markdown-flow 0.3.1",
    MARKDOWN_FLOW_034: "markdown-flow 0.3.4",
}


def runtime_name(target: str) -> str:
    return _RUNTIME_NAMES.get(target, target)


def runtime_diagnostics(
    result: ScanResult,
    text: str | None,
    target: str,
    reserved: Callable[[str], bool] | None = None,
    language: str = EN,
    spelling: BindingSpelling = NO_PAGE,
) -> list[Diagnostic]:
    """Where the runtime of an old `target` reads a marker otherwise than the memory
    syntax: a `{{ key }}` binding it ignores, a `%{{key}}` binding it does not see (0.3:
    not right after `?[`), a key it never substitutes (0.3: a key holding `}`)."""
    runtime = runtime_name(target)
    found: list[Diagnostic] = []
    for marker in result.markers:
        if marker.role is Role.BINDING and not marker.legacy:
            if reserved is not None and reserved(marker.key):
                continue
            found.append(
                _diagnostic(
                    RUNTIME_BINDING_IGNORED,
                    marker.start,
                    marker.end,
                    say(
                        language,
                        RUNTIME_BINDING_IGNORED,
                        runtime=runtime,
                        binding=spelling.binding(bare(marker.key), True),
                        quoted=quoted(marker.key),
                    ),
                )
            )
        elif (
            marker.legacy
            and target in MARKDOWN_FLOW_03_READERS
            and text is not None
            and text[max(0, marker.start - 2) : marker.start] != "?["
        ):
            found.append(
                _diagnostic(
                    RUNTIME_BINDING_IGNORED,
                    marker.start,
                    marker.end,
                    say(
                        language,
                        RUNTIME_BINDING_IGNORED_POSITION,
                        runtime=runtime,
                        quoted=quoted(marker.key),
                    ),
                )
            )
        if target in MARKDOWN_FLOW_03_READERS and "}" in marker.key:
            found.append(
                _diagnostic(
                    RUNTIME_KEY_DIFFERS,
                    marker.start,
                    marker.end,
                    say(language, RUNTIME_KEY_DIFFERS, runtime=runtime, quoted=quoted(marker.key)),
                )
            )
    return found


def _invalid(marker: InvalidMarker, text: str | None, language: str) -> Diagnostic:
    start, end = invalid_span(marker)
    if marker.reason is Reason.EMPTY:
        return _diagnostic(MARKER_EMPTY, start, end, say(language, MARKER_EMPTY))
    if marker.reason is Reason.LINE_BREAK:
        runs_on = runs_on_text(marker, text, language) if text is not None else None
        if runs_on is not None:
            message = say(language, MARKER_LINE_BREAK_RUNS_ON, runs_on=runs_on)
        else:
            message = say(language, MARKER_LINE_BREAK)
        return _diagnostic(MARKER_LINE_BREAK, start, end, message)
    if marker.reason is Reason.CONTROL_CHARACTER:
        named = _control_character(text[start:end]) if text is not None else None
        which = say(language, "part.which-character", code=named) if named else ""
        message = say(language, MARKER_CONTROL_CHARACTER, which=which)
        return _diagnostic(MARKER_CONTROL_CHARACTER, start, end, message)
    hides = hidden_text(marker, language, "part.hides")
    return _diagnostic(MARKER_UNCLOSED, start, end, say(language, MARKER_UNCLOSED, hides=hides))


def hidden_text(marker: InvalidMarker, language: str, message_id: str) -> str:
    """What an unclosed marker hides, as message `message_id.one` or `.both` ("" for
    nothing)."""
    markers = interactions = ""
    if marker.hidden_markers:
        markers = counted(language, "part.count.markers", marker.hidden_markers)
    if marker.hidden_interactions:
        interactions = counted(language, "part.count.interactions", marker.hidden_interactions)
    if markers and interactions:
        return say(language, f"{message_id}.both", markers=markers, interactions=interactions)
    if markers or interactions:
        return say(language, f"{message_id}.one", what=markers or interactions)
    return ""


_LINE_BREAKS = ("\r\n", "\n", "\r", "\x85", "\u2028", "\u2029")


def runs_on_text(marker: InvalidMarker, text: str, language: str = EN) -> str | None:
    """How a line-broken marker runs past its question, when that is what it does (a
    missing `}}`), else None (a question wrapped over two lines: join them).

    A missing `}}` is read when the key (the trimmed body) holds `{{` or `?[` (it ran
    into another marker or an interaction), or spans three lines or more."""
    closing = marker.closing
    if closing is None:
        return None
    key = trimmed(text[marker.opening[1] : closing[0]])
    if "{{" in key:
        return say(language, "part.runs-on.marker")
    if "?[" in key:
        return say(language, "part.runs-on.interaction")
    lines = key.replace("\r\n", "\n")
    for brk in _LINE_BREAKS[2:]:
        lines = lines.replace(brk, "\n")
    count = lines.count("\n") + 1
    return say(language, "part.runs-on.lines", count=count) if count >= 3 else None


def _asks_nothing(
    result: ScanResult, interaction: Interaction, language: str, spelling: BindingSpelling
) -> Diagnostic:
    at = bisect_left(result.markers, interaction.start, key=lambda m: m.start)
    marker = result.markers[at] if at < len(result.markers) else None
    key = interaction.binding or ""
    legacy = marker is not None and marker.legacy
    message_id = EMPTY_INTERACTION_LEGACY if legacy else EMPTY_INTERACTION
    binding = spelling.binding(key, True)
    message = say(language, message_id, key=key, quoted=quoted(key), binding=binding)
    return _diagnostic(EMPTY_INTERACTION, interaction.start, interaction.end, message)


def _control_character(body: str) -> str | None:
    for char in body[2:]:
        code = ord(char)
        if (code < 0x20 and char not in "\n\r") or (0x7F <= code <= 0x9F and code != 0x85):
            return f"U+{code:04X}"
    return None


# -- course level -----------------------------------------------------------------------


def document_diagnostics(
    snapshot: WorkspaceSnapshot, uri: str, language: str = EN
) -> list[Diagnostic]:
    """Every diagnostic of an indexed document, with the course's severities applied,
    its messages in `language`.

    For the `mfcourse.toml` of a course, the problems of that file."""
    found = snapshot.entry(uri)
    if found is None:
        course_id = _course_of_course_file(snapshot, uri)
        if course_id is None:
            course_id = course_of_structure_file(snapshot, uri)
            if course_id is None:
                return []
            return structure_file_diagnostics(snapshot, course_id, language)
        return course_file_diagnostics(snapshot, course_id, language)
    course, entry = found
    return entry_diagnostics(course, entry, language)


def document_findings(snapshot: WorkspaceSnapshot, uri: str, language: str = EN) -> Findings:
    """`document_diagnostics`, with the diagnostics its suppression comments silence."""
    found = snapshot.entry(uri)
    if found is None:
        return Findings(document_diagnostics(snapshot, uri, language), [], ())
    return entry_findings(*found, language)


def entry_diagnostics(
    course: CourseSnapshot, entry: DocEntry, language: str = EN
) -> list[Diagnostic]:
    """`document_diagnostics` of a document of `course`: the scanner's, then those of the
    rules of `MARKER_RULES` in text order, then the lesson structure's, but those its
    suppression comments silence, then those of its suppressions that silence nothing."""
    return entry_findings(course, entry, language).kept


class Findings(NamedTuple):
    """A document's diagnostics as every view shows them (`kept`), those its suppression
    comments silence, and those suppressions that silence nothing
    (`features/suppressions.py`): decided here, once."""

    kept: list[Diagnostic]
    suppressed: list[Diagnostic]
    unused: tuple[Unused, ...]


def entry_findings(course: CourseSnapshot, entry: DocEntry, language: str = EN) -> Findings:
    """`entry_diagnostics`, with what the suppressions silence and those that silence
    nothing (reported as unused-suppression among the kept ones)."""
    diagnostics = _entry_problems(course, entry, language)
    text = entry.text
    if not may_hold_directives(text):
        return Findings(diagnostics, [], ())
    directives = directives_of(text, entry.result)
    if not directives:
        return Findings(diagnostics, [], ())
    split = partition(text, directives, diagnostics, DEFAULT_SEVERITIES)
    reports = [_unused_suppression(found, language) for found in split.unused]
    return Findings(split.kept + _with_severities(course, reports), split.suppressed, split.unused)


def _unused_suppression(found: Unused, language: str) -> Diagnostic:
    directive = found.directive
    if found.unknown:
        codes = ", ".join(f"`{code}`" for code in found.unknown)
        message = say(language, UNUSED_SUPPRESSION_UNKNOWN, codes=codes)
    elif found.unused == ("",):
        message = say(
            language,
            UNUSED_SUPPRESSION,
            codes=say(language, "part.suppressed.any"),
            them=say(language, "part.suppressed.it"),
        )
    else:
        codes = ", ".join(f"`{code}`" for code in found.unused)
        them = say(language, "part.suppressed.it") if found.all_unused else codes
        message = say(language, UNUSED_SUPPRESSION, codes=codes, them=them)
    return _diagnostic(
        UNUSED_SUPPRESSION, directive.start, directive.end, message, tags=("unnecessary",)
    )


def _entry_problems(course: CourseSnapshot, entry: DocEntry, language: str) -> list[Diagnostic]:
    """Every problem of a document of `course`, suppressed or not."""
    facts = facts_of(course)
    diagnostics = scan_diagnostics(
        entry.marker_scan,
        entry.text,
        facts.profile_keys,
        entry.target,
        facts.reserved,
        language,
        spelling_of(course.config),
    )
    by_marker: list[Diagnostic] = []
    for rule in MARKER_RULES:
        by_marker.extend(rule(course, entry, facts, language))
    by_marker.sort(key=lambda d: d.start)  # stable: one marker's codes in rule order
    diagnostics.extend(by_marker)
    diagnostics.extend(_unclosed_fixed_output(course, entry, language))
    diagnostics.extend(_unknown_gate_values(course, entry, language))
    diagnostics.extend(_page_problems(course, entry, language))
    return _with_severities(course, diagnostics)


def _page_problems(course: CourseSnapshot, entry: DocEntry, language: str) -> list[Diagnostic]:
    """page-unreadable-binding, page-reads-otherwise: where AI-Shifu's learner page reads
    the document's interactions otherwise than its runtime (`features/page_checks.py`)."""
    runtime = "MarkdownFlow" if entry.target == CURRENT else runtime_name(entry.target)
    return [
        _diagnostic(code, start, end, message)
        for code, start, end, message in page_problems(course, entry, runtime, language)
    ]


Rule = Callable[[CourseSnapshot, DocEntry, CourseFacts, str], Iterable[Diagnostic]]
"""A course-level rule: the diagnostics of one document that one verdict of the facts
gives, each at its marker."""


def _legacy_profile_bindings(
    course: CourseSnapshot, entry: DocEntry, facts: CourseFacts, language: str
) -> Iterator[Diagnostic]:
    """legacy-profile-key: a `%{{...}}` binding of a host's legacy learner-profile key."""
    for key, bindings in entry.keys.bindings.items():
        kept = [m for m in bindings if facts.legacy_profile(m)]
        if kept:
            message = _legacy_profile_message(facts, key, language)
            yield from (_diagnostic(LEGACY_PROFILE_KEY, m.start, m.end, message) for m in kept)


def _reserved_bindings(
    course: CourseSnapshot, entry: DocEntry, facts: CourseFacts, language: str
) -> Iterator[Diagnostic]:
    """reserved-key-binding: a binding of a key the host provides or reserves (but a
    legacy learner-profile one)."""
    for key, bindings in entry.keys.bindings.items():
        if facts.reserved(key):
            message = _reserved_message(facts, key, language)
            for m in bindings:
                if not facts.legacy_profile(m):
                    yield _diagnostic(RESERVED_KEY_BINDING, m.start, m.end, message)


def _reference_bindings(
    course: CourseSnapshot, entry: DocEntry, facts: CourseFacts, language: str
) -> Iterator[Diagnostic]:
    """binding-in-reference: a binding in a reference document."""
    if entry.kind != "reference":
        return
    there = say(language, "related.lesson-binds")
    for key, bindings in entry.keys.bindings.items():
        related = tuple(_at(o, there) for o in facts.bindings_in_lessons(key)[:3])
        message = say(language, BINDING_IN_REFERENCE, quoted=quoted(key))
        yield from (
            _diagnostic(BINDING_IN_REFERENCE, m.start, m.end, message, related) for m in bindings
        )


def _ignored_reserved_bindings(
    course: CourseSnapshot, entry: DocEntry, facts: CourseFacts, language: str
) -> Iterator[Diagnostic]:
    """reserved-key-binding under an old target: a `{{ key }}` binding binds nothing there,
    but one of a reserved key keeps its error (the `%` form the runtime reads would be
    refused too)."""
    if entry.target == CURRENT:
        return
    for marker in entry.marker_scan.markers:
        key = marker.key
        if marker.role is Role.BINDING and not marker.legacy and facts.reserved(key):
            message = _reserved_message(facts, key, language)
            yield _diagnostic(RESERVED_KEY_BINDING, marker.start, marker.end, message)


def _reads(
    course: CourseSnapshot, entry: DocEntry, facts: CourseFacts, language: str
) -> list[Diagnostic]:
    """read-before-asked, unbound-reference, near-miss: the reads (references the host
    substitutes) the facts judge so (`CourseFacts.reads_of`)."""
    substituted = facts.substituted
    reads_of = facts.reads_of
    binding = Role.BINDING
    order = entry.order
    found: list[Diagnostic] = []
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
            verdict = _unbound_verdict(course, facts, key, language)
        else:
            verdict = _read_before_asked(course, facts, entry, key, language)
            read = _before(read, order, before)
        code, message, related = verdict.code, verdict.message, verdict.related
        severity = DEFAULT_SEVERITIES[code]
        # Plain tuples of the fields: the named tuple's own `__new__` is Python code.
        found.extend(
            _new_tuple(Diagnostic, (code, severity, m.start, m.end, message, related, ()))
            for m in read
        )
    return found


MARKER_RULES: Final[tuple[Rule, ...]] = (
    _legacy_profile_bindings,
    _reserved_bindings,
    _reference_bindings,
    _ignored_reserved_bindings,
    _reads,
)
"""The course-level rules over the facts, in the order one marker's codes are listed."""


FIXED_OUTPUT_UNCLOSED = say(EN, codes.FIXED_OUTPUT_UNCLOSED)
"""The English message of fixed-output-unclosed."""


def _unclosed_fixed_output(
    course: CourseSnapshot, entry: DocEntry, language: str
) -> list[Diagnostic]:
    structure = structure_of(course, entry)
    if structure is None or not structure.unclosed:
        return []
    message = say(language, codes.FIXED_OUTPUT_UNCLOSED)
    return [
        _diagnostic(codes.FIXED_OUTPUT_UNCLOSED, s.start, s.end, message)
        for s in structure.unclosed
    ]


def _unknown_gate_values(
    course: CourseSnapshot, entry: DocEntry, language: str
) -> list[Diagnostic]:
    """unknown-gate-value: an AI-Shifu button value starting with `_sys_` but no gate."""
    return [
        _diagnostic(
            UNKNOWN_GATE_VALUE,
            found.start,
            found.end,
            say(language, UNKNOWN_GATE_VALUE, short=brief(found.value, 28)),
        )
        for found in gate_problems(course, entry)
    ]


def _before(markers: list[Marker], order: int, limit: tuple[int, int]) -> list[Marker]:
    """The markers (in text order, of a document of course `order`) that come at or
    before course position `limit`."""
    if order != limit[0]:
        return markers if order < limit[0] else []
    return markers[: bisect_right(markers, limit[1], key=lambda m: m.start)]


class _KeyVerdict(NamedTuple):
    """What a document's judged references to one key get (worded once per key)."""

    code: str
    message: str
    related: tuple[Related, ...] = ()


def _course_of_course_file(snapshot: WorkspaceSnapshot, uri: str) -> str | None:
    path = uri_to_path(uri)
    if path is None or os.path.basename(path) != COURSE_FILE:
        return None
    for course in snapshot.courses.values():
        if course.config_path == path:
            return course.id
    return None


def course_file_diagnostics(
    snapshot: WorkspaceSnapshot, course_id: str, language: str = EN
) -> list[Diagnostic]:
    """Problems of a course's `mfcourse.toml`, as offsets into that file's text."""
    course = snapshot.courses.get(course_id)
    if course is None:
        return []
    return course_config_diagnostics(course, language)


def course_config_diagnostics(course: CourseSnapshot, language: str = EN) -> list[Diagnostic]:
    """`course_file_diagnostics` of `course`."""
    diagnostics = [
        Diagnostic(
            COURSE_FILE_INVALID,
            "error" if problem.fatal or problem.over_limit else "warning",
            problem.start,
            problem.end,
            config_problem_message(problem, language),
        )
        for problem in course.problems
    ]
    return _with_severities(course, diagnostics)


def course_of_structure_file(snapshot: WorkspaceSnapshot, uri: str) -> str | None:
    """The course whose `structure.json` (an AI-Shifu course folder's) `uri` names."""
    path = uri_to_path(uri)
    if path is None:
        return None
    for course in snapshot.courses.values():
        layout = course.config.layout
        if layout is not None and layout.structure == path:
            return course.id
    return None


def structure_file_diagnostics(
    snapshot: WorkspaceSnapshot, course_id: str, language: str = EN
) -> list[Diagnostic]:
    """Problems of the `structure.json` of an AI-Shifu course folder, as offsets into its
    text: `course-file-invalid`, as those of `mfcourse.toml`."""
    course = snapshot.courses.get(course_id)
    layout = course.config.layout if course is not None else None
    if course is None or layout is None:
        return []
    diagnostics = [
        Diagnostic(
            COURSE_FILE_INVALID,
            "error",
            problem.start,
            problem.end,
            config_problem_message(problem, language),
        )
        for problem in layout.problems
    ]
    return _with_severities(course, diagnostics)


def config_problem_message(problem: ConfigProblem, language: str = EN) -> str:
    if language == EN or not problem.id:
        return problem.message
    return say(language, problem.id, **dict(problem.args))


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


def _reserved_message(facts: CourseFacts, key: str, language: str) -> str:
    name = facts.host_name
    if facts.provided(key):
        return say(
            language,
            RESERVED_KEY_BINDING_PROVIDED,
            short=brief(key),
            quoted=quoted(key),
            host=name,
        )
    prefix = facts.reserved_prefix(key)
    return say(language, RESERVED_KEY_BINDING_PREFIX, prefix=prefix, host=name, quoted=quoted(key))


def _legacy_profile_message(facts: CourseFacts, key: str, language: str) -> str:
    keys = ", ".join(f"`{k}`" for k in sorted(facts.profile_keys))
    return say(
        language,
        LEGACY_PROFILE_KEY,
        profile=quoted(key),
        key=key,
        host=facts.host_name,
        keys=keys,
        prefix=facts.reserved_prefix(key) or "",
    )


def _read_before_asked(
    course: CourseSnapshot, facts: CourseFacts, entry: DocEntry, key: str, language: str
) -> _KeyVerdict:
    first = facts.first_asking(key)
    assert first is not None
    here = first.uri == entry.uri
    made: dict[tuple[str, bool], _KeyVerdict]
    made = course.cache.get(
        _READ_BEFORE_ASKED_MEMOS.get(language) or _READ_BEFORE_ASKED_MEMOS[EN], _fresh
    )
    verdict = made.get((key, here))
    if verdict is not None:
        return verdict
    if here:
        where = say(language, "part.where.later")
    else:
        where = say(language, "part.where.in", label=_where(course, first))
    verdict = made[key, here] = _KeyVerdict(
        READ_BEFORE_ASKED,
        say(language, READ_BEFORE_ASKED, short=brief(key), where=where),
        (_at(first, say(language, "related.first-bound")),),
    )
    return verdict


_READ_BEFORE_ASKED_MEMOS: Final = {
    language: Memo(f"read-before-asked {language}") for language in LANGUAGES
}
_UNBOUND_NOW: Final = {language: Memo(f"unbound verdicts now {language}") for language in LANGUAGES}
_UNBOUND_KEPT: Final = {
    language: Memo(f"unbound verdicts kept {language}") for language in LANGUAGES
}
_VerdictBasis = tuple[object, ...]
"""What an unbound verdict says: the near key, and where that key is first bound."""
VERDICTS_KEPT = 50_000


def _unbound_verdict(
    course: CourseSnapshot, facts: CourseFacts, key: str, language: str
) -> _KeyVerdict:
    """The worded verdict of an unbound `key` in `language`. It depends on the course
    only, so it is made once, and kept from snapshot to snapshot of the course while its
    basis holds (the same near key, first bound at the same place): a keystroke words only
    the verdicts it changes."""
    settled: dict[str, _KeyVerdict] = course.cache.get(
        _UNBOUND_NOW.get(language) or _UNBOUND_NOW[EN], _fresh
    )
    verdict = settled.get(key)
    if verdict is not None:
        return verdict
    memo: dict[str, tuple[_VerdictBasis, _KeyVerdict]]
    memo = course.cache.get(_UNBOUND_KEPT.get(language) or _UNBOUND_KEPT[EN], _kept_verdicts)
    near = facts.near(key)
    bound = None if near is None else facts.first_asking(near.key)
    basis: _VerdictBasis = (near,)
    if near is not None and bound is not None:
        basis = (near, bound.uri, bound.marker.key_start, bound.marker.key_end)
    seen = memo.get(key)
    if seen is not None and seen[0] == basis:
        verdict = seen[1]
    else:
        verdict = _unbound(course, facts, key, near, bound, language)
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
    language: str,
) -> _KeyVerdict:
    if near is not None:
        related: tuple[Related, ...] = ()
        if bound is not None:
            related = (_at(bound, say(language, "related.near-bound", quoted=quoted(near.key))),)
        how = "part.near.provided" if facts.provided(near.key) else "part.near.bound"
        message = say(
            language,
            NEAR_MISS,
            near=brief(near.key, 38),
            near_full=quoted(near.key),
            how=say(language, how),
            quoted=quoted(key),
            difference=_difference(key, near.key, near.distance, language),
        )
        return _KeyVerdict(NEAR_MISS, message, related)
    spelling = spelling_of(course.config)
    legacy = course.config.runtime_target != CURRENT
    if spelling.writable(key):
        binding = spelling.binding(key, legacy)
        message = say(language, UNBOUND_REFERENCE, short=brief(key), binding=binding)
        return _KeyVerdict(UNBOUND_REFERENCE, message)
    taken = course.keys_taken(course.host.provided_keys)
    readable = spelling.readable_key(key, taken)
    message = say(
        language,
        UNBOUND_REFERENCE_PAGE,
        short=brief(key),
        readable=readable,
        binding=spelling.binding(readable, legacy),
    )
    return _KeyVerdict(UNBOUND_REFERENCE, message)


def _difference(a: str, b: str, distance: int, language: str) -> str:
    if distance:
        return counted(language, "part.differs.letters", distance)
    if "".join(a.split()) == "".join(b.split()):
        return say(language, "part.differs.spacing")
    if a.casefold() == b.casefold():
        return say(language, "part.differs.case")
    if unicodedata.normalize("NFKC", a) == unicodedata.normalize("NFKC", b):
        return say(language, "part.differs.nfkc")
    return say(language, "part.differs.any")
