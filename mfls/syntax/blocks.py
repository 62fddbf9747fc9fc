"""CommonMark 0.31.2 block structure: containers, leaf blocks and top-level units.

The parser follows the spec's two-phase line algorithm (match the open containers,
then look for new block starts, then add the rest of the line to the tip). It works
on absolute offsets in the original text and never slices whole lines except where a
C-level string operation is cheaper than a Python loop.

A `Unit` is one top-level block with the blank lines after it. Parsing from the start
of a unit needs no state from before it, which is what lets `Document` reparse only
the units an edit touches.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from mfls.syntax.block_html import html_block_end, html_block_start
from mfls.syntax.block_refs import parse_reference
from mfls.syntax.model import Block, BlockKind
from mfls.text.lines import line_start


class Unit(NamedTuple):
    start: int
    end: int
    blocks: tuple[Block, ...]


_DOC, _LIST, _ITEM, _QUOTE, _PARA, _FENCE, _ICODE, _HTML = range(8)
_CONTAINERS = (_DOC, _QUOTE, _ITEM)
_ACCEPTS_LINES = (_FENCE, _ICODE, _HTML)

_EOL = re.compile(r"\r\n|\r|\n")
_SPACES = re.compile(r"[ \t]*")
_MAYBE_SPECIAL = frozenset("#`~*+_=<>-0123456789")
_ATX = re.compile(r"(#{1,6})(?:[ \t]+|$)")
_FENCE_OPEN = re.compile(r"`{3,}|~{3,}")
_FENCE_CLOSE = {"`": re.compile(r"(`{3,})[ \t]*$"), "~": re.compile(r"(~{3,})[ \t]*$")}
_SETEXT = re.compile(r"(?:=+|-+)[ \t]*$")
_THEMATIC_RUN = {c: re.compile(f"(?:{re.escape(c)}[ \t]*)*") for c in "*-_"}
_ORDERED = re.compile(r"([0-9]{1,9})([.)])")

# Fast paths for blocks directly under the document.
_SPECIAL_START = frozenset(" \t\r\n#`~*+_=<>-0123456789")
_PLAIN_LINES = re.compile(r"(?:[^ \t\r\n#`~*+_=<>0-9\-][^\r\n]*(?:\r\n|\r|\n))+")


def _plain_lines_end(text: str, pos: int) -> int:
    """`_PLAIN_LINES.match(text, pos).end()` (`pos` when it fails), with `str.find`
    walking to each "\n", which is far faster than the pattern on long plain lines;
    where a "\r" is in reach, the pattern decides."""
    end = pos
    n = len(text)
    while end < n and text[end] not in _SPECIAL_START:
        line_end = text.find("\n", end)
        if line_end < 0:
            if text.find("\r", end) >= 0:  # a last line ended by "\r" alone
                return _pattern_end(text, pos)
            break
        end = line_end + 1
    if text.find("\r", pos, end) >= 0:
        return _pattern_end(text, pos)
    return end


def _pattern_end(text: str, pos: int) -> int:
    m = _PLAIN_LINES.match(text, pos)
    return pos if m is None else m.end()


_TOP_FENCE_CLOSE = {
    "`": re.compile(r"(?<![^\r\n]) {0,3}(`{3,})[ \t]*(?=[\r\n]|\Z)"),
    "~": re.compile(r"(?<![^\r\n]) {0,3}(~{3,})[ \t]*(?=[\r\n]|\Z)"),
}
_BLANK_LINE = re.compile(r"(?<![^\r\n])(?!(?<=\r)\n)[ \t]*(?=[\r\n]|\Z)")

_P = BlockKind.PARAGRAPH
_H = BlockKind.HEADING
_TB = BlockKind.THEMATIC_BREAK
_FC = BlockKind.FENCED_CODE
_IC = BlockKind.INDENTED_CODE
_HB = BlockKind.HTML_BLOCK
_LRD = BlockKind.LINK_REFERENCE_DEFINITION


class _Node:
    __slots__ = (
        "char",
        "end",
        "fence_len",
        "fence_offset",
        "has_child",
        "html_type",
        "info",
        "kind",
        "last_content",
        "marker_offset",
        "ordered",
        "padding",
        "segs",
        "start",
    )

    def __init__(self, kind: int, start: int) -> None:
        self.kind = kind
        self.start = start
        self.end = start
        self.has_child = False
        self.segs: list[tuple[int, int]] = []
        self.char = ""
        self.ordered = False
        self.marker_offset = 0
        self.padding = 0
        self.fence_len = 0
        self.fence_offset = 0
        self.html_type = 0
        self.info: tuple[tuple[int, int], ...] = ()
        self.last_content = start


def _can_contain(parent: int, child: int) -> bool:
    if parent == _LIST:
        return child == _ITEM
    return parent in _CONTAINERS and child != _ITEM


def _match_end(pattern: re.Pattern[str], text: str, pos: int, end: int) -> int:
    """Where a match of `pattern` (one that may be empty) at `pos` ends."""
    m = pattern.match(text, pos, end)
    return pos if m is None else m.end()


def _last_line_end(text: str) -> int:
    """End of the last line of a non-empty text, its line ending excluded."""
    n = len(text)
    if text.endswith("\r\n"):
        return n - 2
    if text.endswith(("\n", "\r")):
        return n - 1
    return n


def _trim_end(text: str, start: int, end: int) -> int:
    """`end` moved back over spaces and tabs, not before `start`."""
    if end > start and text[end - 1] in " \t":
        return start + len(text[start:end].rstrip(" \t"))
    return end


class _Parser:
    def __init__(self, text: str, start: int) -> None:
        self.text = text
        self.stack: list[_Node] = [_Node(_DOC, start)]
        self.blocks: list[Block] = []
        self.unit_start = start
        self.seen_top = False
        self.pending: Unit | None = None
        # per-line state
        self.pos = start
        self.le = start
        self.offset = start
        self.column = 0
        self.partial = False
        self.nn = start
        self.nn_col = 0
        self.nn_cache = -1
        self.indent = 0
        self.indented = False
        self.blank = False
        self.all_closed = True
        self.matched = 0
        self.blank_depth = -1
        self.tb_line = -1
        self.tb_char = ""
        self.tb_stop = -1

    # -- offsets and columns ---------------------------------------------------------

    def find_nn(self) -> None:
        off = self.offset
        if self.nn_cache < off:
            text = self.text
            le = self.le
            if off < le and text[off] != " " and text[off] != "\t":
                self.nn_cache = self.nn = off
                self.nn_col = self.column
                self.indent = 0
                self.indented = False
                self.blank = False
                return
            nn = _match_end(_SPACES, text, off, le)
            if text.find("\t", off, nn) < 0:
                col = self.column + nn - off
            else:
                col = self.column
                for ch in text[off:nn]:
                    col = col + 4 - col % 4 if ch == "\t" else col + 1
            self.nn_cache = nn
            self.nn_col = col
        self.nn = self.nn_cache
        self.indent = self.nn_col - self.column
        self.indented = self.indent >= 4
        self.blank = self.nn == self.le

    def advance_nn(self) -> None:
        self.offset = self.nn
        self.column = self.nn_col
        self.partial = False

    def advance(self, count: int, columns: bool) -> None:
        text = self.text
        off = self.offset
        col = self.column
        le = self.le
        while count > 0 and off < le:
            if text[off] == "\t":
                to_tab = 4 - col % 4
                if columns:
                    self.partial = to_tab > count
                    step = count if to_tab > count else to_tab
                    col += step
                    if not self.partial:
                        off += 1
                    count -= step
                else:
                    self.partial = False
                    col += to_tab
                    off += 1
                    count -= 1
            else:
                self.partial = False
                off += 1
                col += 1
                count -= 1
        self.offset = off
        self.column = col

    # -- tree ------------------------------------------------------------------------

    def close_unmatched(self) -> None:
        if not self.all_closed:
            stack = self.stack
            while len(stack) - 1 > self.matched:
                self.finalize(stack.pop())
            self.all_closed = True

    def make_room(self, kind: int) -> _Node:
        """Close blocks until the tip can hold `kind`; return that parent."""
        stack = self.stack
        while not _can_contain(stack[-1].kind, kind):
            self.finalize(stack.pop())
        parent = stack[-1]
        if parent.kind == _DOC:
            if self.seen_top:
                self.pending = Unit(self.unit_start, self.pos, tuple(self.blocks))
                self.blocks = []
                self.unit_start = self.pos
            else:
                self.seen_top = True
        elif parent.kind == _ITEM:
            parent.has_child = True
        return parent

    def add_child(self, kind: int) -> _Node:
        self.make_room(kind)
        node = _Node(kind, self.pos)
        node.end = self.le
        self.stack.append(node)
        return node

    def finalize(self, node: _Node) -> None:
        kind = node.kind
        if kind == _PARA:
            self.emit_paragraph(node)
        elif kind == _FENCE:
            self.blocks.append(Block(_FC, node.start, node.end, 0, node.info))
        elif kind == _ICODE:
            self.blocks.append(Block(_IC, node.start, node.end))
        elif kind == _HTML:
            segs = node.segs
            if segs:
                a = segs[-1][0]
                if node.end > a:
                    segs[-1] = (a, node.end)
                else:
                    segs.pop()
            self.blocks.append(Block(_HB, node.start, node.end, node.html_type, tuple(segs)))

    def resolve_references(self, para: _Node) -> None:
        """Turn the link reference definitions at the start of `para` into blocks."""
        text = self.text
        segs = para.segs
        if not segs or text[segs[0][0]] != "[":
            return
        content = "".join([text[a:b] for a, b in segs])
        if "\0" in content:
            content = content.replace("\0", "\ufffd")
        cum = []
        total = 0
        for a, b in segs:
            cum.append(total)
            total += b - a
        defs = []
        p = 0
        while p < total and content[p] == "[":
            q = parse_reference(content, p)
            if q < 0:
                break
            defs.append((p, q))
            p = q
        if not defs:
            return
        for dp, dq in defs:
            body_end = dq
            if body_end > dp and content[body_end - 1] == "\n":
                body_end -= 1
            if body_end > dp and content[body_end - 1] == "\r":
                body_end -= 1
            ranges = _map_range(segs, cum, dp, body_end)
            first = ranges[0][0]
            line_end = ranges[-1][1]
            trimmed = _trim_end(text, ranges[-1][0], line_end)
            ranges[-1] = (ranges[-1][0], trimmed)
            if ranges[-1][0] == trimmed:
                ranges.pop()
            self.blocks.append(Block(_LRD, line_start(text, first), line_end, 0, tuple(ranges)))
        para.segs = _map_range(segs, cum, p, total) if p < total else []
        if para.segs:
            para.start = line_start(text, para.segs[0][0])

    def emit_paragraph(self, para: _Node) -> None:
        segs = para.segs
        if segs and self.text[segs[0][0]] == "[":
            self.resolve_references(para)
            segs = para.segs
        if not segs:
            return
        a = segs[-1][0]
        segs[-1] = (a, _trim_end(self.text, max(a, para.last_content), para.end))
        self.blocks.append(Block(_P, para.start, para.end, 0, tuple(segs)))

    # -- one line --------------------------------------------------------------------

    def line(self, pos: int, le: int) -> None:
        text = self.text
        stack = self.stack
        self.pos = pos
        self.le = le
        self.offset = pos
        self.column = 0
        self.partial = False
        self.nn_cache = -1
        depth = len(stack)
        if depth > 2:
            whole_blank = pos == le or (
                (text[pos] == " " or text[pos] == "\t") and _match_end(_SPACES, text, pos, le) == le
            )
            if whole_blank and self.blank_depth == depth:
                # Every block left open after a blank line continues over the next one.
                tip = stack[-1]
                if tip.kind == _FENCE or tip.kind == _HTML:
                    tip.end = le
                return
            self.blank_depth = -1
            if whole_blank:
                self.line_containers(pos, le, depth)
                self.blank_depth = len(stack)
                return
        self.line_containers(pos, le, depth)

    def line_containers(self, pos: int, le: int, depth: int) -> None:
        text = self.text
        stack = self.stack
        matched = 0
        i = 1
        while i < depth:
            node = stack[i]
            kind = node.kind
            if kind == _LIST:
                matched = i
                i += 1
                continue
            self.find_nn()
            if kind == _QUOTE:
                nn = self.nn
                if self.indented or nn >= le or text[nn] != ">":
                    break
                self.advance_nn()
                self.advance(1, False)
                if self.offset < le and text[self.offset] in " \t":
                    self.advance(1, True)
            elif kind == _ITEM:
                if self.blank:
                    if not node.has_child:
                        break
                    self.advance_nn()
                elif self.indent >= node.marker_offset + node.padding:
                    self.advance(node.marker_offset + node.padding, True)
                else:
                    break
            elif kind == _PARA:
                if self.blank:
                    break
            elif kind == _FENCE:
                nn = self.nn
                if not self.indented and nn < le and text[nn] == node.char:
                    m = _FENCE_CLOSE[node.char].match(text, nn, le)
                    if m is not None and len(m.group(1)) >= node.fence_len:
                        node.end = le
                        stack.pop()
                        self.finalize(node)
                        return
                k = node.fence_offset
                while k > 0 and self.offset < le and text[self.offset] in " \t":
                    self.advance(1, True)
                    k -= 1
            elif kind == _ICODE:
                if self.indent >= 4:
                    self.advance(4, True)
                elif self.blank:
                    self.advance_nn()
                else:
                    break
            elif kind == _HTML and self.blank and node.html_type >= 6:
                break
            matched = i
            i += 1
        self.matched = matched
        self.all_closed = matched == depth - 1
        cidx = matched
        leaf = stack[matched].kind in _ACCEPTS_LINES
        while not leaf:
            self.find_nn()
            if not self.indented and (self.blank or text[self.nn] not in _MAYBE_SPECIAL):
                self.advance_nn()
                break
            r = self.block_start(stack[cidx])
            if r == 0:
                self.advance_nn()
                break
            cidx = len(stack) - 1
            leaf = r == 2
        tip = stack[-1]
        if not self.all_closed and not self.blank and tip.kind == _PARA:
            self.add_paragraph_line(tip)
            return
        self.close_unmatched()
        cont = stack[-1]
        kind = cont.kind
        if kind == _PARA:
            self.add_paragraph_line(cont)
        elif kind == _FENCE:
            cont.end = le
        elif kind == _ICODE:
            if not self.blank:
                cont.end = le
        elif kind == _HTML:
            self.add_html_line(cont)
        elif self.offset < le and not self.blank:
            para = self.add_child(_PARA)
            self.add_paragraph_line(para)

    def add_paragraph_line(self, para: _Node) -> None:
        # Every caller has just advanced to the line's first non-space character.
        a = self.offset
        le = self.le
        segs = para.segs
        if not segs:
            para.start = self.pos
        e = _EOL.match(self.text, le)
        b = e.end() if e is not None else le
        if segs and segs[-1][1] == a:
            segs[-1] = (segs[-1][0], b)
        else:
            segs.append((a, b))
        para.end = le
        para.last_content = a

    def add_html_line(self, node: _Node) -> None:
        le = self.le
        a = self.offset
        text = self.text
        e = _EOL.match(text, le)
        b = e.end() if e is not None else le
        node.end = le
        segs = node.segs
        if segs and segs[-1][1] == a:
            segs[-1] = (segs[-1][0], b)
        else:
            segs.append((a, b))
        if node.html_type < 6 and html_block_end(text, node.html_type, a, le) >= 0:
            self.stack.pop()
            self.finalize(node)

    def block_start(self, container: _Node) -> int:
        """Try the block starts in the spec's order: 0 none, 1 container, 2 leaf."""
        text = self.text
        nn = self.nn
        le = self.le
        if self.indented:
            if self.stack[-1].kind != _PARA and not self.blank:
                self.advance(4, True)
                self.close_unmatched()
                node = self.add_child(_ICODE)
                node.end = le
                return 2
            return 0
        c = text[nn]
        if c == ">":
            self.advance_nn()
            self.advance(1, False)
            if self.offset < le and text[self.offset] in " \t":
                self.advance(1, True)
            self.close_unmatched()
            self.add_child(_QUOTE)
            return 1
        if c == "#":
            m = _ATX.match(text, nn, le)
            if m is not None:
                self.close_unmatched()
                self.make_room(_PARA)
                s = m.end()
                inline: tuple[tuple[int, int], ...] = ()
                if s < le:
                    body = text[s:le].rstrip(" \t")
                    stripped = body.rstrip("#")
                    if len(stripped) < len(body):
                        body = "" if not stripped else body
                        if stripped and stripped[-1] in " \t":
                            body = stripped.rstrip(" \t")
                    if body:
                        inline = ((s, s + len(body)),)
                level = len(m.group(1))
                self.blocks.append(Block(_H, self.pos, le, level, inline))
                self.offset = le
                return 2
            return 0
        if c == "`" or c == "~":
            m = _FENCE_OPEN.match(text, nn, le)
            if m is None or (c == "`" and text.find("`", m.end(), le) >= 0):
                return 0
            self.close_unmatched()
            node = self.add_child(_FENCE)
            node.char = c
            node.fence_len = m.end() - nn
            node.fence_offset = self.indent
            s = _match_end(_SPACES, text, m.end(), le)
            e = _trim_end(text, s, le)
            if e > s:
                node.info = ((s, e),)
            self.offset = le
            return 2
        if c == "<":
            t = html_block_start(text, nn, le)
            if t == 0 or (
                t == 7
                and (
                    container.kind == _PARA
                    or (not self.all_closed and not self.blank and self.stack[-1].kind == _PARA)
                )
            ):
                return 0
            self.close_unmatched()
            node = self.add_child(_HTML)
            node.html_type = t
            return 2
        if container.kind == _PARA and (c == "=" or c == "-") and _SETEXT.match(text, nn, le):
            self.close_unmatched()
            self.resolve_references(container)
            if container.segs:
                segs = container.segs
                a = segs[-1][0]
                segs[-1] = (a, _trim_end(text, max(a, container.last_content), container.end))
                self.stack.pop()
                level = 1 if c == "=" else 2
                self.blocks.append(Block(_H, container.start, le, level, tuple(segs), True))
                self.offset = le
                return 2
        if (c == "*" or c == "-" or c == "_") and self.thematic_break(c):
            self.close_unmatched()
            self.make_room(_PARA)
            self.blocks.append(Block(_TB, self.pos, le))
            self.offset = le
            return 2
        if c == "*" or c == "+" or c == "-" or "0" <= c <= "9":
            return self.list_item_start(container)
        return 0

    def thematic_break(self, c: str) -> bool:
        """Whether the rest of the line is a thematic break of `c`s.

        A failed check remembers where the run of `c`s and spaces broke off, so that the
        nested list items of `- - - - x` do not rescan the line once per marker.
        """
        nn = self.nn
        if self.tb_line == self.pos and self.tb_char == c and nn <= self.tb_stop:
            return False
        le = self.le
        stop = _match_end(_THEMATIC_RUN[c], self.text, nn, le)
        if stop == le and self.text.count(c, nn, le) >= 3:
            return True
        self.tb_line = self.pos
        self.tb_char = c
        self.tb_stop = stop
        return False

    def list_item_start(self, container: _Node) -> int:
        text = self.text
        nn = self.nn
        le = self.le
        c = text[nn]
        ordered = False
        if c == "*" or c == "+" or c == "-":
            after = nn + 1
        else:
            m = _ORDERED.match(text, nn, le)
            if m is None:
                return 0
            ordered = True
            c = m.group(2)
            after = m.end()
            if container.kind == _PARA and m.group(1) != "1":
                return 0
        if after < le and text[after] not in " \t":
            return 0
        if container.kind == _PARA and _match_end(_SPACES, text, after, le) == le:
            return 0
        marker_offset = self.indent
        mlen = after - nn
        if after + 1 < le and text[after] == " " and text[after + 1] not in " \t":
            # The usual shape, one space then content: padding is the marker and a space.
            self.offset = after + 1
            self.column = self.nn_col + mlen + 1
            self.partial = False
            return self.add_item(ordered, c, marker_offset, mlen + 1)
        self.advance_nn()
        self.advance(mlen, True)
        spaces_col = self.column
        spaces_off = self.offset
        while True:
            self.advance(1, True)
            if not (
                self.column - spaces_col < 5 and self.offset < le and text[self.offset] in " \t"
            ):
                break
        spaces = self.column - spaces_col
        if spaces >= 5 or spaces < 1 or self.offset >= le:
            padding = mlen + 1
            self.column = spaces_col
            self.offset = spaces_off
            self.partial = False
            if self.offset < le and text[self.offset] in " \t":
                self.advance(1, True)
        else:
            padding = mlen + spaces
        return self.add_item(ordered, c, marker_offset, padding)

    def add_item(self, ordered: bool, c: str, marker_offset: int, padding: int) -> int:
        self.close_unmatched()
        tip = self.stack[-1]
        if tip.kind != _LIST or tip.ordered != ordered or tip.char != c:
            lst = self.add_child(_LIST)
            lst.ordered = ordered
            lst.char = c
        item = self.add_child(_ITEM)
        item.ordered = ordered
        item.char = c
        item.marker_offset = marker_offset
        item.padding = padding
        return 1

    # -- fast paths directly under the document ----------------------------------------

    def top_level_run(self, pos: int) -> int:
        """Consume lines a top-level leaf takes without any block start; new position."""
        text = self.text
        tip = self.stack[1]
        kind = tip.kind
        if kind == _PARA:
            e = _plain_lines_end(text, pos)
            if e == pos:
                return pos
            le = e - 2 if text.startswith("\r\n", e - 2) else e - 1
            segs = tip.segs
            if segs and segs[-1][1] == pos:
                segs[-1] = (segs[-1][0], e)
            else:
                segs.append((pos, e))
            tip.end = le
            ls = max(text.rfind("\n", pos, le), text.rfind("\r", pos, le))
            tip.last_content = ls + 1 if ls >= pos else pos
            return e
        if kind == _FENCE:
            rx = _TOP_FENCE_CLOSE[tip.char]
            i = pos
            while True:
                m = rx.search(text, i)
                if m is None:
                    tip.end = _last_line_end(text)
                    return len(text)
                if len(m.group(1)) >= tip.fence_len:
                    tip.end = m.end()
                    self.stack.pop()
                    self.finalize(tip)
                    eol = _EOL.match(text, m.end())
                    return eol.end() if eol is not None else m.end()
                i = m.end()
        if kind == _HTML:
            n = len(text)
            if tip.html_type >= 6:
                m = _BLANK_LINE.search(text, pos)
                stop = m.start() if m is not None and m.start() < n else n
                if stop == pos:
                    return pos
                if stop < n:
                    le = stop - 2 if text.startswith("\r\n", stop - 2) else stop - 1
                else:
                    le = _last_line_end(text)
                segs = tip.segs
                if segs and segs[-1][1] == pos:
                    segs[-1] = (segs[-1][0], stop)
                else:
                    segs.append((pos, stop))
                tip.end = le
                return stop
            k = html_block_end(text, tip.html_type, pos, n)
            segs = tip.segs
            if k < 0:
                tip.end = _last_line_end(text)
                stop = n
            else:
                eol = _EOL.search(text, k)
                tip.end = eol.start() if eol is not None else n
                stop = eol.end() if eol is not None else n
            if segs and segs[-1][1] == pos:
                segs[-1] = (segs[-1][0], stop)
            else:
                segs.append((pos, stop))
            if k < 0:
                return n
            self.stack.pop()
            self.finalize(tip)
            return eol.end() if eol is not None else n
        return pos

    def list_line(self, pos: int) -> int:
        """Two common lines of a top-level list read in one step: a next item whose first
        line is plain text (`- more` after `- some`, whatever the item held), and a
        bullet list started under the item's paragraph (`  - sub` after `- some`).
        Returns the new position, or `pos` for any other line."""
        text = self.text
        stack = self.stack
        lst = stack[1]
        n = len(text)
        if lst.ordered:
            m = _ORDERED.match(text, pos)
            after = m.end() if m is not None and m.group(2) == lst.char else -1
        else:
            after = pos + 1 if text.startswith(lst.char, pos) else -1
        if after > 0:
            if not (after + 1 < n and text[after] == " " and text[after + 1] not in _SPECIAL_START):
                return pos
            while len(stack) > 2:
                self.finalize(stack.pop())
            parent = lst
            c = lst.char
            ordered = lst.ordered
        else:
            # `  - sub` under the first paragraph line(s) of an item indented by k spaces.
            if len(stack) != 4 or stack[3].kind != _PARA:
                return pos
            item = stack[2]
            k = item.marker_offset + item.padding
            bullet = pos + k
            if not (
                bullet + 2 < n
                and text[bullet] in "-*+"
                and text[bullet + 1] == " "
                and text[bullet + 2] not in _SPECIAL_START
                and text.startswith(" " * k, pos)
            ):
                return pos
            self.finalize(stack.pop())
            c = text[bullet]
            ordered = False
            after = bullet + 1
            parent = _Node(_LIST, pos)
            parent.char = c
            stack.append(parent)
        self.blank_depth = -1
        item = _Node(_ITEM, pos)
        item.ordered = ordered
        item.char = c
        item.padding = after + 1 - pos if parent is lst else 2
        item.has_child = True
        para = _Node(_PARA, pos)
        stack.append(item)
        stack.append(para)
        m = _EOL.search(text, after + 1)
        le, nxt = (m.start(), m.end()) if m is not None else (n, n)
        para.segs.append((after + 1, nxt))
        para.end = le
        para.last_content = after + 1
        return nxt

    def run(self) -> Iterator[Unit]:
        text = self.text
        n = len(text)
        pos = self.pos
        stack = self.stack
        eol = _EOL
        special = _SPECIAL_START
        while pos < n:
            depth = len(stack)
            if depth == 1:
                c = text[pos]
                if c == "\n" or c == "\r":
                    # An empty line with nothing open changes nothing.
                    pos += 2 if text.startswith("\r\n", pos) else 1
                    continue
                if c not in special:
                    # A line starting with a character no block start uses: a paragraph.
                    self.pos = pos
                    self.le = pos
                    self.add_child(_PARA)
                    depth = 2
                    if self.pending is not None:
                        yield self.pending
                        self.pending = None
            if depth >= 3 and stack[1].kind == _LIST:
                nxt = self.list_line(pos)
                if nxt != pos:
                    pos = nxt
                    continue
            if depth == 2:
                tip = stack[1]
                kind = tip.kind
                if kind in (_PARA, _FENCE, _HTML):
                    nxt = self.top_level_run(pos)
                    if nxt != pos:
                        pos = nxt
                        continue
                    c = text[pos]
                    if (c == "\n" or c == "\r") and (kind == _PARA or tip.html_type >= 6):
                        # An empty line ends a top-level paragraph or ordinary HTML block.
                        stack.pop()
                        self.finalize(tip)
                        pos += 2 if text.startswith("\r\n", pos) else 1
                        continue
            m = eol.search(text, pos)
            if m is None:
                self.line(pos, n)
                pos = n
            else:
                self.line(pos, m.start())
                pos = m.end()
            if self.pending is not None:
                yield self.pending
                self.pending = None
        while len(stack) > 1:
            self.finalize(stack.pop())
        if self.unit_start < n:
            yield Unit(self.unit_start, n, tuple(self.blocks))


def _map_range(
    segs: list[tuple[int, int]], cum: list[int], x: int, y: int
) -> list[tuple[int, int]]:
    """Source ranges of the content range [x, y) of the concatenated segments."""
    out: list[tuple[int, int]] = []
    for (a, b), c in zip(segs, cum, strict=True):
        lo = max(x, c)
        hi = min(y, c + b - a)
        if lo < hi:
            out.append((a + lo - c, a + hi - c))
    return out


def iter_units(text: str, start: int = 0) -> Iterator[Unit]:
    """The top-level units of `text` from `start` (a unit start, or 0), lazily."""
    start = min(max(start, 0), len(text))
    return _Parser(text, start).run()


def parse_blocks(text: str) -> tuple[Block, ...]:
    """Every leaf block of `text`, in source order."""
    out: list[Block] = []
    for unit in iter_units(text):
        out.extend(unit.blocks)
    return tuple(out)
