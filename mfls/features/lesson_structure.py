"""The AI-Shifu lesson structure of an indexed document, for the features that show it."""

from __future__ import annotations

from mfls.workspace.ai_shifu_structure import Structure, scanned_structure
from mfls.workspace.index import CourseSnapshot, DocEntry

AI_SHIFU: str = "ai-shifu"


def structure_of(course: CourseSnapshot, entry: DocEntry) -> Structure | None:
    """The blocks of `entry` when its course runs on AI-Shifu, else None."""
    if course.host.name != AI_SHIFU:
        return None
    return scanned_structure(entry.text, entry.result)
