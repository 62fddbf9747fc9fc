"""Unified diffs of whole files, keeping each file's own line endings."""

from __future__ import annotations

import difflib

_NO_NEWLINE = "\\ No newline at end of file\n"


def _lines(text: str) -> list[str]:
    # str.splitlines would also split at U+2028, U+0085 and friends; diffs follow the
    # physical line endings only (LF, CRLF, CR).
    lines: list[str] = []
    start = 0
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\n" or ch == "\r":
            end = i + 2 if ch == "\r" and i + 1 < n and text[i + 1] == "\n" else i + 1
            lines.append(text[start:end])
            start = i = end
            continue
        i += 1
    if start < n:
        lines.append(text[start:])
    return lines


def unified_diff(label: str, old: str, new: str, context: int = 3) -> str:
    """The unified diff from `old` to `new`, both labelled `label` (a/ and b/ prefixes)."""
    out: list[str] = []
    for line in difflib.unified_diff(
        _lines(old), _lines(new), f"a/{label}", f"b/{label}", n=context
    ):
        if line.endswith(("\n", "\r")):
            out.append(line)
        else:
            out.append(line + "\n")
            out.append(_NO_NEWLINE)
    return "".join(out)
