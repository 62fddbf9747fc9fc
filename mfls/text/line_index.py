"""Code point offsets <-> (line, character) positions counted in UTF-8, UTF-16 or UTF-32 units.

LF, CRLF and CR end lines. A `LineIndex` belongs to one text; `edited` derives the
index of the text after one edit without rescanning the whole text.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from enum import Enum

_LINE_END = re.compile(r"\r\n|\r|\n")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


class Encoding(str, Enum):
    UTF8 = "utf-8"
    UTF16 = "utf-16"
    UTF32 = "utf-32"

    @classmethod
    def parse(cls, name: str | None) -> Encoding:
        for member in cls:
            if member.value == name:
                return member
        return cls.UTF16


def units(text: str, encoding: Encoding) -> int:
    """How many code units of `encoding` spell `text` (a lone surrogate counts as one)."""
    if encoding is Encoding.UTF32 or text.isascii():
        return len(text)
    if encoding is Encoding.UTF16:
        return len(text.encode("utf-16-le", "surrogatepass")) // 2
    return len(text.encode("utf-8", "surrogatepass"))


def _char_units(ch: str, encoding: Encoding) -> int:
    code = ord(ch)
    if encoding is Encoding.UTF32 or code < 0x80:
        return 1
    if encoding is Encoding.UTF16:
        return 2 if code > 0xFFFF else 1
    if code < 0x800:
        return 2
    return 3 if code < 0x10000 else 4


def _line_starts(text: str, lo: int, hi: int) -> list[int]:
    """Line starts p with lo <= p <= hi (p > 0), read from the text itself."""
    starts = []
    for match in _LINE_END.finditer(text, max(lo - 1, 0), min(hi + 1, len(text))):
        end = match.end()
        if match.group() == "\r" and end < len(text) and text[end] == "\n":
            continue
        if lo <= end <= hi:
            starts.append(end)
    return starts


class LineIndex:
    """Line starts of one text, as code point offsets."""

    __slots__ = ("_narrow", "_starts", "text")

    def __init__(
        self, text: str, starts: list[int] | None = None, narrow: bool | None = None
    ) -> None:
        self.text = text
        self._starts = starts if starts is not None else [0, *_line_starts(text, 1, len(text))]
        self._narrow = narrow  # no character beyond the BMP (None: not looked at yet)

    def _counts_code_points(self, encoding: Encoding) -> bool:
        """Whether a character count in `encoding` is a code point count for this text."""
        if encoding is Encoding.UTF32 or self.text.isascii():  # isascii: O(1) on str
            return True
        if encoding is not Encoding.UTF16:
            return False
        if self._narrow is None:
            self._narrow = _ASTRAL.search(self.text) is None
        return self._narrow

    @property
    def line_count(self) -> int:
        return len(self._starts)

    def line_of(self, offset: int) -> int:
        return bisect_right(self._starts, offset) - 1

    def line_start(self, line: int) -> int:
        return self._starts[line]

    def line_content_end(self, line: int) -> int:
        """The end of the line's text, its line ending excluded."""
        if line + 1 < len(self._starts):
            end = self._starts[line + 1]
            if self.text[end - 1] == "\n" and end >= 2 and self.text[end - 2] == "\r":
                return end - 2
            return end - 1
        return len(self.text)

    def position(self, offset: int, encoding: Encoding) -> tuple[int, int]:
        """(line, character) of a code point offset, clamped into the text."""
        text = self.text
        size = len(text)
        if offset < 0:
            offset = 0
        elif offset > size:
            offset = size
        starts = self._starts
        line = bisect_right(starts, offset) - 1
        start = starts[line]
        # An offset between CR and LF belongs to the line's end.
        if start < offset < size and text[offset] == "\n" and text[offset - 1] == "\r":
            offset -= 1
        if self._counts_code_points(encoding):
            return line, offset - start
        return line, units(text[start:offset], encoding)

    def spans(
        self, spans: Iterable[tuple[int, int]], encoding: Encoding
    ) -> list[tuple[int, int, int, int]]:
        """`position` of both ends of each (start, end): (line, character, end line, end
        character), for thousands of spans at a time."""
        text = self.text
        if not self._counts_code_points(encoding):
            position = self.position
            return [(*position(start, encoding), *position(end, encoding)) for start, end in spans]
        size = len(text)
        starts = self._starts
        found = []
        for start, end in spans:
            start = 0 if start < 0 else size if start > size else start
            end = 0 if end < 0 else size if end > size else end
            line = bisect_right(starts, start) - 1
            end_line = line if end == start else bisect_right(starts, end) - 1
            first = starts[line]
            end_first = starts[end_line]
            # An offset between CR and LF belongs to the line's end.
            if first < start < size and text[start] == "\n" and text[start - 1] == "\r":
                start -= 1
            if end_first < end < size and text[end] == "\n" and text[end - 1] == "\r":
                end -= 1
            found.append((line, start - first, end_line, end - end_first))
        return found

    def offset(self, line: int, character: int, encoding: Encoding) -> int:
        """The code point offset of a (line, character) position, clamped: past the last line is the
        end of the text, past a line's end is that end, inside a character is its start."""
        if line < 0:
            return 0
        if line >= len(self._starts):
            return len(self.text)
        start = self._starts[line]
        end = self.line_content_end(line)
        character = max(character, 0)
        if encoding is Encoding.UTF32:
            return min(start + character, end)
        segment = self.text[start : min(end, start + character)]
        if segment.isascii():
            return start + len(segment)
        units = 0
        pos = start
        while pos < end:
            step = _char_units(self.text[pos], encoding)
            if units + step > character:
                break
            units += step
            pos += 1
        return pos

    def edited(self, start: int, end: int, new_text: str) -> LineIndex:
        """The index of the text with [start, end) replaced by `new_text`."""
        text = self.text[:start] + new_text + self.text[end:]
        delta = len(new_text) - (end - start)
        starts = self._starts
        # A line start p depends only on the characters at p - 1 and p.
        keep = starts[: max(1, bisect_right(starts, start - 1))]
        middle = _line_starts(text, max(start, 1), start + len(new_text))
        tail = [p + delta for p in starts[bisect_right(starts, end) :]]
        narrow = self._narrow
        if narrow and _ASTRAL.search(new_text) is not None:
            narrow = False
        return LineIndex(text, keep + middle + tail, narrow)
