"""`places` (one pass over a text) agrees with `place` through a whole `LineIndex`."""

from __future__ import annotations

import random

from mfls.cli.output import place
from mfls.text.line_index import LineIndex
from mfls.text.places import places


def test_places_match_a_line_index() -> None:
    rng = random.Random(3)
    with_returns = ["a", "b", "\n", "\r", "\r\n", "é", "😀", "  "]
    for trial in range(4000):
        pieces = with_returns if trial % 2 else with_returns[:3] + with_returns[5:]
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 30)))
        offsets = [rng.randrange(-2, len(text) + 3) for _ in range(rng.randrange(0, 8))]
        found = places(text, offsets)
        index = LineIndex(text)
        assert {o: place(index, o) for o in offsets} == found


def test_no_offsets_reads_nothing() -> None:
    assert places("a\nb", []) == {}
