"""Splitting the body of an interaction `?[ ... ]` into choices and an input hint.

Markers (valid or not) are atomic: separators inside them mean nothing
(docs/syntax.md rules 13, 15 and 21).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from mfls.syntax.keys import trim
from mfls.syntax.model import Choice, Operator

_PIPE_RUN = re.compile(r"\|+")
# Stands in for the characters of a marker while looking for separators; it is none
# of `.`, `|` or `/`.
_MASK = "\x00"


class SplitBody(NamedTuple):
    multiple: bool
    choices: tuple[Choice, ...]
    input: str | None
    operators: tuple[Operator, ...] = ()  # `|`, `||`, `//` and `...`, by start


def _masked(text: str, start: int, end: int, atoms: Sequence[tuple[int, int]]) -> str:
    pieces: list[str] = []
    pos = start
    for a, b in atoms:
        a = max(a, start)
        b = min(b, end)
        if b <= pos:
            continue
        pieces.append(text[pos:a])
        pieces.append(_MASK * (b - a))
        pos = b
    pieces.append(text[pos:end])
    return "".join(pieces)


def _choice(
    text: str, masked: str, origin: int, start: int, end: int, base: int
) -> tuple[Choice | None, int]:
    """The choice in `text[start:end]` (None when empty) and where its `//` is (or -1)."""
    ts, te = trim(text, start, end)
    if ts >= te:
        return None, -1
    slashes = masked.find("//", ts - origin, te - origin)
    if slashes < 0:
        label = text[ts:te]
        return Choice(label=label, value=label, start=ts + base, end=te + base), -1
    cut = origin + slashes
    ls, le = trim(text, ts, cut)
    choice = Choice(label=text[ls:le], value=text[cut + 2 : te], start=ts + base, end=te + base)
    return choice, cut


def _pieces(masked: str, end: int) -> tuple[bool, list[tuple[int, int]]]:
    """Split `masked[:end]` into choice ranges; also tell whether it is `||` mode."""
    first = masked.find("|", 0, end)
    if first < 0:
        return False, [(0, end)]
    ranges: list[tuple[int, int]] = []
    pos = 0
    if first + 1 < end and masked[first + 1] == "|":
        cut = first
        while cut >= 0:
            ranges.append((pos, cut))
            pos = cut + 2
            cut = masked.find("||", pos, end)
        ranges.append((pos, end))
        return True, ranges
    for run in _PIPE_RUN.finditer(masked, 0, end):
        if run.end() - run.start() == 1:
            ranges.append((pos, run.start()))
            pos = run.end()
    ranges.append((pos, end))
    return False, ranges


def split_body(
    text: str, start: int, end: int, atoms: Sequence[tuple[int, int]] = (), base: int = 0
) -> SplitBody:
    """Split `text[start:end]` (the body after any binding) into choices and input.

    `atoms` are the marker spans inside the body, sorted; offsets are into `text`.
    Choice offsets are offsets into `text` plus `base`.
    """
    masked = _masked(text, start, end, atoms)
    dots = masked.find("...")
    hint: str | None = None
    choices_end = len(masked)
    if dots >= 0:
        hs, he = trim(text, start + dots + 3, end)
        hint = text[hs:he]
        choices_end = dots
    multiple, ranges = _pieces(masked, choices_end)
    choices: list[Choice] = []
    operators: list[Operator] = []
    separator = "||" if multiple else "|"
    at = start + base
    for k, (a, b) in enumerate(ranges):
        choice, slashes = _choice(text, masked, start, start + a, start + b, base)
        if choice is not None:
            choices.append(choice)
            if slashes >= 0:
                operators.append(Operator(slashes + base, slashes + base + 2, "//"))
        if k + 1 < len(ranges):
            operators.append(Operator(at + b, at + ranges[k + 1][0], separator))
    if dots >= 0:
        operators.append(Operator(at + dots, at + dots + 3, "..."))
    return SplitBody(
        multiple=multiple, choices=tuple(choices), input=hint, operators=tuple(operators)
    )
