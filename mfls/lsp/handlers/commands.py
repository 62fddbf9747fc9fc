"""The server's commands (`workspace/executeCommand`): each takes the command's argument
list and answers plain JSON. The features they call are imported at first use, not on the
server's start path (the editor's first problem waits for that start)."""

from __future__ import annotations

import sys
from typing import Any

import mfls
from mfls.features.refusal import Refusal
from mfls.lsp.snapshot import Snapshot
from mfls.workspace.uris import canonical_uri, path_to_uri

COURSE_INFO = "mfls.courseInfo"


def course_info_command(snap: Snapshot, arguments: list[Any]) -> dict[str, Any] | Refusal:
    """`mfls.courseInfo` [uri] -> the course of that document in figures, plus where mfls
    runs from (`server`: the `mfls` package's file, `python`: the interpreter), for editors
    that bundle it."""
    if not arguments or not isinstance(arguments[0], str):
        return Refusal(f"{COURSE_INFO} takes the URI of a document.", malformed=True)
    from mfls.features.course_info import course_info
    from mfls.features.sync_status import since_last_pull_json

    found = course_info(snap.workspace, canonical_uri(arguments[0]), snap.language)
    if isinstance(found, Refusal):
        return found
    return {
        "name": found.name,
        "root": found.root,
        "courseFile": None if found.course_file is None else path_to_uri(found.course_file),
        **found.figures.to_json(),
        # An AI-Shifu course folder with `.shifu-sync.json` (null otherwise): lessons
        # changed since the last pull, and those whose recorded file is gone, with what
        # the course tool will do with them.
        "sinceLastPull": since_last_pull_json(found.sync),
        "server": server_location(),
        "python": sys.executable,
    }


def server_location() -> str:
    return str(mfls.__file__)
