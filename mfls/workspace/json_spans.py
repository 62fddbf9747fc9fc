"""Valid JSON text read again with the place of every value, for diagnostics at the
place of a problem (`json` gives values only).

`json_spans(text)` expects text `json.loads` accepted; it returns the top value as a
`Spanned` tree: each value with its code point span, an object's members with their
keys' spans.
"""

from __future__ import annotations

import json
from typing import Any, Final, NamedTuple


class Spanned(NamedTuple):
    """A JSON value (`value`: the plain value), its span, and its parts: for an object
    `(key, key_start, key_end, Spanned)` per member, for an array one `Spanned` each."""

    value: Any
    start: int
    end: int
    members: tuple[tuple[str, int, int, Spanned], ...] = ()
    items: tuple[Spanned, ...] = ()

    def member(self, key: str) -> Spanned | None:
        """The last member called `key` (as `json` keeps it), or None."""
        found = None
        for name, _, _, value in self.members:
            if name == key:
                found = value
        return found


_WHITESPACE = " \t\n\r"
_DECODER: Final = json.JSONDecoder()


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in _WHITESPACE:
        at += 1
    return at


def json_spans(text: str, at: int = 0) -> Spanned:
    """The value starting at (or after white space from) `at` in valid JSON `text`."""
    at = _skip(text, at)
    char = text[at]
    if char == "{":
        return _object(text, at)
    if char == "[":
        return _array(text, at)
    value, end = _DECODER.raw_decode(text, at)  # a string, number or literal
    return Spanned(value, at, end)


def _object(text: str, start: int) -> Spanned:
    members: list[tuple[str, int, int, Spanned]] = []
    at = _skip(text, start + 1)
    while text[at] != "}":
        key, key_end = _DECODER.raw_decode(text, at)
        colon = _skip(text, key_end)
        value = json_spans(text, colon + 1)
        members.append((key, at, key_end, value))
        at = _skip(text, value.end)
        if text[at] == ",":
            at = _skip(text, at + 1)
    plain = {key: value.value for key, _, _, value in members}
    return Spanned(plain, start, at + 1, members=tuple(members))


def _array(text: str, start: int) -> Spanned:
    items: list[Spanned] = []
    at = _skip(text, start + 1)
    while text[at] != "]":
        value = json_spans(text, at)
        items.append(value)
        at = _skip(text, value.end)
        if text[at] == ",":
            at = _skip(text, at + 1)
    return Spanned([item.value for item in items], start, at + 1, items=tuple(items))
