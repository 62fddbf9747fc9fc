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

from mfls.syntax.model import Block, BlockKind, LiteralKind, ScanResult
from mfls.syntax.scanner import scan
from mfls.text.edits import TextChange
from mfls.text.lines import line_start

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
_LINE_END = re.compile(r"\r\n|\r|\n")
_CONTAINER = re.compile(r"[ \t]*(?:>|[-+*](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$))")
_ATX_CLOSING = re.compile(r"[ \t]+#+[ \t]*$")
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


class Partition(NamedTuple, Generic[D]):
    """Diagnostics kept and silenced, and the suppressions that silence nothing."""

    kept: list[D]
    suppressed: list[D]
    unused: tuple[Unused, ...]


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


def _line_starts(text: str) -> list[int]:
    return [0, *(m.end() for m in _LINE_END.finditer(text))]


def partition(
    text: str, directives: Sequence[Directive], items: Iterable[D], known: Container[str]
) -> Partition[D]:
    """`items` (diagnostics of `text`) split into those kept and those a directive
    silences, and the directives (but enables) that silence nothing with some code, or
    name a code mfls does not have (enables too)."""
    starts = _line_starts(text)

    def line_of(offset: int) -> int:
        return bisect_right(starts, offset) - 1

    by_line: dict[int, list[int]] = {}
    # name (None: every code) -> its disabled regions (lo, hi, directive): disjoint, since
    # a name is disabled once until enabled.
    regions: dict[str | None, list[tuple[int, int, int]]] = {}
    open_: dict[str | None, tuple[int, int]] = {}
    for index, directive in enumerate(directives):
        names: list[str | None] = [c.code for c in directive.codes] or [None]
        if directive.kind == NEXT_LINE:
            by_line.setdefault(line_of(directive.end) + 1, []).append(index)
        elif directive.kind == LINE:
            by_line.setdefault(line_of(directive.start), []).append(index)
        elif directive.kind == DISABLE:
            for name in names:
                open_.setdefault(name, (index, directive.end))
        else:
            for name in list(open_) if names == [None] else names:
                opened = open_.pop(name, None)
                if opened is not None:
                    regions.setdefault(name, []).append((opened[1], directive.start, opened[0]))
    for name, (index, at) in open_.items():
        regions.setdefault(name, []).append((at, len(text), index))
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


def removal(text: str, unused: Unused) -> TextChange:
    """The edit that takes the codes of `unused` out of its directive: the whole comment
    (and its line, when it stands alone there) when nothing of it is left."""
    directive = unused.directive
    if not unused.all_unused:
        left = [c.code for c in directive.codes if c.code not in unused.unused]
        written = f"<!-- mfls-{directive.kind} {' '.join(left)} -->"
        return TextChange(directive.start, directive.end, written)
    start, end = directive.start, directive.end
    first = line_start(text, start)
    ending = _LINE_END.search(text, end)
    last = ending.start() if ending else len(text)
    if not text[first:start].strip() and not text[end:last].strip():
        return TextChange(first, ending.end() if ending else last, "")
    while start > first and text[start - 1] in " \t":
        start -= 1
    return TextChange(start, end, "")


def _block_at(blocks: Iterable[Block], offset: int) -> Block | None:
    for block in blocks:
        if block.start <= offset <= block.end:
            return block
    return None


def ignore_change(text: str, result: ScanResult, offset: int, code: str) -> TextChange | None:
    """The comment that silences the problem `code` starting at `offset`: a
    `<!-- mfls-disable-next-line CODE -->` line above (with the line's indentation and the
    document's line ending) when the problem is on the first line of a block outside any
    list item or block quote; else `<!-- mfls-disable-line CODE -->` at the end of its
    line (inside a table row's last cell, before a hard line break or an ATX heading's
    closing `#`s). None where that comment would not be read as the suppression it is,
    or would change the document's blocks: the edited text is scanned again to know."""
    block = _block_at(result.blocks, offset)
    if block is None or block.is_code or block.is_raw_html:
        return None
    first = line_start(text, offset)
    ending = _LINE_END.search(text, offset)
    last = ending.start() if ending else len(text)
    line = text[first:last]
    if line_start(text, block.start) == first and not _CONTAINER.match(line):
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        eol_match = _LINE_END.search(text)
        eol = eol_match.group() if eol_match else "\n"
        change = TextChange(first, first, f"{indent}<!-- mfls-{NEXT_LINE} {code} -->{eol}")
        kind, blocks = NEXT_LINE, len(result.blocks) + 1
    else:
        body = line.rstrip(" \t")
        if body.endswith("\\"):
            body = body[:-1].rstrip(" \t")
        closing = _ATX_CLOSING.search(body) if block.kind is BlockKind.HEADING else None
        if closing is not None:
            body = body[: closing.start()]
        elif body.endswith("|") and body.count("|") > 1:
            body = body[:-1].rstrip(" \t")
        at = first + len(body)
        change = TextChange(at, at, f" <!-- mfls-{LINE} {code} -->")
        kind, blocks = LINE, len(result.blocks)
    edited = text[: change.start] + change.new_text + text[change.end :]
    rescanned = scan(edited)
    inserted = change.start + len(change.new_text) - len(change.new_text.lstrip(" \t"))
    found = [d for d in directives_of(edited, rescanned) if d.start == inserted]
    if len(found) != 1 or found[0].kind != kind or len(rescanned.blocks) != blocks:
        return None
    return change
