"""`DiskProblem`: a path the gateway could not use, and why, as data; `ReplaceFailure`:
why a replacement of files did not happen."""

from __future__ import annotations

import os
from typing import Final, NamedTuple

UNUSABLE: Final = "unusable"
"""It is there but could not be read, listed or decoded (or is too large, or not a
regular file, or the listing stopped at the limit): a course member that is unusable."""
OUTSIDE: Final = "outside"
"""A link leads out of the root, or the path resolves outside it: not part of the course."""
LOOP: Final = "loop"
"""A directory reached again through a link: already listed, not a second member."""
GONE: Final = "gone"
"""It vanished between listing and reading: not a member any more."""
LIMIT: Final = "limit"
"""Over a limit of mfls (a file over the size limit, a listing stopped at the document
limit): a course member left out, so the course is incomplete."""

NOT_MEMBER_KINDS: Final = frozenset({OUTSIDE, LOOP, GONE})


class DiskProblem:
    """A path that was skipped, with the reason worded for the author.

    `path` is the path as it was given or found (a name that is not valid UTF-8 keeps
    its undecodable bytes as lone surrogates; `shown` escapes them). `kind` says what
    the problem means, for code (`UNUSABLE`, `OUTSIDE`, `LOOP`, `GONE`, `LIMIT`); it takes no part
    in comparisons, which the path and the reason settle.
    """

    __slots__ = ("kind", "path", "reason")

    path: str
    reason: str
    kind: str

    def __init__(self, path: str, reason: str, kind: str = UNUSABLE) -> None:
        set_field = object.__setattr__  # frozen: no attribute is set after this
        set_field(self, "path", path)
        set_field(self, "reason", reason)
        set_field(self, "kind", kind)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"DiskProblem is immutable: cannot set {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not DiskProblem:
            return NotImplemented
        assert isinstance(other, DiskProblem)
        return self.path == other.path and self.reason == other.reason

    def __hash__(self) -> int:
        return hash((self.path, self.reason))

    def __reduce__(self) -> tuple[type[DiskProblem], tuple[str, str, str]]:
        return DiskProblem, (self.path, self.reason, self.kind)

    def __repr__(self) -> str:
        return f"DiskProblem(path={self.path!r}, reason={self.reason!r}, kind={self.kind!r})"

    @property
    def member(self) -> bool:
        """True when the path is part of the folder it was found in (and was unusable);
        False for links out of it, loops and vanished files."""
        return self.kind not in NOT_MEMBER_KINDS

    @property
    def shown(self) -> str:
        """`path` printable on one line: undecodable bytes and control characters escaped."""
        return printable(self.path)


def printable(path: str) -> str:
    """A path safe to print: no line break, control sequence or lone surrogate survives."""
    if path.isprintable():  # no surrogate (category Cs) is printable
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


class ReplaceFailure(NamedTuple):
    """Why files were not replaced. `changed_on_disk`: a file no longer held the content
    the change was computed from, before or while the change was applied (nothing was
    touched, or everything was undone, saves made meanwhile kept); otherwise reading or
    writing failed and every file was restored, except the `unrestored` ones the message
    names."""

    message: str
    changed_on_disk: bool = False
    unrestored: tuple[str, ...] = ()
    # Nothing was touched: another rename of the course is under way (a refusal).
    refused: bool = False


def limit_from_environment(name: str, default: int) -> int:
    """A limit: the positive whole number in the environment variable `name`, else
    `default` (unset, or not such a number)."""
    try:
        value = int(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if value > 0 else default
