"""Building real courses on disk for feature tests."""

from __future__ import annotations

from pathlib import Path

from mfls.workspace.index import WorkspaceSnapshot
from mfls.workspace.uris import path_to_uri
from mfls.workspace.workspace import Workspace


class Course:
    def __init__(self, root: Path, files: dict[str, str]) -> None:
        self.root = root
        for name, text in files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text.encode())
        self.workspace = Workspace()
        self.workspace.set_folders([str(root)])
        self.workspace.index_all()

    @property
    def snapshot(self) -> WorkspaceSnapshot:
        return self.workspace.snapshot

    def uri(self, name: str) -> str:
        return path_to_uri(str(self.root / name))

    def offset(self, name: str, needle: str, shift: int = 0) -> int:
        """The offset of the first `needle` in document `name`, plus `shift`."""
        found = self.snapshot.entry(self.uri(name))
        assert found is not None, name
        at = found[1].text.index(needle)
        return at + shift
