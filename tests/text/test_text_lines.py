"""`mfls.text.lines`: the text side's one line/column function and its CR/LF rule agree
with a whole `LineIndex` (code point columns), for every offset of random texts."""

from __future__ import annotations

import random

from mfls.text.line_index import Encoding, LineIndex
from mfls.text.lines import line_column, nth_line_start, off_crlf


def random_texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    pieces = ["a", "b", "\n", "\r", "\r\n", "é", "  "]
    return ["".join(rng.choice(pieces) for _ in range(rng.randrange(0, 25))) for _ in range(count)]


def test_line_column_matches_a_line_index() -> None:
    for text in random_texts(5, 1500):
        index = LineIndex(text)
        for offset in range(-2, len(text) + 3):
            assert line_column(text, offset) == index.position(offset, Encoding.UTF32)


def test_nth_line_start_matches_a_line_index() -> None:
    for text in random_texts(6, 1500):
        index = LineIndex(text)
        for line in range(index.line_count):
            assert nth_line_start(text, line) == index.line_start(line)
        assert nth_line_start(text, index.line_count) == len(text)


def test_an_offset_between_cr_and_lf_ends_its_line() -> None:
    text = "a\r\nb\rc"
    assert [off_crlf(text, o) for o in range(len(text) + 1)] == [0, 1, 1, 3, 4, 5, 6]
    assert line_column(text, 2) == (0, 1)
    assert line_column(text, 5) == (2, 0)  # a lone CR ends a line too
