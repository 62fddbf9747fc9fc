"""A place in a course as a Markdown link: `[a.md:3](file:///course/a.md#L3)`, which
VS Code opens at the line and other clients at least open."""

from __future__ import annotations

from mfls.text.lines import line_number
from mfls.workspace.index import CourseSnapshot, Occurrence

_MARKDOWN_LABEL_SPECIAL = "\\[]*_`<>"


def link_label(text: str) -> str:
    """`text` safe inside a Markdown link's brackets."""
    return "".join("\\" + ch if ch in _MARKDOWN_LABEL_SPECIAL else ch for ch in text)


def place_link(course: CourseSnapshot, uri: str, offset: int) -> str:
    """`[name:line](uri#Lline)`: the document `uri` of `course` at `offset`."""
    entry = course.docs[uri]
    line = line_number(entry.text, offset)
    target = entry.uri.replace("(", "%28").replace(")", "%29").replace(" ", "%20")
    return f"[{link_label(entry.label)}:{line}]({target}#L{line})"


def occurrence_link(course: CourseSnapshot, occurrence: Occurrence) -> str:
    return place_link(course, occurrence.uri, occurrence.marker.start)
