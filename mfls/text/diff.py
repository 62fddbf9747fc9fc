"""Unified diffs of whole files, keeping each file's own line endings."""

from __future__ import annotations

import difflib
import re
from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

from mfls.text.edits import TextChange, apply_changes

_NO_NEWLINE = "\\ No newline at end of file\n"
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)")


def _lines(text: str) -> list[str]:
    # str.splitlines would also split at U+2028, U+0085 and friends; diffs follow the
    # physical line endings only (LF, CRLF, CR).
    lines = _LINE.findall(text)
    consumed = sum(map(len, lines))
    if consumed < len(text):
        lines.append(text[consumed:])
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


def _line_starts(lines: list[str]) -> list[int]:
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    return starts


def _body(lines: list[str], mark: str) -> list[str]:
    out = []
    for line in lines:
        if line.endswith(("\n", "\r")):
            out.append(mark + line)
        else:
            out.append(mark + line + "\n")
            out.append(_NO_NEWLINE)
    return out


def _span(first: int, count: int) -> str:
    start = first + 1 if count else first
    return f"{start}" if count == 1 else f"{start},{count}"


def diff_of_changes(label: str, text: str, changes: Sequence[TextChange], context: int = 3) -> str:
    """The unified diff of applying `changes` to `text`, built from the changes themselves
    (linear in the text, where a general line diff can be quadratic on repetitive files)."""
    if not changes:
        return ""
    lines = _lines(text)
    starts = _line_starts(lines)
    last_line = max(len(lines) - 1, 0)

    def line_of(offset: int) -> int:
        return min(max(bisect_right(starts, offset) - 1, 0), last_line)

    regions: list[list[Any]] = []  # [first line, last line, changes]
    for change in sorted(changes, key=lambda c: (c.start, c.end)):
        first = line_of(change.start)
        last = line_of(max(change.end - 1, change.start))
        if regions and first <= regions[-1][1]:
            regions[-1][1] = max(regions[-1][1], last)
            regions[-1][2].append(change)
        else:
            regions.append([first, last, [change]])
    hunks: list[list[list[Any]]] = []
    for region in regions:
        if hunks and region[0] - hunks[-1][-1][1] - 1 <= 2 * context:
            hunks[-1].append(region)
        else:
            hunks.append([region])
    out = [f"--- a/{label}\n", f"+++ b/{label}\n"]
    shift = 0  # lines added minus lines removed by the hunks before this one
    for hunk in hunks:
        top = max(hunk[0][0] - context, 0)
        bottom = min(hunk[-1][1] + context, len(lines) - 1)
        body: list[str] = []
        old_count = new_count = 0
        at = top
        for first, last, region_changes in hunk:
            body.extend(_body(lines[at:first], " "))
            old_count += first - at
            new_count += first - at
            old_lines = lines[first : last + 1]
            base = starts[first]
            old_text = "".join(old_lines)
            shifted = [TextChange(c.start - base, c.end - base, c.new_text) for c in region_changes]
            new_lines = _lines(apply_changes(old_text, shifted))
            body.extend(_body(old_lines, "-"))
            body.extend(_body(new_lines, "+"))
            old_count += len(old_lines)
            new_count += len(new_lines)
            at = last + 1
        body.extend(_body(lines[at : bottom + 1], " "))
        old_count += bottom + 1 - at
        new_count += bottom + 1 - at
        out.append(f"@@ -{_span(top, old_count)} +{_span(top + shift, new_count)} @@\n")
        out.extend(body)
        shift += new_count - old_count
    return "".join(out)
