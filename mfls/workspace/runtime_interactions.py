"""Interactions as the runtime of a course target reads them.

The scanner reads the memory syntax, where an interaction has no escapes and `\\]`
closes it like any `]` (docs/syntax.md rule 18). markdown-flow 0.3.4 and 0.4.2 read
option text with *selective* delimiter escapes (their `markdown_flow/escaping.py`): a
backslash before `|`, `/`, `.` or `]` makes that character ordinary text, and every other
backslash (`$\\pi$`, `\\\\`) stays text. This module re-reads the scanner's interactions
under that rule for the targets whose runtime has it: where the interaction ends when
`\\]` appears, how its body splits into choices and an input hint, and the choices'
texts with the escapes resolved. Offsets stay offsets into the document.

Not modelled (the scanner's reading stays): an interaction whose every `]` is escaped,
which such a runtime does not read as an interaction at all.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from typing import Final

from mfls.syntax.interactions import split_body
from mfls.syntax.model import Choice, Interaction, Marker, Operator, pack_operators
from mfls.workspace.config import MARKDOWN_FLOW_034, MARKDOWN_FLOW_04

ESCAPING_TARGETS: Final = frozenset({MARKDOWN_FLOW_034, MARKDOWN_FLOW_04})
"""The targets whose runtime reads delimiter escapes inside interactions."""
ESCAPABLE: Final = "|/.]"
_BLANK_LINE = re.compile(r"\n[ \t]*(?:\r?\n|$)")


def has_escapes(target: str) -> bool:
    return target in ESCAPING_TARGETS


def is_escape(text: str, index: int) -> bool:
    """Whether the backslash at `index` escapes the character after it."""
    return text[index] == "\\" and index + 1 < len(text) and text[index + 1] in ESCAPABLE


def unescape(text: str) -> str:
    """`text` with its delimiter escapes resolved; every other backslash kept."""
    if "\\" not in text:
        return text
    out: list[str] = []
    index = 0
    while index < len(text):
        if is_escape(text, index):
            out.append(text[index + 1])
            index += 2
        else:
            out.append(text[index])
            index += 1
    return "".join(out)


def runtime_interactions(
    text: str,
    interactions: Sequence[Interaction],
    markers: Sequence[Marker],
    target: str,
) -> tuple[Interaction, ...]:
    """`interactions` (the scanner's, by start) as the runtime of `target` reads them."""
    if not has_escapes(target) or "\\" not in text:
        return tuple(interactions)
    return tuple(
        _reread(text, found, markers) if text.find("\\", found.start, found.end) >= 0 else found
        for found in interactions
    )


def _closing(text: str, body: int, limit: int, atoms: Sequence[tuple[int, int]]) -> int:
    """The `]` before `limit` that ends the interaction whose body starts at `body`, or
    -1: escapes and the `atoms` (markers) are skipped."""
    starts = {a: b for a, b in atoms}
    index = body
    while index < limit:
        if index in starts:
            index = starts[index]
        elif is_escape(text, index):
            index += 2
        elif text[index] == "]":
            return index
        else:
            index += 1
    return -1


def _escape_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    index = text.find("\\", start, end)
    while 0 <= index < end:
        if is_escape(text, index) and index + 2 <= end:
            spans.append((index, index + 2))
            index = text.find("\\", index + 2, end)
        else:
            index = text.find("\\", index + 1, end)
    return spans


def _merged(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if out and a < out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _reread(text: str, found: Interaction, markers: Sequence[Marker]) -> Interaction:
    lead = found.binding_marker
    body = lead.end if lead is not None else found.start + 2
    blank = _BLANK_LINE.search(text, body)
    limit = blank.start() if blank is not None else len(text)
    first = bisect_left(markers, body, key=lambda m: m.start)
    marker_spans: list[tuple[int, int]] = []
    for marker in markers[first:]:
        if marker.start >= limit:
            break
        marker_spans.append((marker.start, marker.end))
    close = _closing(text, body, limit, marker_spans)
    if close < 0:
        return found
    inside = [(a, b) for a, b in marker_spans if b <= close]
    escapes = _escape_spans(text, body, close)
    split = split_body(text, body, close, _merged(inside + escapes))
    if not split.multiple:
        # Between single choices the runtime splits on no bar right after another bar,
        # even an escaped one: `\||A` is the one choice `||A`.
        glued = [(a, b + 1) for a, b in escapes if text[a + 1] == "|" and text[b : b + 1] == "|"]
        if glued:
            split = split_body(text, body, close, _merged(inside + escapes + glued))
    choices = tuple(
        Choice(unescape(c.label), unescape(c.value), c.start, c.end) for c in split.choices
    )
    operators = (
        Operator(found.start, found.start + 2, "?["),
        *split.operators,
        Operator(close, close + 1, "]"),
    )
    return found._replace(
        end=close + 1,
        multiple=split.multiple,
        choices=choices,
        input=None if split.input is None else unescape(split.input),
        **pack_operators(found.start, operators),
    )
