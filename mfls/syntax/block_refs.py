"""Link reference definitions (CommonMark 0.31.2, section 4.7) at the start of a paragraph.

`parse_reference` reads the paragraph's raw content: its lines after container markers
and leading whitespace, joined with their original line endings.
"""

from __future__ import annotations

import re

from mfls.syntax.inline_patterns import ASCII_PUNCTUATION

_LABEL = re.compile(r"\[(?:[^\\\[\]]|\\.){0,999}\]", re.DOTALL)
_SPNL = re.compile(r"[ \t]*(?:(?:\r\n|\r|\n)[ \t]*)?")
_ANGLE_DESTINATION = re.compile(r"<(?:[^<>\r\n\\]|\\[^\r\n])*>")
_DESTINATION_RUN = re.compile(r"[^\x00-\x20\x7f()\\]+")
_TITLE = re.compile(
    r"\"[^\"\\]*(?:\\.[^\"\\]*)*\"|'[^'\\]*(?:\\.[^'\\]*)*'|\([^()\\]*(?:\\.[^()\\]*)*\)",
    re.DOTALL,
)
_LINE_REST = re.compile(r"[ \t]*(?:\r\n|\r|\n|\Z)")


def _raw_destination(s: str, i: int) -> int:
    """End of a raw link destination starting at `i`, or -1."""
    n = len(s)
    start = i
    depth = 0
    while i < n:
        m = _DESTINATION_RUN.match(s, i)
        if m is not None:
            i = m.end()
            if i >= n:
                break
        c = s[i]
        if c == "\\":
            i += 2 if i + 1 < n and s[i + 1] in ASCII_PUNCTUATION else 1
        elif c == "(":
            depth += 1
            i += 1
        elif c == ")":
            if depth == 0:
                break
            depth -= 1
            i += 1
        else:
            break
    if depth != 0 or i == start:
        return -1
    return i


def parse_reference(s: str, p: int) -> int:
    """If a link reference definition starts at `s[p]`, the offset after its line ending
    (or the end of `s`); otherwise -1. NUL must already be replaced by U+FFFD."""
    m = _LABEL.match(s, p)
    if m is None or m.end() - p - 2 > 999 or not s[p + 1 : m.end() - 1].strip(" \t\r\n"):
        return -1
    q = m.end()
    if q >= len(s) or s[q] != ":":
        return -1
    q = _skip_spnl(s, q + 1)
    if q < len(s) and s[q] == "<":
        d = _ANGLE_DESTINATION.match(s, q)
        if d is None:
            return -1
        q = d.end()
    else:
        q = _raw_destination(s, q)
        if q < 0:
            return -1
    before_title = q
    t = _skip_spnl(s, q)
    if t != before_title and t < len(s) and s[t] in "\"'(":
        title = _TITLE.match(s, t)
        if title is not None:
            rest = _LINE_REST.match(s, title.end())
            if rest is not None:
                return rest.end()
    rest = _LINE_REST.match(s, before_title)
    return rest.end() if rest is not None else -1


def _skip_spnl(s: str, q: int) -> int:
    """The offset after optional spaces and at most one line ending, from `q`."""
    match = _SPNL.match(s, q)
    return q if match is None else match.end()
