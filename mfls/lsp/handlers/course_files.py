"""`mfls.courseFiles` (`workspace/executeCommand`, no arguments): every course's root and
the text of each of its documents with a file, as the server has them, for a client that
reads no disk itself (the playground over `mfls serve --ws`)."""

from __future__ import annotations

import posixpath
from typing import Any, Final

from mfls.lsp.snapshot import Snapshot
from mfls.workspace.uris import path_to_uri

COURSE_FILES: Final = "mfls.courseFiles"


def course_files(snap: Snapshot, arguments: list[Any] | None) -> dict[str, Any]:
    courses = []
    for course in snap.workspace.courses.values():
        if course.root is None:
            continue
        root = course.root.replace("\\", "/")
        files = {
            posixpath.relpath(entry.path.replace("\\", "/"), root): entry.text
            for entry in sorted(course.docs.values(), key=lambda e: e.order)
            if entry.path is not None
        }
        courses.append({"root": path_to_uri(course.root), "files": files})
    return {"courses": sorted(courses, key=lambda c: str(c["root"]))}
