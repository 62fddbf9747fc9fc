"""Course globs (`**`, `*`, `?`, `[...]`, `{a,b}`) matched against root-relative POSIX paths."""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=256)
def compile_glob(pattern: str) -> re.Pattern[str]:
    pattern = pattern.strip()
    while pattern.startswith("./"):
        pattern = pattern[2:]
    pattern = pattern.lstrip("/")
    segments = pattern.split("/")
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
