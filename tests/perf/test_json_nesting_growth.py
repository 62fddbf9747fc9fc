"""Measuring JSON's nesting (`mfls.text.json_nesting`, run on every untrusted export and
course JSON file before it is read) costs the same per character on long text as on short,
whatever the text: a string left open with many escaped quotes made the old string pattern
retry from every quote (40 KB of `\\"` took 10 s in `mfls unpack`).

Timed: the CPU time per character at `LARGE` characters must stay within `BOUND` of that at
`SMALL`: best of `RUNS`, compared up to `ATTEMPTS` times. Quadratic work is 10x.
"""

from __future__ import annotations

import time

import pytest

from mfls.text.json_nesting import json_nesting

BOUND = 2.0
RUNS = 3
ATTEMPTS = 3
SMALL, LARGE = 20_000, 200_000
SHAPES = {
    "open string of escaped quotes": lambda n: '"' + '\\"' * (n // 2),
    "closed strings in a list": lambda n: "[" + '"a\\"b",' * (n // 7) + "1]",
    "brackets": lambda n: "[" * (n // 2) + "]" * (n // 2),
}


def seconds(text: str) -> float:
    best = float("inf")
    for _ in range(RUNS):
        began = time.process_time()
        json_nesting(text)
        best = min(best, time.process_time() - began)
    return best


@pytest.mark.parametrize("shape", list(SHAPES))
def test_nesting_is_measured_in_linear_time(shape: str) -> None:
    small, large = SHAPES[shape](SMALL), SHAPES[shape](LARGE)
    seen = []
    for _ in range(ATTEMPTS):
        per_small, per_large = seconds(small) / len(small), seconds(large) / len(large)
        if per_large <= BOUND * max(per_small, 1e-9):
            return
        seen.append(f"{per_large * 1e9:.1f} ns against {per_small * 1e9:.1f} ns")
    pytest.fail(f"{shape}: per character at {LARGE} against {SMALL}: {seen}")
