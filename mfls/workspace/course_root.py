"""Which course a path belongs to: the nearest folder above it holding the course file.

The server asks it for each document of a workspace folder, the command line for each
path it is given; both find the same course.
"""

from __future__ import annotations

from mfls.disk import REAL_DISK, Disk
from mfls.workspace.course_creator import nearest_root


def nearest_course_root(
    directory: str, boundary: str | None = None, disk: Disk = REAL_DISK
) -> str | None:
    """The nearest folder from `directory` itself up to `boundary` holding a course file
    (or an AI-Shifu course folder: `mfls.workspace.course_creator`).

    Without a boundary the search goes up to the file system root. A directory outside
    the boundary has no course root.
    """
    return nearest_root(directory, boundary, disk)
