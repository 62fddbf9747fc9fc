"""`Workspace`: the one mutable holder of a server's courses, made of small owners.

It holds the current `WorkspaceSnapshot` and swaps it whole under its lock; readers take
`workspace.snapshot` once and keep a consistent view. Each concern has its owner:

- `open_buffers.OpenBuffers`: the documents the editor has open, held once;
- `course_plans.CoursePlans`: the folders and each course's plan (made by the pure
  functions of `planning`), and where a path belongs;
- `disk_record.DiskRecord`: reads and listings through the `Disk` it is given (the
  gateway `mfls.disk` unless told otherwise), and the problems they met (`disk_problems`);
- `cold_indexing`: reading every folder (`index_all`);
- `file_events.FileEvents`: files the editor reported created, changed or deleted;
- `assembly`: a snapshot from plans, disk documents and buffers (pure);
- `edit_basis`: closed documents read again for an edit, changing nothing.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Mapping

from mfls import disk
from mfls.disk import REAL_DISK, Disk, DiskProblem
from mfls.text.line_index import LineIndex
from mfls.workspace import assembly, cold_indexing
from mfls.workspace.course_plans import CoursePlans
from mfls.workspace.disk_record import DiskRecord
from mfls.workspace.edit_basis import DiskCopies, EditBasis, Sources, edit_basis, member_problems
from mfls.workspace.file_events import FileEvents
from mfls.workspace.index import ScannedDocument, WorkspaceSnapshot
from mfls.workspace.open_buffers import DocumentFactory, OpenBuffer, OpenBuffers
from mfls.workspace.planning import CoursePlan
from mfls.workspace.scanning import Scanner
from mfls.workspace.uris import canonical_uri, path_to_uri, uri_to_path

__all__ = ["CoursePlan", "DiskCopies", "EditBasis", "Workspace", "member_problems"]

log = logging.getLogger("mfls")

Edit = tuple[int, int, str]


class Workspace:
    def __init__(
        self,
        *,
        max_file_bytes: int = disk.MAX_FILE_BYTES,
        max_documents: int = disk.MAX_DOCUMENTS,
        document_factory: DocumentFactory | None = None,
        disk: Disk = REAL_DISK,
        jobs: int | None = 1,
    ) -> None:
        """`disk` is the file tree read: the real file system unless another is given.
        `jobs`: how many processes may scan the files of a cold indexing (`index_all`);
        None: as many as pay (`parallel.scan_texts`)."""
        self.lock = threading.RLock()
        self.record = DiskRecord(disk, self.lock, max_file_bytes, max_documents)
        self.plans = CoursePlans(self.record, self.lock)
        self.open_buffers = OpenBuffers()
        self.scanner = Scanner(document_factory, jobs)
        self.events = FileEvents(self)
        self.preferred: set[str] = set()  # read first by the next `index_all`
        self._snapshot = WorkspaceSnapshot.empty()

    @property
    def snapshot(self) -> WorkspaceSnapshot:
        return self._snapshot

    @property
    def folders(self) -> tuple[str, ...]:
        return self.plans.folders

    @property
    def disk(self) -> Disk:
        """The gateway every read of this workspace goes through."""
        return self.record.disk

    @property
    def buffers(self) -> Mapping[str, OpenBuffer]:
        """The open buffers by canonical URI, in the order they were opened (a mapping
        each change replaces: whoever holds it keeps its moment's buffers)."""
        return self.open_buffers.mapping

    @property
    def disk_problems(self) -> tuple[DiskProblem, ...]:
        """The files and folders skipped as things stand: by the walks of the last
        indexing (or re-listing) and by the latest read of each file."""
        return self.record.problems

    def disk_problems_of(self, root: str) -> tuple[DiskProblem, ...]:
        """`disk_problems` of paths under `root` (nested courses included)."""
        return self.record.problems_of(root)

    def unusable_members(self, root: str) -> tuple[DiskProblem, ...]:
        """The files and folders of the course at `root` that could not be read, listed or
        decoded (nested courses left out)."""
        return member_problems(self.record.problems_of(root), self.plans.nested(root))

    # -- the edit basis ---------------------------------------------------------------

    def edit_basis(self, course_id: str, uris: Iterable[str]) -> EditBasis:
        """The closed documents `uris` of the course as the disk holds them now, changing
        nothing (`mfls.workspace.edit_basis`); its `copies` go to `take_disk_copies`."""
        snapshot = self._snapshot
        course = snapshot.courses.get(course_id)
        with self.lock:
            root = course.root if course is not None else None
            plan = self.plans.plans.get(root) if root is not None else None
            unsettled = [path_to_uri(p) for p in self.events.unsettled]
        sources = Sources(snapshot, plan, unsettled, self.record, self.scanner, self.plans.nested)
        return edit_basis(sources, course_id, uris)

    def take_disk_copies(self, copies: DiskCopies) -> None:
        """Index the documents an edit basis read again, and keep its reads' problems,
        each unless the editor opened the document or the index changed it meanwhile (a
        newer read wins, with its problem)."""
        with self.lock:
            for uri, path in copies.paths.items():
                found = self._snapshot.entry(uri)
                now = None if found is None else found[1].text
                if uri in self.open_buffers or now != copies.before.get(uri):
                    continue
                self.record.apply_reads(copies.problems, (path,))
                if uri not in copies.documents:
                    continue
                document = copies.documents[uri]
                if document is None:
                    self.drop(uri)
                else:
                    self.put(uri, document, None, False)

    # -- folders and indexing ---------------------------------------------------------

    def set_folders(self, paths: list[str]) -> None:
        """Set the workspace folders; courses outside them are dropped (open files stay)."""
        with self.lock:
            self.plans.set_folders(paths)
            self.reassemble(assembly.disk_documents(self._snapshot))

    def index_all(
        self,
        progress: Callable[[int, int], None] | None = None,
        first_done: Callable[[tuple[str, ...]], None] | None = None,
    ) -> None:
        """Read every course document of every folder from disk, then swap
        (`cold_indexing.index_all`: the open and preferred documents' courses first)."""
        self.events.indexing_began()
        try:
            cold_indexing.index_all(self, progress, first_done)
        finally:
            pending = self.events.indexing_ended()
        if pending:
            self.files_changed(pending)

    def prefer(self, uri: str) -> None:
        """Read the course of `uri` first in the next `index_all`, as if it were open (a
        request on it is waiting)."""
        with self.lock:
            self.preferred.add(canonical_uri(uri))

    # -- open buffers -----------------------------------------------------------------

    def open(
        self,
        uri: str,
        text: str,
        version: int | None,
        client_uri: str | None = None,
        index: LineIndex | None = None,
    ) -> None:
        """Open (or open again) `uri` with `text`; `client_uri`: the URI as the editor
        spelled it."""
        uri = canonical_uri(uri)
        document = self.scanner.factory(text, version)
        buffer = OpenBuffer(client_uri or uri, version, index or LineIndex(text), document)
        course = self._snapshot.course_for(uri)
        path = uri_to_path(uri)
        root = course.root if course is not None else None
        if course is None and path is not None:
            root = self.plans.root_outside_lock(path)
        self.plans.ensure(root)
        with self.lock:
            self.open_buffers.put(uri, buffer)
            self.put(uri, document, version, True, root)

    def change(
        self, uri: str, edits: list[Edit], version: int | None, index: LineIndex | None = None
    ) -> None:
        """Apply `(start, end, new_text)` code point edits, in order, to an open buffer;
        `index`: the final text's line index when the caller has it."""
        uri = canonical_uri(uri)
        with self.lock:
            current = self.open_buffers.get(uri)
            if current is None:
                log.warning("ignored a change to %s, which is not open", uri)
                return
            document, lines = current.document, current.index
            for start, end, new_text in edits:
                document = document.edited(start, end, new_text, version)
                if index is None:
                    lines = lines.edited(start, end, new_text)
            buffer = OpenBuffer(current.client_uri, version, index or lines, document)
            self.open_buffers.put(uri, buffer)
            self.put(uri, document, version, True)

    def close(self, uri: str) -> None:
        """Forget the buffer; the disk copy takes its place if the file is a course member."""
        reread = self.release(uri)
        if reread is not None:
            reread()

    def release(self, uri: str) -> Callable[[], None] | None:
        """Forget the buffer without reading the disk. A document that is no course
        member leaves the index now (None returned); a member's disk copy takes its place
        when the returned call has read it (on the worker: it reads the file). Until then
        the index holds the buffer's last text; an open buffer wins over that late read
        (`settle_disk_copy`)."""
        uri = canonical_uri(uri)
        path = uri_to_path(uri)
        with self.lock:
            if self.open_buffers.pop(uri) is None:
                return None
            course = self._snapshot.course_for(uri)
            root = course.root if course is not None else None
            plan = self.plans.plans.get(root) if root is not None else None
            if path is None or plan is None or uri not in plan.members:
                self.drop(uri)
                return None

        def reread() -> None:
            self.settle_disk_copy(uri, self.record.read(path, root))

        return reread

    def settle_disk_copy(self, uri: str, text: str | None) -> None:
        """Index what was read from disk (None: nothing usable), unless the editor opened
        the document meanwhile: an open buffer wins over a late disk read."""
        with self.lock:
            if uri in self.open_buffers:
                return
            if text is None:
                self.drop(uri)
            else:
                self.put(uri, self.scanner.one(text), None, False)

    def is_open(self, uri: str) -> bool:
        return canonical_uri(uri) in self.open_buffers

    # -- disk changes (`file_events`) -------------------------------------------------

    def expect_changes(self, changes: Iterable[tuple[str, str]]) -> None:
        """Note files the editor reported changed, before `files_changed` handles them:
        until then `edit_basis` reads them again too."""
        self.events.expect(changes)

    def files_changed(self, changes: list[tuple[str, str]]) -> None:
        """React to `(path, "created" | "changed" | "deleted")` reported by the editor."""
        self.events.changed(changes)

    # -- swapping the snapshot (the lock held) ----------------------------------------

    def put(
        self,
        uri: str,
        document: ScannedDocument,
        version: int | None,
        is_open: bool,
        located: str | None = None,
    ) -> None:
        """Index `document` under `uri`; one in no course yet goes into the course at
        `located` (the root the caller found outside the lock), else the one
        `CoursePlans.root_of` finds."""
        snapshot = self._snapshot
        course = snapshot.course_for(uri)
        if course is not None:
            root = course.root
        else:
            path = uri_to_path(uri)
            root = located or (self.plans.root_of(path) if path is not None else None)
        plan = self.plans.plan_for(root) if root is not None else None
        self._snapshot = assembly.put(snapshot, uri, document, version, is_open, root, plan)

    def drop(self, uri: str) -> None:
        self._snapshot = assembly.drop(self._snapshot, uri)

    def reassemble(
        self, on_disk: Mapping[str, ScannedDocument], plans: Mapping[str, CoursePlan] | None = None
    ) -> None:
        """Swap in the snapshot of the plans (`plans` replacing all of them, when given),
        the given disk documents and the open buffers (`assembly.assemble`)."""
        if plans is not None:
            self.plans.plans = dict(plans)
        buffers = self.open_buffers.mapping
        owners: dict[str, str | None] = {}
        members = {uri for plan in self.plans.plans.values() for uri in plan.members}
        for uri in buffers:
            if uri not in members:
                path = uri_to_path(uri)
                owner = owners[uri] = self.plans.root_of(path) if path is not None else None
                if owner is not None:
                    self.plans.plan_for(owner)
        roots = set(self.plans.plans)
        limits = {r: self.record.limit_problems(r, self.plans.owner) for r in roots}
        self._snapshot = assembly.assemble(
            self._snapshot, self.plans.plans, on_disk, buffers, owners, limits
        )
