"""A document's diagnostics, as every view shows them: the findings of the rules
(`scan_rules` for any text, `key_rules` and `document_rules` in a course,
`course_file_rules` for its own files), worded once by `diagnostic_wording`, then those
its suppression comments silence set apart and the course's severities applied."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, NamedTuple

from mfls.features.binding_spelling import NO_PAGE, BindingSpelling, spelling_of
from mfls.features.course_file_rules import (
    config_findings,
    course_of_course_file,
    course_of_structure_file,
    structure_findings,
)
from mfls.features.diagnostic_wording import (
    config_problem_message,
    hidden_text,
    runs_on_text,
    word,
    worded,
)
from mfls.features.document_rules import document_findings as construct_findings
from mfls.features.facts import facts_of
from mfls.features.finding import DEPRECATED, UNNECESSARY, Diagnostic, Finding, Related, said
from mfls.features.key_rules import key_findings, settle_reads
from mfls.features.scan_rules import runtime_name, scan_findings
from mfls.features.suppressions import Unused, directives_of, may_hold_directives, partition
from mfls.syntax.model import ScanResult
from mfls.workspace import diagnostic_registry as codes
from mfls.workspace.catalog import EN
from mfls.workspace.config import CURRENT
from mfls.workspace.diagnostic_registry import (
    DEFAULT_SEVERITIES,
    OFF,
    UNUSED_SUPPRESSION,
    UNUSED_SUPPRESSION_UNKNOWN,
)
from mfls.workspace.index import CourseSnapshot, DocEntry, WorkspaceSnapshot

__all__ = [
    "DEPRECATED",
    "FIXED_OUTPUT_UNCLOSED",
    "Diagnostic",
    "Findings",
    "Related",
    "config_problem_message",
    "course_config_diagnostics",
    "course_file_diagnostics",
    "course_of_structure_file",
    "document_diagnostics",
    "document_findings",
    "entry_diagnostics",
    "entry_findings",
    "hidden_text",
    "runs_on_text",
    "runtime_name",
    "scan_diagnostics",
    "structure_file_diagnostics",
]

FIXED_OUTPUT_UNCLOSED: Final = word(said(codes.FIXED_OUTPUT_UNCLOSED))
"""The English message of fixed-output-unclosed."""


def scan_diagnostics(
    result: ScanResult,
    text: str | None = None,
    quiet_legacy: frozenset[str] = frozenset(),
    target: str = CURRENT,
    reserved: Callable[[str], bool] | None = None,
    language: str = EN,
    spelling: BindingSpelling = NO_PAGE,
) -> list[Diagnostic]:
    """The findings of `scan_rules.scan_findings`, worded in `language`."""
    return worded(scan_findings(result, text, quiet_legacy, target, reserved, spelling), language)


def document_diagnostics(
    snapshot: WorkspaceSnapshot, uri: str, language: str = EN
) -> list[Diagnostic]:
    """Every diagnostic of an indexed document, with the course's severities applied,
    its messages in `language`.

    For the `mfcourse.toml` of a course, the problems of that file."""
    found = snapshot.entry(uri)
    if found is None:
        course_id = course_of_course_file(snapshot, uri)
        if course_id is None:
            course_id = course_of_structure_file(snapshot, uri)
            if course_id is None:
                return []
            return structure_file_diagnostics(snapshot, course_id, language)
        return course_file_diagnostics(snapshot, course_id, language)
    course, entry = found
    return entry_diagnostics(course, entry, language)


def settle_findings(course: CourseSnapshot) -> None:
    """Make now what the findings of every document of `course` share: before processes
    are forked to make those of many documents, so that each does not make it again."""
    settle_reads(course, facts_of(course))


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
    key rules in text order, then the other constructs', but those its suppression
    comments silence, then those of its suppressions that silence nothing."""
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
    reports = worded([_unused_suppression(found) for found in split.unused], language)
    return Findings(split.kept + _with_severities(course, reports), split.suppressed, split.unused)


def _unused_suppression(found: Unused) -> Finding:
    directive = found.directive
    if found.unknown:
        named = ", ".join(f"`{code}`" for code in found.unknown)
        words = said(UNUSED_SUPPRESSION_UNKNOWN, codes=named)
    elif found.unused == ("",):
        it = said("part.suppressed.it")
        words = said(UNUSED_SUPPRESSION, codes=said("part.suppressed.any"), them=it)
    else:
        named = ", ".join(f"`{code}`" for code in found.unused)
        them: object = said("part.suppressed.it") if found.all_unused else named
        words = said(UNUSED_SUPPRESSION, codes=named, them=them)
    return Finding(UNUSED_SUPPRESSION, directive.start, directive.end, words, (), (UNNECESSARY,))


def _entry_problems(course: CourseSnapshot, entry: DocEntry, language: str) -> list[Diagnostic]:
    """Every problem of a document of `course`, suppressed or not."""
    facts = facts_of(course)
    found = scan_findings(
        entry.marker_scan,
        entry.text,
        facts.profile_keys,
        entry.target,
        facts.reserved,
        spelling_of(course.config),
    )
    diagnostics = worded(found, language, course)
    by_marker = worded(key_findings(course, entry, facts), language, course)
    by_marker.sort(key=lambda d: d.start)  # stable: one marker's codes in rule order
    diagnostics.extend(by_marker)
    diagnostics.extend(worded(construct_findings(course, entry), language, course))
    return _with_severities(course, diagnostics)


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
    return _with_severities(course, worded(config_findings(course), language))


def structure_file_diagnostics(
    snapshot: WorkspaceSnapshot, course_id: str, language: str = EN
) -> list[Diagnostic]:
    """Problems of the `structure.json` of an AI-Shifu course folder, as offsets into its
    text: `course-file-invalid`, as those of `mfcourse.toml`."""
    course = snapshot.courses.get(course_id)
    if course is None:
        return []
    return _with_severities(course, worded(structure_findings(course), language))


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
            kept.append(diagnostic._replace(severity=severity))
    return kept
