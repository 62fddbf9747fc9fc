"""Writing new files whole: a folder tree made in one step, one file replaced in one step.

`write_tree` builds the whole tree in a temporary folder beside the target and renames it
into place, so the target is either left as it was or holds every file; an existing
non-empty target is replaced only when asked (the old one is removed only after the new
one is in place). `write_file` writes a temporary file beside the target and renames it
over. Both hold the target to the output rule (`mfls.disk.outputs.check_output`, given
the command's inputs and the folders it reads) and return None, or the `DiskProblem`
that stopped them, having written nothing; `write_file` given `within` also refuses a
target that lies, by `..` or through a link, outside that folder. `scratch_folder` is a
new temporary folder, removed with what it holds when the block ends.
"""

from __future__ import annotations

import contextlib
import os
import posixpath
import shutil
import stat
import tempfile
from collections.abc import Iterable, Iterator, Mapping

from mfls.disk.outputs import check_output
from mfls.disk.problems import DiskProblem
from mfls.disk.reading import inside, real_path

_TEMP_PREFIX = ".mfls-new-"


def _error(error: OSError) -> str:
    return error.strerror or str(error)


def _relative_ok(path: str) -> bool:
    normal = posixpath.normpath(path)
    return (
        bool(path)
        and normal == path
        and not posixpath.isabs(path)
        and normal != ".."
        and not normal.startswith("../")
        and "\0" not in path
    )


def _state(target: str) -> str:
    """ "missing", "empty" (an empty folder), "full" (a non-empty one) or "other"."""
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return "missing"
    if not stat.S_ISDIR(mode):
        return "other"
    with os.scandir(target) as entries:
        return "full" if any(True for _ in entries) else "empty"


def write_tree(
    target: str,
    files: Mapping[str, bytes],
    *,
    replace: bool = False,
    inputs: Iterable[str] = (),
    roots: Iterable[str] = (),
) -> DiskProblem | None:
    """Make the folder `target` hold exactly `files` (relative POSIX path -> bytes)."""
    bad = [p for p in files if not _relative_ok(p)]
    if bad:
        return DiskProblem(target, f"refusing a path outside the folder: {bad[0]!r}")
    checked = check_output(target, inputs, roots, folder=True)
    if isinstance(checked, DiskProblem):
        return checked
    try:
        state = _state(target)
    except OSError as error:
        return DiskProblem(target, f"cannot look at it ({_error(error)})")
    if state == "other":
        return DiskProblem(target, "it exists and is not a folder")
    if state == "full" and not replace:
        return DiskProblem(target, "the folder exists and is not empty (--force replaces it)")
    parent = os.path.dirname(os.path.abspath(target))
    try:
        temp = tempfile.mkdtemp(prefix=_TEMP_PREFIX, dir=parent)
    except OSError as error:
        return DiskProblem(target, f"cannot make a folder beside it ({_error(error)})")
    try:
        for path, data in files.items():
            full = os.path.join(temp, *path.split("/"))
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "xb") as handle:
                handle.write(data)
        os.chmod(temp, 0o777 & ~_umask())
        if state == "missing":
            os.rename(temp, target)
            return None
        old = tempfile.mkdtemp(prefix=_TEMP_PREFIX, dir=parent)
        os.rmdir(old)
        os.rename(target, old)
        try:
            os.rename(temp, target)
        except OSError:
            os.rename(old, target)
            raise
        shutil.rmtree(old, ignore_errors=True)
        return None
    except OSError as error:
        shutil.rmtree(temp, ignore_errors=True)
        where = error.filename if isinstance(error.filename, str) else target
        return DiskProblem(where, f"cannot write it ({_error(error)}); nothing was written")


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _mode(path: str) -> int:
    """The permissions of the file replaced, kept by its replacement."""
    return os.stat(path).st_mode & 0o777


def write_file(
    target: str,
    data: bytes,
    *,
    inputs: Iterable[str] = (),
    roots: Iterable[str] = (),
    within: str | None = None,
) -> DiskProblem | None:
    """Make `target` a regular file holding `data`: written beside it, then renamed over
    (through a link, its target file); with `within`, only inside that folder."""
    if within is not None and not inside(os.path.abspath(target), os.path.abspath(within)):
        return DiskProblem(target, f"refusing a path outside {within}")
    checked = check_output(target, inputs, roots)
    if isinstance(checked, DiskProblem):
        return checked
    if within is not None and not inside(checked.path, real_path(within)):
        return DiskProblem(target, f"refusing a path that a link leads outside {within}")
    directory = os.path.dirname(checked.path)
    try:
        descriptor, temp = tempfile.mkstemp(prefix=_TEMP_PREFIX, dir=directory)
    except OSError as error:
        return DiskProblem(target, f"cannot write beside it ({_error(error)})")
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, _mode(checked.path) if checked.identity else 0o666 & ~_umask())
        os.replace(temp, checked.path)
        return None
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        return DiskProblem(target, f"cannot write it ({_error(error)}); nothing was written")


@contextlib.contextmanager
def scratch_folder(prefix: str) -> Iterator[str]:
    """A new, empty temporary folder, removed with everything in it when the block ends."""
    folder = tempfile.mkdtemp(prefix=prefix)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
