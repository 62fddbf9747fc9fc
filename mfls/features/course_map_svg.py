"""The course map as a static SVG picture (for a README or a review): lessons as
columns, questions as lanes, one shape per kind of place, and the legend. Every author
text is escaped; the picture references nothing outside itself."""

from __future__ import annotations

from typing import Final
from xml.sax.saxutils import escape

from mfls.features.course_map import CourseMap
from mfls.features.facts import (
    KINDS,
    PLACE_ASKED,
    PLACE_LEGACY_PROFILE,
    PLACE_NEAR_MISS,
    PLACE_READ,
    PLACE_READ_BEFORE_ASKED,
    PLACE_REFERENCE_BINDING,
    PLACE_RESERVED,
    PLACE_UNBOUND,
    RANK,
)

CELL: Final = 26
LANE: Final = 22
LABEL: Final = 320
HEAD: Final = 150
LEGEND_LINE: Final = 20
_LABEL_CHARS: Final = 44


def _text(value: str) -> str:
    """`value` safe as SVG character data: escaped, with characters XML forbids replaced."""
    kept = "".join(
        ch if ch in "\t\n\r" or (ch >= " " and not 0xD800 <= ord(ch) <= 0xDFFF) else "\ufffd"
        for ch in value
    )
    return escape(kept.replace("\ufffe", "\ufffd").replace("\uffff", "\ufffd"))


def _short(value: str, limit: int = _LABEL_CHARS) -> str:
    one_line = " ".join(value.split())
    return one_line if len(one_line) <= limit else one_line[: limit - 1] + "…"


def shape(kind: str, x: float, y: float) -> str:
    """The SVG shape of a kind of place, centred on (x, y)."""
    if kind == PLACE_ASKED:
        return f'<circle cx="{x}" cy="{y}" r="7" fill="#1f8f4e"/>'
    if kind == PLACE_LEGACY_PROFILE:
        return f'<circle cx="{x}" cy="{y}" r="7" fill="#b7791f"/>'
    if kind == PLACE_REFERENCE_BINDING:
        return f'<circle cx="{x}" cy="{y}" r="6" fill="none" stroke="#1f8f4e" stroke-width="3"/>'
    if kind == PLACE_READ:
        return f'<rect x="{x - 4.5}" y="{y - 4.5}" width="9" height="9" rx="2" fill="#3b6fd8"/>'
    if kind == PLACE_READ_BEFORE_ASKED:
        return f'<polygon points="{x},{y - 7} {x + 7},{y + 6} {x - 7},{y + 6}" fill="#e8790c"/>'
    if kind == PLACE_UNBOUND:
        return (
            f'<path d="M{x - 6},{y - 6} L{x + 6},{y + 6} M{x + 6},{y - 6} L{x - 6},{y + 6}" '
            'stroke="#c62828" stroke-width="3.5" stroke-linecap="round"/>'
        )
    if kind == PLACE_NEAR_MISS:
        return f'<polygon points="{x},{y - 7} {x + 7},{y} {x},{y + 7} {x - 7},{y}" fill="#8e44ad"/>'
    if kind == PLACE_RESERVED:
        return (
            f'<rect x="{x - 7}" y="{y - 7}" width="14" height="14" rx="2" fill="#5d1010"/>'
            f'<path d="M{x - 5},{y + 5} L{x + 5},{y - 5}" stroke="#f0a0a0" stroke-width="2.5"/>'
        )
    return (
        f'<polygon points="{x},{y - 7} {x + 7},{y} {x},{y + 7} {x - 7},{y}" fill="none" '
        'stroke="#6b7280" stroke-width="2"/>'
    )


def map_svg(course_map: CourseMap) -> str:
    lessons, lanes = course_map.lessons, course_map.keys
    legend_top = HEAD + LANE * len(lanes) + 60
    width = LABEL + CELL * max(1, len(lessons)) + 20
    height = legend_top + LEGEND_LINE * len(KINDS) + 20
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f"<title>{_text(course_map.name)} · course map</title>",
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        f'<text x="10" y="22" font-size="16" font-weight="bold">{_text(course_map.name)}</text>',
    ]
    for lesson in lessons:
        x = LABEL + CELL * lesson.index + CELL / 2
        style = ' font-style="italic" fill="#5b6476"' if lesson.kind == "reference" else ""
        out.append(
            f'<text transform="translate({x + 4},{HEAD - 8}) rotate(-60)"{style}>'
            f"{_text(_short(lesson.title, 28))}</text>"
        )
        out.append(
            f'<line x1="{x - CELL / 2}" y1="{HEAD}" x2="{x - CELL / 2}" '
            f'y2="{HEAD + LANE * len(lanes)}" stroke="#eef0f4"/>'
        )
    for row, lane in enumerate(lanes):
        y = HEAD + LANE * row
        if row % 2:
            out.append(f'<rect x="0" y="{y}" width="{width}" height="{LANE}" fill="#f7f8fb"/>')
        weight = ' fill="#5b6476"' if lane.group == "system" else ""
        out.append(f'<text x="10" y="{y + LANE / 2 + 4}"{weight}>{_text(_short(lane.key))}</text>')
        cells: dict[int, str] = {}
        for place in lane.places:
            known = cells.get(place.lesson)
            if known is None or RANK.index(place.kind) < RANK.index(known):
                cells[place.lesson] = place.kind
        for lesson_index, kind in sorted(cells.items()):
            out.append(shape(kind, LABEL + CELL * lesson_index + CELL / 2, y + LANE / 2))
    for row, kind in enumerate(KINDS):
        y = legend_top + LEGEND_LINE * row
        out.append(shape(kind, 20, y))
        out.append(f'<text x="36" y="{y + 4}">{_text(course_map.legend[kind])}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
