"""Offsets <-> LSP positions in the negotiated encoding, the front end's one place for
them: `Converter` through a document's `LineIndex`, `StreamPositions` for offsets asked
in ascending order without indexing the whole text (the line rules are
`mfls.text.lines`'s and `LineIndex`'s)."""

from __future__ import annotations

from lsprotocol import types as t

from mfls.lsp.documents import Texts
from mfls.text.line_index import Encoding, LineIndex, units
from mfls.text.lines import line_breaks, line_start, off_crlf


class Converter:
    """Code point offsets -> LSP positions and ranges, in the negotiated encoding."""

    def __init__(self, texts: Texts, encoding: Encoding = Encoding.UTF16) -> None:
        self.texts = texts
        self.encoding = encoding

    def position(self, index: LineIndex, offset: int) -> t.Position:
        line, character = index.position(offset, self.encoding)
        return t.Position(line=line, character=character)

    def range(self, index: LineIndex, start: int, end: int) -> t.Range:
        return t.Range(start=self.position(index, start), end=self.position(index, end))

    def range_in(self, uri: str, start: int, end: int) -> t.Range | None:
        index = self.texts.index(uri)
        return None if index is None else self.range(index, start, end)


class StreamPositions:
    """Offsets -> LSP positions of one text, for offsets asked in ascending order.

    Counts line endings between consecutive offsets instead of indexing the whole text,
    which matters when one rename touches thousands of closed documents."""

    def __init__(self, text: str, encoding: Encoding) -> None:
        self.text = text
        self.encoding = encoding
        self._offset = 0
        self._line = 0
        self._lf = "\n" in text
        self._cr = "\r" in text

    def line_character(self, offset: int) -> tuple[int, int]:
        text = self.text
        offset = off_crlf(text, min(max(offset, 0), len(text)))
        if offset < self._offset:
            self._offset, self._line = 0, 0
        low = self._offset
        if self._lf or self._cr:
            self._line += line_breaks(text, low, offset)
        self._offset = offset
        start = line_start(text, offset) if self._lf or self._cr else 0
        return self._line, self._units(text[start:offset])

    def position(self, offset: int) -> t.Position:
        line, character = self.line_character(offset)
        return t.Position(line=line, character=character)

    def range(self, start: int, end: int) -> t.Range:
        return t.Range(start=self.position(start), end=self.position(end))

    def range_json(self, start: int, end: int) -> dict[str, dict[str, int]]:
        start_line, start_character = self.line_character(start)
        piece = self.text[start:end]
        if "\n" in piece or "\r" in piece:
            end_line, end_character = self.line_character(end)
        else:
            end_line, end_character = start_line, start_character + self._units(piece)
        return {
            "start": {"line": start_line, "character": start_character},
            "end": {"line": end_line, "character": end_character},
        }

    def _units(self, piece: str) -> int:
        return units(piece, self.encoding)
