"""Which course a path belongs to: the nearest folder above it holding the course file.

The server asks it for each document of a workspace folder, the command line for each
path it is given; both find the same course.
"""

from __future__ import annotations

import os

from mfls.workspace.config import COURSE_FILE
from mfls.workspace.files import inside


def nearest_course_root(directory: str, boundary: str | None = None) -> str | None:
    """The nearest folder from `directory` itself up to `boundary` holding a course file.

    Without a boundary the search goes up to the file system root. A directory outside
    the boundary has no course root.
    """
    while boundary is None or inside(directory, boundary):
        if os.path.isfile(os.path.join(directory, COURSE_FILE)):
            return directory
        if directory == boundary:
            break
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    return None
