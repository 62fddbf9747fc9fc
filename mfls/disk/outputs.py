"""The one rule for every path a command writes: `check_output`.

A file output is a regular file, or a new name in an existing folder; a link to a
regular file is written through (its target is the file replaced, and must pass the
same checks). A folder output is a folder, or a new name; never a link. Anything else
(a device, a FIFO, a socket, a link to one, a link to nothing) is refused. So is an
output that is, or resolves to, an input of the same command (by path or as the same
file), that lies in a folder the command reads, or (a folder output) that holds one.
The answer is data: where to write, or the `DiskProblem` saying why not.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from typing import NamedTuple

from mfls.disk.problems import DiskProblem
from mfls.disk.reading import inside, real_path

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISREG, "a regular file"),
)

Identity = tuple[int, int]


class Output(NamedTuple):
    """Where an output goes: `path`, absolute, its folder's links resolved (a link to a
    file is resolved to that file); `identity`, the (device, inode) of what is there now,
    or None for a new name."""

    path: str
    identity: Identity | None


def _kind(mode: int) -> str:
    return next((kind for test, kind in _KINDS if test(mode)), "not a regular file")


def _error(error: OSError) -> str:
    return str(error.strerror or error)


def _new_name(target: str, given: str) -> Output | DiskProblem:
    parent = os.path.dirname(given)
    try:
        mode = os.stat(parent).st_mode
    except OSError as error:
        return DiskProblem(target, f"its folder cannot be used ({_error(error)})")
    if not stat.S_ISDIR(mode):
        return DiskProblem(target, "its folder is not a folder")
    return Output(os.path.join(real_path(parent), os.path.basename(given)), None)


def _through_link(target: str, given: str) -> Output | DiskProblem:
    try:
        found = os.stat(given)
    except FileNotFoundError:
        return DiskProblem(target, "it is a link to nothing (no file is made through a link)")
    except OSError as error:
        return DiskProblem(target, f"it is a link that cannot be followed ({_error(error)})")
    if not stat.S_ISREG(found.st_mode):
        return DiskProblem(target, f"it is a link to {_kind(found.st_mode)}, not a regular file")
    real = real_path(given)
    try:
        there = os.lstat(real)
    except OSError:
        there = None
    identity = (found.st_dev, found.st_ino)
    if there is None or not stat.S_ISREG(there.st_mode) or (there.st_dev, there.st_ino) != identity:
        return DiskProblem(target, "it is a link that does not resolve to a file by its name")
    return Output(real, identity)


def _where(target: str, given: str, *, folder: bool) -> Output | DiskProblem:
    if target.endswith(("/", os.sep)) and not folder:
        return DiskProblem(target, "it names a folder, not a file")
    if os.path.basename(given) in ("", ".", ".."):
        return DiskProblem(target, "it names no file")
    try:
        found = os.lstat(given)
    except (FileNotFoundError, NotADirectoryError):
        return _new_name(target, given)
    except OSError as error:
        return DiskProblem(target, f"cannot look at it ({_error(error)})")
    except ValueError:  # a NUL in the name
        return DiskProblem(target, "it is no usable file name")
    if stat.S_ISLNK(found.st_mode):
        if folder:
            return DiskProblem(target, "it is a link (a folder is never replaced through a link)")
        return _through_link(target, given)
    wanted, noun = (stat.S_ISDIR, "a folder") if folder else (stat.S_ISREG, "a regular file")
    if not wanted(found.st_mode):
        return DiskProblem(target, f"it is {_kind(found.st_mode)}, not {noun}")
    parent = real_path(os.path.dirname(given))
    return Output(os.path.join(parent, os.path.basename(given)), (found.st_dev, found.st_ino))


def _identity(path: str) -> Identity | None:
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        return None
    return found.st_dev, found.st_ino


def check_output(
    target: str,
    inputs: Iterable[str] = (),
    roots: Iterable[str] = (),
    *,
    folder: bool = False,
) -> Output | DiskProblem:
    """Where the output `target` (a file, or a folder when `folder`) is written, or why
    it must not be: see the module's rule. `inputs` are the files the command reads,
    `roots` the folders it reads (a course); both as the user named them."""
    given = os.path.abspath(target)
    out = _where(target, given, folder=folder)
    if isinstance(out, DiskProblem):
        return out
    places = (given, out.path)
    for name in roots:
        forms = (os.path.abspath(name), real_path(name))
        if any(inside(place, form) for form in forms for place in places):
            return DiskProblem(target, f"it lies in {name}, which this command reads")
        if folder and any(inside(form, place) for form in forms for place in places):
            return DiskProblem(target, f"it holds {name}, which this command reads")
    if not folder and out.identity is None:
        return out  # a new name: no input is there to be overwritten
    for name in inputs:
        if folder:
            forms = (os.path.abspath(name), real_path(name))
            hit = any(inside(form, place) for form in forms for place in places)
        else:  # the same file under any name: through links, or a hard link
            hit = out.identity == _identity(name)
        if hit:
            what = "holds" if folder else "is"
            return DiskProblem(target, f"it {what} {name}, which this command reads")
    return out
