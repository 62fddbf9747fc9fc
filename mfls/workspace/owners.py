"""`Owners`: what `cold_indexing` and `file_events` reach of the workspace: its small
owners and the swap of its snapshot (`mfls.workspace.workspace.Workspace` answers it;
named here so that neither imports the workspace, which imports them)."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Protocol

from mfls.workspace.course_plans import CoursePlans
from mfls.workspace.disk_record import DiskRecord
from mfls.workspace.index import ScannedDocument, WorkspaceSnapshot
from mfls.workspace.open_buffers import OpenBuffers
from mfls.workspace.planning import CoursePlan
from mfls.workspace.scanning import Scanner


class Owners(Protocol):
    lock: threading.RLock
    record: DiskRecord
    plans: CoursePlans
    open_buffers: OpenBuffers
    scanner: Scanner
    preferred: set[str]  # URIs whose courses the next cold indexing reads first

    @property
    def snapshot(self) -> WorkspaceSnapshot: ...

    def settle_disk_copy(self, uri: str, text: str | None) -> None:
        """Index what was read of `uri` (None: unusable) unless it is open."""
        ...

    def reassemble(
        self, on_disk: Mapping[str, ScannedDocument], plans: Mapping[str, CoursePlan] | None
    ) -> None:
        """Swap in the snapshot of the plans (`plans` replacing them), `on_disk` and the
        open buffers."""
        ...
