"""Places of offsets in a text as a terminal shows them: 1-based lines and code point
columns, for the few offsets a report names (no line index of the whole text).

Compiled with the scanner: a check places two offsets per finding, and a dense course
has one finding per 250 bytes."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable

from mfls.text.lines import line_breaks, line_start, off_crlf


def places(text: str, offsets: Iterable[int]) -> dict[int, tuple[int, int]]:
    """offset -> (1-based line, code point column) for each of `offsets` (clamped into
    the text; an offset between CR and LF is the end of its line), from the line starts
    up to the last of them."""
    wanted = sorted(set(offsets))
    if not wanted:
        return {}
    size = len(text)
    if "\r" in text:
        return _places_with_returns(text, wanted, size)
    last = min(max(wanted[-1], 0), size)
    starts: list[int] = [0]  # where each line up to `last` starts
    at = text.find("\n", 0, last)
    while at >= 0:
        starts.append(at + 1)
        at = text.find("\n", at + 1, last)
    found: dict[int, tuple[int, int]] = {}
    for offset in wanted:
        target = min(max(offset, 0), size)
        line: int = bisect_right(starts, target)
        found[offset] = (line, target - starts[line - 1] + 1)
    return found


def _places_with_returns(text: str, wanted: list[int], size: int) -> dict[int, tuple[int, int]]:
    """`places` where `\r` may end a line, alone or before `\n`."""
    found: dict[int, tuple[int, int]] = {}
    at = 0  # where the previous offset was placed
    line = 0  # line endings before `at`
    start = 0  # where the line holding `at` starts
    for offset in wanted:
        target = off_crlf(text, min(max(offset, 0), size))
        breaks = line_breaks(text, at, target)
        if breaks:
            line += breaks
            start = line_start(text, target)
        at = target
        found[offset] = (line + 1, target - start + 1)
    return found
