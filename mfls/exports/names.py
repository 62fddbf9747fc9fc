"""Titles as file names that are safe and portable on Linux, macOS and Windows.

`safe_stem(title)` keeps a title readable and drops what a file system or a course glob
would read otherwise: path separators (`/`, `\\`), the characters Windows forbids
(`<>:"|?*`), glob characters (`[]{}`), control and format characters (line breaks,
bidi controls, zero-width marks) and runs of white space (one space each); leading dots
and spaces (no hidden files, no `..`), trailing dots and spaces (Windows drops them);
Windows device names (`CON`, `NUL`, `COM1`, ... whatever follows a dot) get a trailing
`_`; the text is NFC-normalized (as macOS stores names) and cut to `MAX_STEM_BYTES` of
UTF-8 at a character boundary, never inside a character or before a combining mark. An
empty result is `untitled`. Emoji and other letters stay.

`UniqueNames` makes names of one folder distinct as case-insensitive file systems
compare them (NFC, case folded), numbering later duplicates `name (2)`, `name (3)`...
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

MAX_STEM_BYTES: Final = 96
"""A stem's UTF-8 length limit, so prefix + stem + number + suffix stays far below the
255-byte name limit of common file systems and paths stay short on Windows."""

_FORBIDDEN: Final = frozenset('/\\<>:"|?*[]{}')
_RESERVED: Final = frozenset(
    ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"]
    + [f"{base}{n}" for base in ("COM", "LPT") for n in [*"123456789", "¹", "²", "³"]]
)
_SPACES: Final = re.compile(r"\s+")


def _clean_char(ch: str) -> str:
    if ch in _FORBIDDEN:
        return "_"
    category = unicodedata.category(ch)
    if category in ("Cc", "Zl", "Zp"):
        return " "
    if category in ("Cf", "Cs", "Co", "Cn") and ch != "\u200d":
        return ""
    return ch


def _cut(text: str, limit: int) -> str:
    """`text` cut to at most `limit` UTF-8 bytes, at a character boundary, with no
    combining mark, joiner or variation selector left dangling at the end."""
    if len(text.encode("utf-8")) <= limit:
        return text
    size = 0
    end = 0
    for index, ch in enumerate(text):
        size += len(ch.encode("utf-8"))
        if size > limit:
            break
        end = index + 1
    # Do not cut between a character and the marks that belong to it.
    while end > 0 and end < len(text) and _continues(text[end]):
        end -= 1
    cut = text[:end]
    while cut and cut[-1] == "\u200d":
        cut = cut[:-1]
    return cut


def _continues(ch: str) -> bool:
    return (
        unicodedata.category(ch).startswith("M")
        or ch == "\u200d"
        or 0xFE00 <= ord(ch) <= 0xFE0F
        or 0x1F3FB <= ord(ch) <= 0x1F3FF
    )


def safe_stem(title: str, limit: int = MAX_STEM_BYTES) -> str:
    """`title` as a portable file name stem (see the module docstring)."""
    text = unicodedata.normalize("NFC", "".join(_clean_char(ch) for ch in title))
    text = "".join(_clean_char(ch) for ch in text)  # NFC may compose into nothing new
    text = _SPACES.sub(" ", text).strip(" ")
    text = text.lstrip(". ")
    text = _cut(text, limit).rstrip(". ")
    if not text:
        return "untitled"
    if text.split(".", 1)[0].rstrip(" ").upper() in _RESERVED:
        text = _cut(text, limit - 1).rstrip(". ") + "_"
    return text


def fold(name: str) -> str:
    """The form two names of one folder must not share: what case-insensitive,
    normalizing file systems compare."""
    return unicodedata.normalize("NFC", name).casefold()


class UniqueNames:
    """Names of one folder, each distinct from the others under `fold`."""

    __slots__ = ("_taken",)

    def __init__(self) -> None:
        self._taken: set[str] = set()

    def take(self, stem: str, suffix: str = "") -> str:
        """`stem + suffix`, or `stem (n) + suffix` with the first free `n` from 2."""
        name = stem + suffix
        number = 1
        while fold(name) in self._taken:
            number += 1
            name = f"{stem} ({number}){suffix}"
        self._taken.add(fold(name))
        return name
