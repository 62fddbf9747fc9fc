"""An AI-Shifu course folder against its `.shifu-sync.json` (the course tool's record of
the last pull or push; mfls only reads it): the lessons changed since, and the ones whose
recorded file is gone (renamed or deleted in the editor)."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from typing import Any

from mfls.workspace.index import CourseSnapshot

GONE_FATE = (
    "the course tool's `status` counts it up to date (it finds no file to compare) and "
    "never sees a new name; `update-lesson --course-dir` writes the pushed text back to "
    "the recorded name; `import --course-dir` recreates every lesson from structure.json "
    "and the pull that follows names them lesson-NN.md again"
)
"""What `shifu-cli.py` (959e0b6d) does with a lesson whose recorded file is gone."""


def tool_sha256(text: str) -> str:
    """`content_sha256` as `shifu-cli.py` computes it from a lesson file (`_sha256_file`):
    the file read in text mode (every \\r\\n and lone \\r a \\n), as UTF-8."""
    normal = text.replace("\r\n", "\n").replace("\r", "\n")
    return hashlib.sha256(normal.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class SyncStatus:
    """`changed`: (file, name) of the lessons whose text no longer matches the recorded
    hash; `gone`: those whose recorded file is not in the folder."""

    changed: tuple[tuple[str, str], ...]
    gone: tuple[tuple[str, str], ...]


def sync_status(course: CourseSnapshot) -> SyncStatus | None:
    """The course folder against its `.shifu-sync.json`; None without one."""
    layout = course.config.layout
    if layout is None or layout.sync is None:
        return None
    by_path = {
        os.path.normcase(entry.path): entry
        for entry in course.docs.values()
        if entry.path is not None
    }
    changed: list[tuple[str, str]] = []
    gone: list[tuple[str, str]] = []
    for synced in layout.synced:
        if not synced.found:
            gone.append((synced.file, synced.name))
            continue
        path = os.path.normcase(os.path.join(layout.root, *synced.file.split("/")))
        entry = by_path.get(path)
        if entry is None or synced.content_sha256 is None:
            continue  # not a lesson of the course now, or nothing recorded to compare
        if tool_sha256(entry.text) != synced.content_sha256:
            changed.append((synced.file, synced.name))
    return SyncStatus(tuple(changed), tuple(gone))


def since_last_pull_json(status: SyncStatus | None) -> dict[str, Any] | None:
    """`status` as the editors' commands answer it (`sinceLastPull`)."""
    if status is None:
        return None
    return {
        "changed": [{"file": f, "name": n} for f, n in status.changed],
        "gone": [{"file": f, "name": n} for f, n in status.gone],
        "goneFate": GONE_FATE,
    }
