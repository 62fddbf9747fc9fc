"""`DiskProblem`: a path the gateway could not use, and why, as data."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DiskProblem:
    """A path that was skipped, with the reason worded for the author.

    `path` is the path as it was given or found (a name that is not valid UTF-8 keeps
    its undecodable bytes as lone surrogates; `shown` escapes them).
    """

    path: str
    reason: str

    @property
    def shown(self) -> str:
        """`path` printable on one line: undecodable bytes and control characters escaped."""
        return printable(self.path)


def printable(path: str) -> str:
    """A path safe to print: no line break, control sequence or lone surrogate survives."""
    if path.isprintable() and not any(0xD800 <= ord(ch) <= 0xDFFF for ch in path):
        return path
    out: list[str] = []
    for ch in path:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte, as `os.fsdecode` keeps it
            out.append(f"\\x{code - 0xDC00:02x}")
        elif not ch.isprintable() or 0xD800 <= code <= 0xDFFF:
            out.append(ch.encode("unicode_escape", "backslashreplace").decode("ascii"))
        else:
            out.append(ch)
    return "".join(out)
