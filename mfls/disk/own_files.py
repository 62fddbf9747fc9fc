"""mfls's own files in a course (`COURSE/.mfls/`: the rename journal, the rename records,
the export manifest), held to the course root.

One rule for reading and writing them: no name on the way from the root to the file (the
folder `.mfls` included, the file itself too) may be a link, each folder on the way must be
a folder, so the file lies inside the root once links are resolved. A course is untrusted
input: a `.mfls` linked to a folder elsewhere is refused, never followed. The problem met is
data (a `DiskProblem` of kind `OUTSIDE` for a link), None when the path may be used (the
file, or folders on the way, may not exist yet).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from typing import Final

from mfls.disk.problems import OUTSIDE, DiskProblem, printable

OWN_FOLDER: Final = ".mfls"


def own_path(root: str | os.PathLike[str], parts: Sequence[str]) -> str:
    return os.path.join(os.path.abspath(root), *parts)


def own_path_problem(
    root: str | os.PathLike[str], parts: Sequence[str], *, folder: bool = False
) -> DiskProblem | None:
    """Why `root/parts...` must not be used as a file (with `folder`, a folder) of mfls's
    own, or None."""
    current = os.path.abspath(root)
    target = own_path(root, parts)
    for index, part in enumerate(parts):
        current = os.path.join(current, part)
        try:
            mode = os.lstat(current).st_mode
        except FileNotFoundError:
            return None
        except OSError as error:
            return DiskProblem(
                target, f"cannot look at {printable(current)}: {error.strerror or error}"
            )
        if stat.S_ISLNK(mode):
            return DiskProblem(
                target,
                f"{printable(current)} is a link; mfls does not follow links for its own files "
                "(they stay inside the course)",
                OUTSIDE,
            )
        if (folder or index < len(parts) - 1) and not stat.S_ISDIR(mode):
            return DiskProblem(target, f"{printable(current)} is not a folder")
    return None


def own_folder_problem(root: str | os.PathLike[str]) -> DiskProblem | None:
    """Why the folder `root/.mfls` must not be used (a link, not a folder), or None."""
    return own_path_problem(root, (OWN_FOLDER,), folder=True)
