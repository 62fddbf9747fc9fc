"""The rules of a document's constructs in its course, beyond its keys: fixed output left
open (`!===` without its end), a `_sys_` button value that is no gate, and where AI-Shifu's
learner page reads an interaction otherwise than the runtime (`features/page_checks.py`).
Each yields `Finding`s; `diagnostic_wording` words them."""

from __future__ import annotations

from mfls.features.finding import Finding, Said, said
from mfls.features.gate_values import gate_problems
from mfls.features.lesson_structure import structure_of
from mfls.features.page_checks import page_findings
from mfls.features.scan_rules import runtime_name
from mfls.workspace.catalog import brief
from mfls.workspace.config import CURRENT
from mfls.workspace.diagnostic_registry import FIXED_OUTPUT_UNCLOSED, UNKNOWN_GATE_VALUE
from mfls.workspace.index import CourseSnapshot, DocEntry


def document_findings(course: CourseSnapshot, entry: DocEntry) -> list[Finding]:
    """fixed-output-unclosed, unknown-gate-value, then the learner page's findings
    (page-unreadable-binding, page-reads-otherwise) of a document of `course`."""
    found: list[Finding] = []
    structure = structure_of(course, entry)
    if structure is not None and structure.unclosed:
        words = Said(FIXED_OUTPUT_UNCLOSED)
        found.extend(
            Finding(FIXED_OUTPUT_UNCLOSED, s.start, s.end, words) for s in structure.unclosed
        )
    found.extend(
        Finding(
            UNKNOWN_GATE_VALUE,
            gate.start,
            gate.end,
            said(UNKNOWN_GATE_VALUE, short=brief(gate.value, 28)),
        )
        for gate in gate_problems(course, entry)
    )
    runtime = "MarkdownFlow" if entry.target == CURRENT else runtime_name(entry.target)
    found.extend(page_findings(course, entry, runtime))
    return found
