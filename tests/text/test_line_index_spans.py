"""`LineIndex.position` and `spans` against a count made from scratch, in every encoding,
on texts with and without characters beyond the BMP, through edits."""

from __future__ import annotations

import random

from mfls.text.line_index import Encoding, LineIndex

ALPHABETS = (
    ["a", " ", "\n", "\r\n", "\r", "😀", "二", "é"],
    ["a", "\n", "二", "\r\n"],  # wide, but no astral character
    ["a", "\r", "\n"],
)


def reference(text: str, offset: int, encoding: Encoding) -> tuple[int, int]:
    offset = min(max(offset, 0), len(text))
    if 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n":
        offset -= 1
    before = text[:offset].replace("\r\n", "\n").replace("\r", "\n")
    line = before.count("\n")
    piece = before[before.rfind("\n") + 1 :]
    if encoding is Encoding.UTF8:
        return line, len(piece.encode("utf-8"))
    if encoding is Encoding.UTF16:
        return line, len(piece.encode("utf-16-le")) // 2
    return line, len(piece)


def test_positions_and_spans_count_as_from_scratch() -> None:
    rng = random.Random(11)
    for alphabet in ALPHABETS:
        for _ in range(300):
            text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24)))
            index = LineIndex(text)
            for _ in range(3):
                offsets = range(-2, len(text) + 3)
                spans = [(rng.choice(offsets), rng.choice(offsets)) for _ in range(8)]
                for encoding in Encoding:
                    for offset in offsets:
                        assert index.position(offset, encoding) == reference(text, offset, encoding)
                    assert index.spans(spans, encoding) == [
                        (*reference(text, a, encoding), *reference(text, b, encoding))
                        for a, b in spans
                    ]
                start = rng.randint(0, len(text))
                end = rng.randint(start, len(text))
                new = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 3)))
                index = index.edited(start, end, new)
                text = text[:start] + new + text[end:]
                assert index.text == text
