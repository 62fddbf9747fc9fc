"""What a DISK handler (`mfls.lsp.routes`) may read of the file system: `Files`, handed
to it by the dispatcher, which runs it on the worker (inline in the synchronous mode).

Handlers import this protocol, never `mfls.disk`; `DiskFiles` answers it through the
course workspace's injected `Disk` (and the rename journal's own checked reads).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from mfls import disk
from mfls.disk import journal
from mfls.features import course_rename as cr
from mfls.workspace.edit_basis import EditBasis
from mfls.workspace.workspace import Workspace


class Files(Protocol):
    def edit_basis(self, course_id: str, uris: Iterable[str]) -> EditBasis:
        """The closed documents `uris` of the course as the disk holds them now
        (`Workspace.edit_basis`), changing nothing: the handler returns `basis.copies`
        as an effect (`effects.with_copies`)."""
        ...

    def pending_journal(self, root: str) -> str | None:
        """The message of an unfinished `mfls rename` of the course at `root`, or None."""
        ...

    def course_file_text(self, path: str, root: str | None) -> str:
        """The text of a course file ("" when unreadable; bytes not UTF-8 as U+FFFD)."""
        ...

    def unusable_members(self, root: str, problems: Sequence[disk.DiskProblem]) -> list[str]:
        """Members that could not be used, as `mfls rename` lists them."""
        ...

    def inside(self, path: str, root: str) -> bool:
        """Whether `path` is `root` or lies under it."""
        ...


class DiskFiles:
    """`Files` through the workspace's disk gateway."""

    def __init__(self, workspace: Workspace) -> None:
        self._workspace = workspace
        self._disk = workspace.disk

    def edit_basis(self, course_id: str, uris: Iterable[str]) -> EditBasis:
        return self._workspace.edit_basis(course_id, uris)

    def pending_journal(self, root: str) -> str | None:
        """Rename journals are files of the real file system (`mfls.disk.journal`, which
        `mfls rename` writes): a workspace on another disk has none."""
        if self._disk is not disk.REAL_DISK:
            return None
        pending = journal.pending_journal(root)
        return None if pending is None else pending.message()

    def course_file_text(self, path: str, root: str | None) -> str:
        """Through the disk gateway (which never blocks on a FIFO or device)."""
        data, _ = self._disk.read_bytes(path, root)
        return "" if data is None else data.decode("utf-8", errors="replace")

    def unusable_members(self, root: str, problems: Sequence[disk.DiskProblem]) -> list[str]:
        return [
            f"{disk.printable(cr.relative_name(p.path, root, p.path))} ({p.reason})"
            for p in problems
        ]

    def inside(self, path: str, root: str) -> bool:
        return disk.inside(path, root)
