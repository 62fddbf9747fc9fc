"""Lines of a text: where a line starts and how many line endings lie before an offset.

A line ending is LF, CRLF or a lone CR (as in CommonMark); CRLF counts once.
"""

from __future__ import annotations


def line_start(text: str, offset: int) -> int:
    """The offset where the line holding `offset` starts."""
    lf = text.rfind("\n", 0, offset)
    return max(lf, text.rfind("\r", lf + 1, offset)) + 1


def line_breaks(text: str, start: int = 0, end: int | None = None) -> int:
    """How many line endings `text[start:end]` holds, a CRLF counted once."""
    if end is None:
        end = len(text)
    return (
        text.count("\n", start, end) + text.count("\r", start, end) - text.count("\r\n", start, end)
    )


def line_number(text: str, offset: int) -> int:
    """The 1-based line of `offset`."""
    return line_breaks(text, 0, offset) + 1
