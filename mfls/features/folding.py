"""Folding ranges: heading sections, interactions, fenced code and HTML blocks (HTML
comments as comments) over several lines, and on AI-Shifu the prompt blocks and `!===`
fixed output."""

from __future__ import annotations

from dataclasses import dataclass

from mfls.features.lesson_structure import structure_of
from mfls.syntax.model import BlockKind, ScanResult
from mfls.workspace.ai_shifu_structure import Structure
from mfls.workspace.index import WorkspaceSnapshot

HTML_COMMENT_BLOCK = 2  # the CommonMark HTML block type of `<!-- ... -->`


@dataclass(frozen=True, slots=True)
class Fold:
    start: int  # offsets; the front end folds from start's line to end's line
    end: int
    kind: str  # "section" | "interaction" | "code" | "html" | "comment" | "block" | "fixed"


def folding_ranges(snapshot: WorkspaceSnapshot, uri: str) -> list[Fold]:
    found = snapshot.entry(uri)
    if found is None:
        return []
    course, entry = found
    return document_folds(entry.text, entry.result, structure_of(course, entry))


def _trimmed(text: str, start: int, end: int) -> int:
    return start + len(text[start:end].rstrip())


def document_folds(text: str, result: ScanResult, structure: Structure | None = None) -> list[Fold]:
    """The folds of one document that span more than one line, sorted by start."""
    folds: list[Fold] = []
    headings = [b for b in result.blocks if b.kind is BlockKind.HEADING]
    for i, heading in enumerate(headings):
        end = len(text)
        for later in headings[i + 1 :]:
            if later.level <= heading.level:
                end = later.start
                break
        folds.append(Fold(heading.start, _trimmed(text, heading.start, end), "section"))
    for block in result.blocks:
        if block.kind is BlockKind.FENCED_CODE:
            folds.append(Fold(block.start, block.end, "code"))
        elif block.kind is BlockKind.HTML_BLOCK:
            kind = "comment" if block.level == HTML_COMMENT_BLOCK else "html"
            folds.append(Fold(block.start, block.end, kind))
    folds.extend(Fold(i.start, i.end, "interaction") for i in result.interactions)
    if structure is not None:
        for lesson_block in structure.blocks:
            folds.append(Fold(lesson_block.start, lesson_block.end, "block"))
            folds.extend(
                Fold(span.start, span.end, "fixed")
                for span in lesson_block.spans
                if span.fence and span.closed
            )
    multi = [f for f in folds if "\n" in text[f.start : f.end]]
    multi.sort(key=lambda f: (f.start, -f.end))
    return multi
