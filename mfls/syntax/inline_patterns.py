"""Building blocks for reading inline text: patterns and linear-time lookups.

Every lookup here is memoized or precomputed so that a left-to-right reading of an
inline text stays linear even when openers repeat without closers.
"""

from __future__ import annotations

import re
from bisect import bisect_left

ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")

# Rule 20: space, tab, line ending, form feed, or a Unicode space separator (Zs).
MATH_SPACE = (
    " \t\n\r\f\u00a0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u202f\u205f\u3000"
)
_MATH_SPACE_CLASS = "".join(f"\\u{ord(c):04x}" for c in MATH_SPACE)
SINGLE_DOLLAR_CLOSER = re.compile(f"(?<=[^{_MATH_SPACE_CLASS}])\\$(?![0-9])")
DOUBLE_DOLLAR = re.compile(r"\$\$")

BACKTICK_RUN = re.compile(r"`+")

# CommonMark 0.31.2 autolinks.
URI_AUTOLINK = re.compile(r"<[A-Za-z][A-Za-z0-9+.\-]{1,31}:[^\x00-\x20<>]*>")
EMAIL_AUTOLINK = re.compile(
    r"<[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~\-]+@[a-zA-Z0-9](?:[a-zA-Z0-9\-]{0,61}[a-zA-Z0-9])?"
    r"(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9\-]{0,61}[a-zA-Z0-9])?)*>"
)

# CommonMark 0.31.2 raw HTML: "spaces, tabs, and up to one line ending".
_NL = r"(?:\r\n|\r|\n)"
_OWS = rf"[ \t]*(?:{_NL}[ \t]*)?"
_WS = rf"(?:[ \t]+(?:{_NL}[ \t]*)?|{_NL}[ \t]*)"
_VALUE = r"""(?:[^ \t\r\n"'=<>`]+|'[^']*'|"[^"]*")"""
_ATTRIBUTE = rf"{_WS}[A-Za-z_:][A-Za-z0-9_.:\-]*(?:{_OWS}={_OWS}{_VALUE})?"
OPEN_TAG = re.compile(rf"<[A-Za-z][A-Za-z0-9\-]*(?:{_ATTRIBUTE})*{_OWS}/?>")
CLOSING_TAG = re.compile(rf"</[A-Za-z][A-Za-z0-9\-]*{_OWS}>")

# Link syntax.
LINK_SPACE = re.compile(rf"[ \t]*(?:{_NL}[ \t]*)?")
_PUNCT_CLASS = re.escape("".join(sorted(ASCII_PUNCTUATION)))
POINTY_DESTINATION = re.compile(rf"<(?:[^\r\n<>\\]|\\[{_PUNCT_CLASS}]|\\(?![{_PUNCT_CLASS}]))*>")
TITLES = {
    '"': re.compile(r'"(?:[^"\\]|\\[\s\S])*"'),
    "'": re.compile(r"'(?:[^'\\]|\\[\s\S])*'"),
    "(": re.compile(r"\((?:[^()\\]|\\[\s\S])*\)"),
}
_PAREN_EVENT = re.compile(rf"\\[{_PUNCT_CLASS}]|[()]")
DESTINATION_END = re.compile(r"[\x00-\x20\x7f]")
# A raw destination without parentheses or backslashes; where it stops at anything
# but `(` or `\`, it is the whole destination.
PLAIN_DESTINATION = re.compile(r"[^\x00-\x20\x7f()\\]*")
LABEL_BRACKET = re.compile(r"[\[\]]")
MAX_LABEL = 999


class NextFinder:
    """First occurrence at or after a position, memoized for forward-moving queries."""

    __slots__ = ("_literal", "_pattern", "_query", "_result", "_text")

    def __init__(
        self, text: str, literal: str | None = None, pattern: re.Pattern[str] | None = None
    ):
        self._text = text
        self._literal = literal
        self._pattern = pattern
        self._query = -1
        self._result = -1

    def __call__(self, pos: int) -> int:
        """Start of the first match at or after `pos`, or -1."""
        if self._query != -1 and self._query <= pos and (self._result == -1 or self._result >= pos):
            return self._result
        if self._literal is not None:
            found = self._text.find(self._literal, pos)
        else:
            assert self._pattern is not None
            m = self._pattern.search(self._text, pos)
            found = -1 if m is None else m.start()
        self._query = pos
        self._result = found
        return found


def backslashes_before(text: str, pos: int, low: int = 0) -> int:
    """How many backslashes immediately precede `pos` (not looking before `low`)."""
    i = pos
    while i > low and text[i - 1] == "\\":
        i -= 1
    return pos - i


class BacktickRuns:
    """All maximal backtick runs of a text, by length, for code span closers."""

    __slots__ = ("_runs",)

    def __init__(self, text: str):
        runs: dict[int, list[int]] = {}
        for m in BACKTICK_RUN.finditer(text):
            runs.setdefault(m.end() - m.start(), []).append(m.start())
        self._runs = runs

    def closer(self, length: int, after: int) -> int:
        """Start of the first run of exactly `length` backticks starting at or after `after`."""
        starts = self._runs.get(length)
        if not starts:
            return -1
        k = bisect_left(starts, after)
        return starts[k] if k < len(starts) else -1


class Parens:
    """Unescaped parentheses with their nesting depth, for raw link destinations.

    `end_of(q, limit)` answers where a raw destination starting at `q` stops before
    `limit` (the first space or control character): at the first `)` that would
    make its parentheses unbalanced, else at `limit` when they are balanced there.
    """

    __slots__ = ("_depth", "_next_lower", "_positions", "_start_lower")

    def __init__(self, text: str):
        positions: list[int] = []
        depth: list[int] = []
        level = 0
        for m in _PAREN_EVENT.finditer(text):
            c = text[m.start()]
            if c == "\\":
                continue
            level += 1 if c == "(" else -1
            positions.append(m.start())
            depth.append(level)
        # next_lower[k]: first index j > k with depth[j] < depth[k] (len if none).
        count = len(depth)
        next_lower = [count] * count
        stack: list[int] = []
        for j, d in enumerate(depth):
            while stack and depth[stack[-1]] > d:
                next_lower[stack.pop()] = j
            stack.append(j)
        start_lower = next((j for j, d in enumerate(depth) if d < 0), count)
        self._positions = positions
        self._depth = depth
        self._next_lower = next_lower
        self._start_lower = start_lower

    def end_of(self, q: int, limit: int) -> int:
        """End of a raw destination starting at `q`, or -1 when it is unbalanced."""
        positions = self._positions
        a = bisect_left(positions, q)
        if a == 0:
            base = 0
            drop = self._start_lower
        else:
            base = self._depth[a - 1]
            drop = self._next_lower[a - 1]
        if drop < len(positions) and positions[drop] < limit:
            return positions[drop]
        last = bisect_left(positions, limit) - 1
        if last < a or self._depth[last] == base:
            return limit
        return -1
