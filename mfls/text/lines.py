"""Lines of a text: where a line starts and how many line endings lie before an offset.

A line ending is LF, CRLF or a lone CR (as in CommonMark); CRLF counts once. An offset
between the CR and the LF of a CRLF is the end of its line (`off_crlf`): the one place
that rule is written for the text side (`LineIndex` keeps its own copy in its hot path).
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


def off_crlf(text: str, offset: int) -> int:
    """`offset`, moved to the end of its line when it falls between a CR and its LF."""
    if 0 < offset < len(text) and text[offset] == "\n" and text[offset - 1] == "\r":
        return offset - 1
    return offset


def line_column(text: str, offset: int) -> tuple[int, int]:
    """(0-based line, code point column) of `offset`, clamped into the text."""
    offset = off_crlf(text, min(max(offset, 0), len(text)))
    return line_breaks(text, 0, offset), offset - line_start(text, offset)


def nth_line_start(text: str, line: int) -> int:
    """Where the 0-based `line` starts (the end of the text when it has fewer lines)."""
    offset = 0
    for _ in range(line):
        lf = text.find("\n", offset)
        cr = text.find("\r", offset, len(text) if lf < 0 else lf)
        if cr >= 0:
            offset = cr + 2 if text.startswith("\n", cr + 1) else cr + 1
        elif lf >= 0:
            offset = lf + 1
        else:
            return len(text)
    return offset
