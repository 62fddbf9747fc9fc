"""`workspace/willRenameFiles`: a lesson file (or a folder of them) renamed or moved in
the editor's file tree; the answer is the edit that keeps the course naming the same
lessons (`mfls.features.file_renames`): the `structure.json` of an AI-Shifu course
folder, an `mfcourse.toml` listing lessons by name."""

from __future__ import annotations

import os
from typing import Final

from lsprotocol import types as t

from mfls.features.file_renames import Rename, TextEdit, course_file_edits, structure_edits
from mfls.lsp.files import Files
from mfls.lsp.snapshot import Snapshot
from mfls.text.line_index import LineIndex
from mfls.workspace.uris import path_to_uri, uri_to_path

WILL_RENAME_OPTIONS: Final = t.FileOperationRegistrationOptions(
    filters=[
        t.FileOperationFilter(
            scheme="file",
            pattern=t.FileOperationPattern(
                glob="**/*.{md,markdown,mdflow}", matches=t.FileOperationPatternKind.File
            ),
        ),
        t.FileOperationFilter(
            scheme="file",
            pattern=t.FileOperationPattern(glob="**/*", matches=t.FileOperationPatternKind.Folder),
        ),
    ]
)


def will_rename_files(
    snap: Snapshot, files: Files, params: t.RenameFilesParams
) -> t.WorkspaceEdit | None:
    renames: list[Rename] = []
    for change in params.files:
        old, new = uri_to_path(change.old_uri), uri_to_path(change.new_uri)
        if old is not None and new is not None:
            renames.append((os.path.abspath(old), os.path.abspath(new)))
    changes: dict[str, list[t.TextEdit]] = {}

    def add(path: str, text: str, edits: list[TextEdit]) -> None:
        if edits:
            index = LineIndex(text)
            changes[snap.client_uri(path_to_uri(path))] = [
                t.TextEdit(range=snap.convert.range(index, start, end), new_text=new_text)
                for start, end, new_text in edits
            ]

    for course in snap.workspace.courses.values():
        root = course.root
        if root is None or not any(files.inside(old, root) for old, _ in renames):
            continue
        layout = course.config.layout
        if layout is not None and layout.structure is not None:
            text = files.course_file_text(layout.structure, root)
            add(layout.structure, text, structure_edits(root, text, renames))
        course_file = course.config_path
        if course_file is not None:
            text = files.course_file_text(course_file, root)
            add(course_file, text, course_file_edits(root, text, renames))
    return t.WorkspaceEdit(changes=changes) if changes else None
