"""Memory keys: the trimming whitespace set (docs/syntax.md section B), key normalization.

A key is a marker body trimmed by the explicit whitespace set below, then checked
(docs/syntax.md rule 6). Interior text is kept exactly as written.
"""

from __future__ import annotations

import re

from mfls.syntax.model import Reason

# The explicit cross-language set of docs/syntax.md section B.
# U+FEFF is deliberately absent: it is key content.
WHITESPACE: frozenset[str] = frozenset(
    [chr(c) for c in range(0x09, 0x0E)]
    + [chr(c) for c in range(0x1C, 0x21)]
    + ["\u0085", "\u00a0", "\u1680"]
    + [chr(c) for c in range(0x2000, 0x200B)]
    + ["\u2028", "\u2029", "\u202f", "\u205f", "\u3000"]
)
WHITESPACE_CHARS: str = "".join(sorted(WHITESPACE))

LINE_BREAKS: frozenset[str] = frozenset("\n\r\u0085\u2028\u2029")

_LINE_BREAK_RE = re.compile("[\n\r\u0085\u2028\u2029]")
_FORBIDDEN_RE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")

OPENING_SEQUENCE = "{{"
CLOSING_SEQUENCE = "}}"


def trim(s: str, start: int = 0, end: int | None = None) -> tuple[int, int]:
    """The range of `s[start:end]` left after trimming the whitespace set (section B).

    Returns absolute offsets into `s`; an all-whitespace range gives `(end, end)`.
    """
    if end is None:
        end = len(s)
    if start >= end:
        return end, end
    if end - start > 64:
        rest = s[start:end].lstrip(WHITESPACE_CHARS)
        if not rest:
            return end, end
        left = end - len(rest)
        return left, left + len(rest.rstrip(WHITESPACE_CHARS))
    left = start
    while s[left] in WHITESPACE:
        left += 1
        if left == end:
            return end, end
    right = end
    while s[right - 1] in WHITESPACE:
        right -= 1
    return left, right


def trimmed(s: str) -> str:
    """`s` with the whitespace set of docs/syntax.md section B removed from both ends."""
    return s.strip(WHITESPACE_CHARS)


def key_problem(key: str) -> Reason | None:
    """Why an already trimmed key is invalid, or None when it is a valid key."""
    if not key:
        return Reason.EMPTY
    # Every forbidden character (Cc, Zl, Zp) is unprintable: a printable key has none.
    if key.isprintable() or _FORBIDDEN_RE.search(key) is None:
        return None
    if _LINE_BREAK_RE.search(key):
        return Reason.LINE_BREAK
    return Reason.CONTROL_CHARACTER


def normalize_key(body: str) -> tuple[str | None, Reason | None]:
    """Normalize a marker body: `(key, None)` when valid, else `(None, reason)`."""
    key = trimmed(body)
    reason = key_problem(key)
    if reason is not None:
        return None, reason
    return key, None


def is_valid_key(key: str) -> bool:
    """True when `key` is exactly what some marker body normalizes to."""
    return key == trimmed(key) and key_problem(key) is None and CLOSING_SEQUENCE not in key


NOT_UTF8 = "not-utf8"
"""The `check_new_key` problem of a name that cannot be encoded as UTF-8."""


def _encodes_as_utf8(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_new_key(name: str) -> tuple[str | None, str | None]:
    """Validate a name typed by the user (rename): `(key, None)` or `(None, problem)`.

    The problems are the reason codes of rule 6 (`empty`, `line-break`,
    `control-character`) plus `closing-sequence`: a key holding `}}` cannot be written,
    and `not-utf8`: a name holding a lone surrogate (from a client's JSON escapes, or
    invalid UTF-8 on a command line) cannot be written to a UTF-8 file.
    """
    if not _encodes_as_utf8(name):
        return None, NOT_UTF8
    key = trimmed(name)
    reason = key_problem(key)
    if reason is not None:
        return None, reason.value
    if CLOSING_SEQUENCE in key:
        return None, "closing-sequence"
    return key, None


def marker_text(key: str) -> str:
    """The marker generated for `key`: one space of padding each side (syntax.md section A)."""
    return "{{ " + key + " }}"
