"""Building real courses on disk for feature tests."""

from __future__ import annotations

from pathlib import Path

from mfls.syntax.model import ScanResult
from mfls.syntax.scanner import scan
from mfls.workspace.index import WorkspaceSnapshot
from mfls.workspace.uris import path_to_uri
from mfls.workspace.workspace import Workspace

try:
    from mfls.syntax.document import Document
except ImportError:  # the scanner's incremental model is not there yet: rescan whole texts

    class Document:  # type: ignore[no-redef]
        def __init__(self, text: str, version: int | None = None) -> None:
            self.text = text
            self.version = version
            self._result = scan(text)

        def result(self) -> ScanResult:
            return self._result

        def edited(
            self, start: int, end: int, new_text: str, version: int | None = None
        ) -> Document:
            return Document(self.text[:start] + new_text + self.text[end:], version)


class Course:
    def __init__(self, root: Path, files: dict[str, str]) -> None:
        self.root = root
        for name, text in files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text.encode())
        self.workspace = Workspace(document_factory=Document)
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
