"""`FileEvents`: files the editor reported created, changed or deleted
(`workspace/didChangeWatchedFiles`), folded into the workspace.

A changed member is read again; a created or deleted file re-plans its course without
listing it again when every new file lies in a folder already listed
(`CoursePlans.replan_files`), and lists it (or its workspace folder, for a course file or
a new folder) again otherwise. Events that come while a cold indexing runs are kept and
handled when it ends (`indexing_ended`). Files reported but not handled yet are
`unsettled`: an edit basis reads them again too.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from mfls import disk
from mfls.workspace import assembly, course_creator
from mfls.workspace.config import COURSE_FILE
from mfls.workspace.index import ScannedDocument
from mfls.workspace.owners import Owners
from mfls.workspace.planning import CoursePlan
from mfls.workspace.uris import path_to_uri

Changes = list[tuple[str, str]]  # (path, "created" | "changed" | "deleted")


class FileEvents:
    def __init__(self, workspace: Owners) -> None:
        self._workspace = workspace
        self._lock = workspace.lock
        self._indexing = 0
        self._pending: Changes = []
        self.unsettled: set[str] = set()
        """Paths reported changed and not handled yet (read with the lock held)."""

    def expect(self, changes: Iterable[tuple[str, str]]) -> None:
        with self._lock:
            self.unsettled.update(os.path.abspath(path) for path, _ in changes)

    def indexing_began(self) -> None:
        with self._lock:
            self._indexing += 1

    def indexing_ended(self) -> Changes:
        """The events that came while indexing ran, to handle now."""
        with self._lock:
            self._indexing -= 1
            pending, self._pending = self._pending, []
        return pending

    def changed(self, changes: Changes) -> None:
        try:
            self._handle(changes)
        finally:
            with self._lock:
                self.unsettled.difference_update(os.path.abspath(path) for path, _ in changes)

    def _handle(self, changes: Changes) -> None:
        plans = self._workspace.plans
        with self._lock:
            if self._indexing:
                self._pending.extend(changes)
        replan: set[str] = set()
        # Files created or deleted, per course root, with the target to list again if
        # the course cannot be re-planned without listing it.
        quick: dict[str, list[tuple[str, str, str]]] = {}
        for path, kind in changes:
            path = os.path.abspath(path)
            root = plans.root_outside_lock(path)
            if root is None:
                continue
            plans.ensure(root)
            if kind == "deleted":
                self._workspace.record.forget(path)
            if os.path.basename(path) in (COURSE_FILE, *course_creator.LANDMARKS) or (
                kind == "created" and self._workspace.record.disk.is_directory(path)
            ):
                folder = plans.folder_of(path)
                if folder is not None:
                    replan.add(folder)
                continue
            if kind == "changed":
                self._reread(path, root)
            elif kind == "deleted" and not plans.is_member(path, root):
                folder = plans.folder_of(path)
                if folder is not None:
                    quick.setdefault(root, []).append((path, kind, folder))
            else:
                quick.setdefault(root, []).append((path, kind, root))
        for root, files in quick.items():
            covered = any(disk.inside(root, target) for target in replan)
            replanned = None if covered else plans.replan_files(root, [(p, k) for p, k, _ in files])
            if replanned is None:
                replan.update(target for _, _, target in files)
            elif replanned[1].members != replanned[0].members:
                self._rebuild({root: replanned[1]})
        for target in sorted(replan, key=len):
            if target in plans.folders:
                found = plans.plan_folder(target)
                with self._lock:
                    plans.replace_under(target, found)
            else:
                found = {target: plans.plan_course(target)}
                with self._lock:
                    plans.plans[target] = found[target]
            self._rebuild(found)

    def _reread(self, path: str, root: str) -> None:
        uri = path_to_uri(path)
        workspace = self._workspace
        with self._lock:
            if uri in workspace.open_buffers or uri not in workspace.plans.plan_for(root).members:
                return
        workspace.settle_disk_copy(uri, workspace.record.read(path, root))

    def _rebuild(self, plans: Mapping[str, CoursePlan]) -> None:
        """Rebuild the courses of `plans`, reading only documents not already indexed."""
        workspace = self._workspace
        with self._lock:
            snapshot = workspace.snapshot
            known = assembly.disk_documents(snapshot)
        documents: dict[str, ScannedDocument] = {}
        unread: set[str] = set()
        for plan in plans.values():
            for uri, (path, _, _) in plan.members.items():
                # A document read for another course root is read again: what lay inside
                # the old root (a link out of the new one) may not be part of this course.
                owner = snapshot.course_for(uri)
                if uri in known and owner is not None and owner.root == plan.root:
                    documents[uri] = known[uri]
                elif uri not in workspace.open_buffers:
                    text = workspace.record.read(path, plan.root)
                    if text is not None:
                        documents[uri] = workspace.scanner.one(text)
                    else:
                        unread.add(uri)
        with self._lock:
            known = assembly.disk_documents(workspace.snapshot)
            known.update(documents)
            for uri in unread:
                known.pop(uri, None)
            workspace.reassemble(known, None)
