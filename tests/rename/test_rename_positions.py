"""The rename handler's position conversion agrees with the server's LineIndex."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mfls.lsp.to_proto import StreamPositions
from mfls.text.line_index import Encoding, LineIndex

pieces = st.sampled_from(["a", " ", "\n", "\r", "\r\n", "😀", "é", "{", "中"])
texts = st.lists(pieces, max_size=40).map("".join)


@given(texts, st.lists(st.integers(min_value=0, max_value=60), max_size=12), st.booleans())
def test_positions_match_line_index(text: str, offsets: list[int], ascending: bool) -> None:
    if ascending:
        offsets = sorted(offsets)
    index = LineIndex(text)
    for encoding in Encoding:
        positions = StreamPositions(text, encoding)
        for offset in offsets:
            got = positions.position(offset)
            assert (got.line, got.character) == index.position(offset, encoding)


@given(texts, st.lists(st.tuples(st.integers(0, 60), st.integers(0, 8)), max_size=8))
def test_ranges_match_line_index(text: str, spans: list[tuple[int, int]]) -> None:
    index = LineIndex(text)
    for encoding in Encoding:
        positions = StreamPositions(text, encoding)
        for start, length in sorted(spans):
            end = min(start + length, len(text))
            start = min(start, end)
            got = positions.range_json(start, end)
            assert (got["start"]["line"], got["start"]["character"]) == index.position(
                start, encoding
            )
            assert (got["end"]["line"], got["end"]["character"]) == index.position(end, encoding)
