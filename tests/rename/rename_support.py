"""Courses on disk for the rename and code action tests (helpers and fixtures); the
end-to-end rename tests use the kit's client (`tests/robustness/test_robust_editor_rename.py`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from mfls.features.rename import WorkspaceChange
from mfls.syntax.model import ScanResult
from mfls.syntax.scanner import scan
from mfls.text.edits import apply_changes
from mfls.workspace.uris import path_to_uri
from mfls.workspace.workspace import Workspace
from tests.kit.files import write_files

try:
    from mfls.syntax.document import Document
except ImportError:  # until the scanner's incremental model lands: rescan whole texts

    class Document:  # type: ignore[no-redef]
        def __init__(self, text: str, version: int | None = None) -> None:
            self.text = text
            self._result = scan(text)

        def result(self) -> ScanResult:
            return self._result

        def edited(
            self, start: int, end: int, new_text: str, version: int | None = None
        ) -> Document:
            return Document(self.text[:start] + new_text + self.text[end:], version)


def indexed(*folders: Path) -> Workspace:
    workspace = Workspace(document_factory=Document)
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
