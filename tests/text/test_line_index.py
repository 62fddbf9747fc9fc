"""`LineIndex` (mfls.text.line_index): code point offsets <-> (line, character) in each
position encoding."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mfls.text.line_index import Encoding, LineIndex

PIECES = st.sampled_from(["a", "é", "中", "😀", "\n", "\r", "\r\n", " ", "{", "}"])
TEXTS = st.lists(PIECES, max_size=30).map("".join)


def test_columns_after_an_emoji_in_each_encoding() -> None:
    index = LineIndex("x😀{{ a }}")
    brace = 2
    assert index.position(brace, Encoding.UTF16) == (0, 3)
    assert index.position(brace, Encoding.UTF8) == (0, 5)
    assert index.position(brace, Encoding.UTF32) == (0, 2)
    assert index.offset(0, 3, Encoding.UTF16) == brace
    assert index.offset(0, 5, Encoding.UTF8) == brace
    assert index.offset(0, 2, Encoding.UTF32) == brace


def test_crlf_cr_and_lf_each_end_one_line() -> None:
    index = LineIndex("a\r\nb\rc\nd")
    assert index.line_count == 4
    assert [index.line_start(n) for n in range(4)] == [0, 3, 5, 7]
    assert index.position(5, Encoding.UTF16) == (2, 0)
    assert index.offset(1, 0, Encoding.UTF16) == 3


def test_an_offset_between_cr_and_lf_is_the_end_of_its_line() -> None:
    index = LineIndex("ab\r\ncd")
    assert index.position(3, Encoding.UTF16) == (0, 2)


def test_out_of_range_positions_are_clamped() -> None:
    index = LineIndex("ab\r\ncd")
    assert index.offset(0, 99, Encoding.UTF16) == 2
    assert index.offset(7, 0, Encoding.UTF16) == 6
    assert index.offset(-1, 4, Encoding.UTF16) == 0
    assert index.offset(1, -3, Encoding.UTF16) == 4
    assert index.position(-5, Encoding.UTF8) == (0, 0)
    assert index.position(99, Encoding.UTF8) == (1, 2)


def test_a_column_inside_a_surrogate_pair_is_the_start_of_that_character() -> None:
    index = LineIndex("😀b")
    assert index.offset(0, 1, Encoding.UTF16) == 0
    assert index.offset(0, 2, Encoding.UTF16) == 1


def test_unknown_encoding_names_fall_back_to_utf16() -> None:
    assert Encoding.parse("utf-32") is Encoding.UTF32
    assert Encoding.parse("latin-1") is Encoding.UTF16
    assert Encoding.parse(None) is Encoding.UTF16


@given(TEXTS)
def test_positions_round_trip(text: str) -> None:
    index = LineIndex(text)
    for encoding in Encoding:
        for offset in range(len(text) + 1):
            line, character = index.position(offset, encoding)
            assert index.offset(line, character, encoding) == min(
                offset, index.line_content_end(line)
            )


@given(TEXTS, st.data())
def test_edited_index_equals_a_fresh_index(text: str, data: st.DataObject) -> None:
    index = LineIndex(text)
    for _ in range(3):
        start = data.draw(st.integers(0, len(index.text)))
        end = data.draw(st.integers(start, len(index.text)))
        index = index.edited(start, end, data.draw(TEXTS))
        fresh = LineIndex(index.text)
        assert [index.line_start(n) for n in range(index.line_count)] == [
            fresh.line_start(n) for n in range(fresh.line_count)
        ]
