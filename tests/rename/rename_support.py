"""Courses on disk for the rename and code action tests (helpers and fixtures)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from mfls.features.rename import WorkspaceChange
from mfls.refactor.text_edits import apply_changes
from mfls.workspace.uris import path_to_uri
from mfls.workspace.workspace import Workspace


def write_files(root: Path, files: dict[str, str | bytes]) -> None:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))


def indexed(*folders: Path) -> Workspace:
    workspace = Workspace()
    workspace.set_folders([str(f) for f in folders])
    workspace.index_all()
    return workspace


def uri(path: Path) -> str:
    return path_to_uri(str(path))


def applied(change: WorkspaceChange) -> dict[str, str]:
    """uri -> the document's text after the change."""
    return {d.uri: apply_changes(d.text, d.changes) for d in change.documents}


@pytest.fixture
def make_course(tmp_path: Path) -> Callable[..., Path]:
    def make(files: dict[str, str | bytes], name: str = "course") -> Path:
        root = tmp_path / name
        root.mkdir(parents=True, exist_ok=True)
        write_files(root, files)
        return root

    return make
