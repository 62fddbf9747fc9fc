"""Making a key's non-obvious characters visible to an author."""

from __future__ import annotations

import re
import unicodedata

from mfls.features.messages import EN, say

_SPACE_RUNS = re.compile(r" {2,}")


def _name(char: str) -> str:
    return unicodedata.name(char, "unnamed character")


def is_non_obvious(char: str) -> bool:
    """Whitespace other than the ASCII space, and characters that print as nothing."""
    if char == " ":
        return False
    category = unicodedata.category(char)
    return char.isspace() or category in ("Cf", "Cc", "Co", "Cn", "Zs", "Zl", "Zp")


def notes(key: str, language: str = EN) -> list[str]:
    """One line per notable feature of `key`, in reading order; empty when it is plain."""
    found: list[tuple[int, str]] = []
    for match in _SPACE_RUNS.finditer(key):
        count, at = len(match.group()), match.start() + 1
        found.append((match.start(), say(language, "hover.note.spaces", count=count, at=at)))
    for index, char in enumerate(key):
        if is_non_obvious(char):
            code = f"U+{ord(char):04X}"
            note = say(language, "hover.note.character", code=code, name=_name(char), at=index + 1)
            found.append((index, note))
    return [text for _, text in sorted(found)]


def fenced(key: str) -> str:
    """`key` in a fenced code block whose fence no backtick run inside can close."""
    longest = max((len(run) for run in re.findall(r"`+", key)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{key}\n{fence}"


def shown(key: str) -> str:
    """`key` with each non-obvious character replaced by its `<U+XXXX>` code point."""
    return "".join(f"<U+{ord(c):04X}>" if is_non_obvious(c) else c for c in key)
