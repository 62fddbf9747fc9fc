"""Course globs (`**`, `*`, `?`, `[...]`, `{a,b}`) matched against root-relative POSIX paths.

`GlobSet` holds a course file's list of globs compiled once: a glob without a wildcard
(`mfls unpack` writes one per lesson) is an exact name, found by a set lookup; only the
others are regular expressions, so matching a course's files costs files x wildcard
globs, not files x globs."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

WILDCARDS: Final = frozenset("*?[{")


def normalized(pattern: str) -> str:
    """The pattern as matched: trimmed, without leading `./` and `/`."""
    pattern = pattern.strip()
    while pattern.startswith("./"):
        pattern = pattern[2:]
    return pattern.lstrip("/")


def exact_name(pattern: str) -> str | None:
    """The one root-relative path `pattern` matches when it has no wildcard, else None."""
    name = normalized(pattern)
    return None if WILDCARDS.intersection(name) else name


@lru_cache(maxsize=256)
def compile_glob(pattern: str) -> re.Pattern[str]:
    segments = normalized(pattern).split("/")
    parts: list[str] = []
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == "**":
            parts.append(".*" if last else "(?:[^/]*/)*")
        else:
            parts.append(_segment(segment) + ("" if last else "/"))
    return re.compile("".join(parts) + r"\Z")


def _segment(segment: str) -> str:
    out: list[str] = []
    index = 0
    while index < len(segment):
        char = segment[index]
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            close = segment.find("]", index + 2)
            if close == -1:
                out.append(re.escape(char))
            else:
                body = segment[index + 1 : close]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                index = close
        elif char == "{":
            close = segment.find("}", index)
            if close == -1:
                out.append(re.escape(char))
            else:
                options = segment[index + 1 : close].split(",")
                out.append("(?:" + "|".join(_segment(o) for o in options) + ")")
                index = close
        else:
            out.append(re.escape(char))
        index += 1
    return "".join(out)


def matches(pattern: str, relative_path: str) -> bool:
    return compile_glob(pattern).match(relative_path) is not None


class GlobSet:
    """`patterns`, compiled once, asked which of them a path matches first."""

    __slots__ = ("_exact", "_expressions")

    def __init__(self, patterns: Sequence[str]) -> None:
        self._exact: dict[str, int] = {}
        self._expressions: list[tuple[int, re.Pattern[str]]] = []
        for index, pattern in enumerate(patterns):
            name = exact_name(pattern)
            if name is None:
                self._expressions.append((index, compile_glob(pattern)))
            else:
                self._exact.setdefault(name, index)

    def first(self, relative_path: str) -> int | None:
        """The index of the first pattern matching `relative_path`, None if none does."""
        found = self._exact.get(relative_path)
        for index, expression in self._expressions:
            if found is not None and index > found:
                break
            if expression.match(relative_path) is not None:
                return index
        return found

    def any(self, relative_path: str) -> bool:
        return self.first(relative_path) is not None


@lru_cache(maxsize=16)
def glob_set(patterns: tuple[str, ...]) -> GlobSet:
    """The `GlobSet` of `patterns`, compiled once for the plans that share them."""
    return GlobSet(patterns)
