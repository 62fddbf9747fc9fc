"""The edits of the suppression comments' quick fixes: "Ignore this problem here" writes a
comment where it is read as the suppression it is and changes no block
(`ignore_change`); the removal of a suppression that silences nothing (`removal`).
Apart from `suppressions`, which every check reads, so that a check loads no edit types.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from mfls.features.suppressions import LINE, NEXT_LINE, Unused, directives_of
from mfls.syntax.document import Document
from mfls.syntax.model import Block, BlockKind
from mfls.text.edits import TextChange
from mfls.text.lines import line_start

_LINE_END = re.compile(r"\r\n|\r|\n")
_CONTAINER = re.compile(r"[ \t]*(?:>|[-+*](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$))")
_ATX_CLOSING = re.compile(r"[ \t]+#+[ \t]*$")


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


def ignore_change(document: Document, offset: int, code: str) -> TextChange | None:
    """The comment that silences the problem `code` starting at `offset`: a
    `<!-- mfls-disable-next-line CODE -->` line above (with the line's indentation and the
    document's line ending) when the problem is on the first line of a block outside any
    list item or block quote; else `<!-- mfls-disable-line CODE -->` at the end of its
    line (inside a table row's last cell, before a hard line break or an ATX heading's
    closing `#`s). None where that comment would not be read as the suppression it is,
    or would change the document's blocks: the edited text is reparsed around the edit
    (`Document.edited`), never the whole of it, to know."""
    text = document.text
    around = document.scan_between(offset, offset + 1)
    block = _block_at(around.blocks, offset)
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
        kind, added = NEXT_LINE, 1
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
        kind, added = LINE, 0
    edited = document.edited(change.start, change.end, change.new_text)
    # The blocks from the one before the edit to the one after it: a comment closed on
    # its own line changes none further away.
    lo, hi = max(0, first - 1), block.end + 1
    grown = len(change.new_text)
    before = document.scan_between(lo, hi).blocks
    after = edited.scan_between(lo, hi + grown)
    inserted = change.start + grown - len(change.new_text.lstrip(" \t"))
    found = [d for d in directives_of(edited.text, after) if d.start == inserted]
    if len(found) != 1 or found[0].kind != kind or len(after.blocks) != len(before) + added:
        return None
    return change
