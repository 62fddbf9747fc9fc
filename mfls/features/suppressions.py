"""Suppression comments: an HTML comment that silences diagnostics where it applies.

- `<!-- mfls-disable-next-line CODE -->`: the problems that start on the next line;
- `<!-- mfls-disable-line CODE -->`: those that start on the comment's own line;
- `<!-- mfls-disable CODE -->` ... `<!-- mfls-enable CODE -->`: those that start between
  them (to the end of the document without an enable).

Several codes are separated by spaces or commas; no code means every code. A comment is
one as the scanner reads it (an inline comment or a type-2 HTML block), so the same text
in a code block or a code span is no suppression. `partition` decides, for one
document's diagnostics, which are silenced and which suppressions silence nothing; the
diagnostics module applies it once, and every view shows its answer.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Container, Iterable, Sequence
from typing import Final, Generic, NamedTuple, Protocol, TypeVar

from mfls.syntax.model import BlockKind, LiteralKind, ScanResult
from mfls.text.line_index import LineIndex

NEXT_LINE: Final = "disable-next-line"
LINE: Final = "disable-line"
DISABLE: Final = "disable"
ENABLE: Final = "enable"

_COMMENT = re.compile(r"<!--.*?-->", re.S)
_DIRECTIVE = re.compile(
    r"<!--[ \t]*mfls-(disable-next-line|disable-line|disable|enable)(?=[\s,]|-->)(.*?)-->",
    re.S,
)
_CODE = re.compile(r"[^\s,]+")
_AFTER: Final = 1 << 62  # sorts after any offset or index


class Code(NamedTuple):
    """A code named in a suppression, at `[start, end)` of the document."""

    code: str
    start: int
    end: int


class Directive(NamedTuple):
    """One suppression comment at `[start, end)`: its kind (`NEXT_LINE`, `LINE`,
    `DISABLE`, `ENABLE`) and its codes (none: every code)."""

    kind: str
    start: int
    end: int
    codes: tuple[Code, ...]


class Unused(NamedTuple):
    """A suppression that silences nothing with the codes `unused`; `unknown`: those of
    them mfls does not have. `all_unused`: nothing of it is left to keep."""

    directive: Directive
    unused: tuple[str, ...]
    unknown: tuple[str, ...]
    all_unused: bool


class _Located(Protocol):
    @property
    def code(self) -> str: ...

    @property
    def start(self) -> int: ...


D = TypeVar("D", bound=_Located)


class Partition(Generic[D]):
    """Diagnostics kept and silenced, and the suppressions that silence nothing. (A plain
    class: a generic NamedTuple needs Python 3.11, and mfls runs on 3.10.)"""

    __slots__ = ("kept", "suppressed", "unused")

    def __init__(self, kept: list[D], suppressed: list[D], unused: tuple[Unused, ...]) -> None:
        self.kept = kept
        self.suppressed = suppressed
        self.unused = unused


def may_hold_directives(text: str) -> bool:
    """Whether `text` may hold a suppression (a cheap test before the full scan)."""
    return "mfls-" in text and "<!--" in text


def directives_of(text: str, result: ScanResult) -> tuple[Directive, ...]:
    """The suppressions of a document: its HTML comments (the full scan's) that are
    one, in text order."""
    if not may_hold_directives(text):
        return ()
    spans: list[tuple[int, int]] = []
    for literal in result.literals:
        if literal.kind is LiteralKind.RAW_HTML and text.startswith("<!--", literal.start):
            spans.append((literal.start, literal.end))
    for block in result.blocks:
        if block.kind is BlockKind.HTML_BLOCK and block.level == 2:
            spans.extend(m.span() for m in _COMMENT.finditer(text, block.start, block.end))
    found = []
    for start, end in sorted(spans):
        match = _DIRECTIVE.fullmatch(text, start, end)
        if match is None:
            continue
        at = match.start(2)
        codes = tuple(
            Code(m.group(), at + m.start(), at + m.end()) for m in _CODE.finditer(match.group(2))
        )
        found.append(Directive(match.group(1), start, end, codes))
    return tuple(found)


def partition(
    text: str, directives: Sequence[Directive], items: Iterable[D], known: Container[str]
) -> Partition[D]:
    """`items` (diagnostics of `text`) split into those kept and those a directive
    silences, and the directives (but enables) that silence nothing with some code, or
    name a code mfls does not have (enables too)."""
    line_of = LineIndex(text).line_of

    by_line: dict[int, list[int]] = {}
    # name (None: every code) -> its disabled regions (lo, hi, directive): disjoint, since
    # a name is disabled once until enabled.
    regions: dict[str | None, list[tuple[int, int, int]]] = {}
    open_: dict[str | None, tuple[int, int]] = {}
    # code -> where `mfls-enable CODE` took it out of a code-less disable (holes in it)
    holes: dict[str, list[tuple[int, int]]] = {}
    hole_open: dict[str, int] = {}

    def close_hole(name: str, at: int) -> None:
        began = hole_open.pop(name, None)
        if began is not None:
            holes.setdefault(name, []).append((began, at))

    for index, directive in enumerate(directives):
        names: list[str | None] = [c.code for c in directive.codes] or [None]
        if directive.kind == NEXT_LINE:
            by_line.setdefault(line_of(directive.end) + 1, []).append(index)
        elif directive.kind == LINE:
            by_line.setdefault(line_of(directive.start), []).append(index)
        elif directive.kind == DISABLE:
            for name in names:
                open_.setdefault(name, (index, directive.end))
                if name is not None:
                    close_hole(name, directive.start)
        else:
            if names == [None]:
                for name in list(hole_open):
                    close_hole(name, directive.start)
            elif None in open_:
                for name in names:
                    if name is not None and name not in open_:
                        hole_open.setdefault(name, directive.end)
            for name in list(open_) if names == [None] else names:
                opened = open_.pop(name, None)
                if opened is not None:
                    regions.setdefault(name, []).append((opened[1], directive.start, opened[0]))
    for name, (index, at) in open_.items():
        regions.setdefault(name, []).append((at, len(text), index))
    for name in list(hole_open):
        close_hole(name, len(text))
    for spans in regions.values():
        spans.sort()
    used: set[tuple[int, str | None]] = set()
    kept: list[D] = []
    suppressed: list[D] = []
    for item in items:
        silenced = False
        for index in by_line.get(line_of(item.start), ()):
            codes = directives[index].codes
            if not codes:
                used.add((index, None))
                silenced = True
            elif any(c.code == item.code for c in codes):
                used.add((index, item.code))
                silenced = True
        for name in (None, item.code):
            disabled = regions.get(name)
            if not disabled:
                continue
            if name is None and any(a <= item.start < b for a, b in holes.get(item.code, ())):
                continue  # enabled again by its code inside the code-less disable
            at = bisect_right(disabled, (item.start, _AFTER, _AFTER)) - 1
            if at >= 0 and disabled[at][0] <= item.start < disabled[at][1]:
                used.add((disabled[at][2], name))
                silenced = True
        (suppressed if silenced else kept).append(item)
    unused: list[Unused] = []
    for index, directive in enumerate(directives):
        names_ = [c.code for c in directive.codes]
        unknown = tuple(dict.fromkeys(n for n in names_ if n not in known))
        if directive.kind == ENABLE:
            idle: tuple[str, ...] = unknown
        elif not names_:
            idle = () if (index, None) in used else ("",)
        else:
            idle = tuple(dict.fromkeys(n for n in names_ if (index, n) not in used))
        if idle:
            left = [n for n in names_ if n not in idle]
            unused.append(Unused(directive, idle, unknown, not left))
    return Partition(kept, suppressed, tuple(unused))
