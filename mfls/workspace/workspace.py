"""`Workspace`: the one mutable holder of folders, open buffers and the current snapshot.

Every change builds a new `WorkspaceSnapshot` and swaps it in under a lock; readers take
`workspace.snapshot` once and keep a consistent view. Disk access goes through the `Disk`
it is given (the gateway `mfls.disk` unless told otherwise); the files it skipped are kept
as data (`disk_problems`), each logged once.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import NamedTuple, Protocol

from mfls import disk
from mfls.disk import REAL_DISK, Disk, DiskProblem, Listing, printable
from mfls.disk.problems import LIMIT
from mfls.syntax.scanner import scan_markers
from mfls.workspace import course_creator
from mfls.workspace.config import COURSE_FILE, ConfigProblem, CourseConfig, parse_course_config
from mfls.workspace.course_root import nearest_course_root
from mfls.workspace.globs import glob_set
from mfls.workspace.hosts import host_profile
from mfls.workspace.index import (
    CourseSnapshot,
    DiskDocument,
    DocEntry,
    DocKind,
    ScannedDocument,
    WorkspaceSnapshot,
    build_course,
    relative_path,
    remove_document,
    replace_document,
    with_course,
)
from mfls.workspace.parallel import scan_texts
from mfls.workspace.uris import canonical_uri, path_to_uri, uri_to_path

log = logging.getLogger("mfls")

PROGRESS_STEP = 100
"""`index_all` reports progress after every this many documents read."""
_AT_START = (0, 0, 0, 0)


class EditBasis(NamedTuple):
    """What an edit of closed documents is computed from (`Workspace.edit_basis`).

    `snapshot` holds the asked-for closed documents as the disk holds them now;
    `unusable` the members of the course that could not be read, listed or decoded (an
    edit of the whole course must refuse); `aliases` the URIs that name a file another
    asked-for URI already names (through a link): their edits must be left out."""

    snapshot: WorkspaceSnapshot
    unusable: tuple[DiskProblem, ...]
    aliases: frozenset[str]


def member_problems(
    problems: Iterable[DiskProblem], nested: Iterable[str]
) -> tuple[DiskProblem, ...]:
    """The `problems` of course members (unreadable, unlistable or undecodable), not of
    links out of the root, loops, vanished files or files of the `nested` courses."""
    inner = tuple(nested)
    return tuple(p for p in problems if p.member and not any(disk.inside(p.path, n) for n in inner))


class EditableDocument(ScannedDocument, Protocol):
    def edited(
        self, start: int, end: int, new_text: str, version: int | None = None
    ) -> EditableDocument: ...


DocumentFactory = Callable[[str, "int | None"], EditableDocument]
Edit = tuple[int, int, str]


class CoursePlan(NamedTuple):
    """A course as found on disk: its root, configuration and ordered members."""

    root: str
    config: CourseConfig
    problems: tuple[ConfigProblem, ...]
    paths: tuple[str, ...]
    members: Mapping[str, tuple[str, DocKind, int]]  # uri -> (path, kind, order)

    def classify(self, path: str) -> tuple[DocKind, int]:
        """Kind and order of a document of this course that no lesson glob lists."""
        relative = relative_path(path, self.root)
        if self.config.layout is not None:  # only the folder's listed lessons are lessons
            return "reference", len(self.members)
        if glob_set(self.config.references).any(relative):
            return "reference", len(self.members)
        return "lesson", len(self.members)


def _members(
    root: str, config: CourseConfig, paths: Iterable[str], uris: Mapping[str, str] | None = None
) -> Mapping[str, tuple[str, DocKind, int]]:
    """The course's members in order: lessons by the first lesson glob each matches (in
    the course file's order), by path within one glob; then the reference documents.
    A path a reference glob matches is a reference document, whatever else matches.
    `uris` (path -> URI) are URIs already made, reused."""
    lessons, references = glob_set(config.lessons), glob_set(config.references)
    found: list[tuple[int, str, str]] = []
    last = len(config.lessons)
    for path in paths:
        relative = relative_path(path, root)
        if references.any(relative):
            found.append((last, relative, path))
        else:
            index = lessons.first(relative)
            if index is not None:
                found.append((index, relative, path))
    found.sort()
    members: dict[str, tuple[str, DocKind, int]] = {}
    known = uris or {}
    for index, _, path in found:
        uri = known.get(path) or path_to_uri(path)
        if uri not in members:
            kind: DocKind = "reference" if index == last else "lesson"
            members[uri] = (path, kind, len(members))
    return MappingProxyType(members)


def _default_factory() -> DocumentFactory:
    from mfls.syntax.document import Document

    return Document


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
        None: as many as `parallel.chosen_workers` finds worth it."""
        self._disk = disk
        self._jobs = jobs
        self._light = document_factory is None
        self._lock = threading.RLock()
        self._max_file_bytes = max_file_bytes
        self._max_documents = max_documents
        self._factory = document_factory or _default_factory()
        self._folders: tuple[str, ...] = ()
        self._plans: dict[str, CoursePlan] = {}
        self._open: dict[str, tuple[EditableDocument, int | None]] = {}
        self._snapshot = WorkspaceSnapshot.empty()
        self._indexing = 0
        self._pending: list[tuple[str, str]] = []
        self._walk_problems: dict[str, tuple[DiskProblem, ...]] = {}
        self._read_problems: dict[str, DiskProblem] = {}
        self._unsettled: set[str] = set()
        self._preferred: set[str] = set()  # read first by the next `index_all`

    @property
    def snapshot(self) -> WorkspaceSnapshot:
        return self._snapshot

    @property
    def folders(self) -> tuple[str, ...]:
        return self._folders

    def _from_disk(self, text: str) -> ScannedDocument:
        if self._light:
            return DiskDocument(text, scan_markers(text))
        return DiskDocument(text, self._factory(text, None).result())

    def _many_from_disk(self, texts: list[str]) -> Iterator[ScannedDocument]:
        """`_from_disk` of each of `texts`, in order (scanned by `jobs` processes)."""
        if not self._light:
            yield from map(self._from_disk, texts)
            return
        for text, result in zip(texts, scan_texts(texts, self._jobs), strict=True):
            yield DiskDocument(text, result)

    # -- the disk, through the gateway ------------------------------------------------

    @property
    def disk(self) -> Disk:
        """The gateway every read of this workspace goes through."""
        return self._disk

    @property
    def disk_problems(self) -> tuple[DiskProblem, ...]:
        """The files and folders skipped as things stand: by the walks of the last
        indexing (or re-listing) and by the latest read of each file."""
        with self._lock:
            walked = [p for found in self._walk_problems.values() for p in found]
            read = list(self._read_problems.values())
        return tuple(dict.fromkeys(walked + read))

    def disk_problems_of(self, root: str) -> tuple[DiskProblem, ...]:
        """`disk_problems` of paths under `root` (nested courses included)."""
        return tuple(p for p in self.disk_problems if disk.inside(p.path, root))

    def _read(
        self, path: str, root: str | None, into: dict[str, DiskProblem] | None = None
    ) -> str | None:
        """The text of `path`, or None with its problem logged and kept (in `into`, or in
        the workspace's own record)."""
        text, problems = self._disk.read_text(path, root, self._max_file_bytes)
        for problem in problems:
            log.warning("skipped %s: %s", problem.path, problem.reason)
        with self._lock:
            record = self._read_problems if into is None else into
            if problems:
                record[path] = problems[0]
            else:
                record.pop(path, None)
        return text

    def _list(self, root: str) -> Listing:
        """Walk `root`; its problems are logged and replace those of its previous walk."""
        listing, problems = self._disk.walk(
            root, self._max_documents, landmarks=(COURSE_FILE, *course_creator.LANDMARKS)
        )
        for problem in problems:
            log.warning("skipped %s: %s", problem.path, problem.reason)
        with self._lock:
            self._walk_problems[root] = problems
        return listing

    def unusable_members(self, root: str) -> tuple[DiskProblem, ...]:
        """The files and folders of the course at `root` that could not be read, listed or
        decoded (nested courses left out)."""
        with self._lock:
            nested = [r for r in self._plans if r != root and disk.inside(r, root)]
        nested += self._inner_folders(root)
        return member_problems(self.disk_problems_of(root), nested)

    def edit_basis(self, course_id: str, uris: Iterable[str]) -> EditBasis:
        """Read again, through the disk, each closed document of `uris` in the course
        `course_id`: a text that changed since it was indexed is indexed again (one that
        can no longer be used is dropped, its problem kept), so an edit computed from the
        returned snapshot fits the bytes on disk. Only these documents are read, and the
        members the editor reported changed that the worker has not handled yet."""
        snapshot = self._snapshot
        course = snapshot.courses.get(course_id)
        if course is None:
            return EditBasis(snapshot, (), frozenset())
        wanted = list(dict.fromkeys(uris))
        with self._lock:
            plan = self._plans.get(course.root) if course.root is not None else None
            unsettled = [path_to_uri(p) for p in self._unsettled]
        members = plan.members if plan is not None else {}
        changed: dict[str, str | None] = {}
        for uri in wanted + [u for u in unsettled if u in members and u not in wanted]:
            entry = course.docs.get(uri)
            if entry is None:
                path: str | None = members[uri][0] if uri in members else None
            elif entry.is_open:
                continue
            else:
                path = entry.path
            if path is None:
                continue
            text = self._read(path, course.root)
            if text != (entry.text if entry is not None else None):
                changed[uri] = text
        if changed:
            with self._lock:
                for uri, text in changed.items():
                    if uri in self._open:
                        continue
                    if text is None:
                        self._drop(uri)
                    else:
                        self._put(uri, self._from_disk(text), None, False)
                snapshot = self._snapshot
            log.info("re-indexed %d documents changed on disk", len(changed))
        unusable = self.unusable_members(course.root) if course.root is not None else ()
        fresh = snapshot.courses.get(course_id)
        wanted += [u for u in changed if u not in wanted]
        aliases = self._aliases(fresh, wanted) if fresh is not None else frozenset()
        return EditBasis(snapshot, unusable, aliases)

    def _aliases(self, course: CourseSnapshot, uris: Iterable[str]) -> frozenset[str]:
        """The URIs of `uris` naming a file an earlier-chosen one names: per file, an open
        document wins, then the file's own (resolved) name, then the first in course
        order."""
        by_file: dict[str, list[DocEntry]] = {}
        for uri in uris:
            entry = course.docs.get(uri)
            if entry is not None and entry.path is not None:
                by_file.setdefault(self._disk.real_path(entry.path), []).append(entry)
        aliases: set[str] = set()
        for real, entries in by_file.items():
            if len(entries) < 2:
                continue
            keep = min(entries, key=lambda e: (not e.is_open, e.path != real, e.order, e.uri))
            aliases.update(e.uri for e in entries if e is not keep)
        return frozenset(aliases)

    # -- folders and indexing ---------------------------------------------------------

    def set_folders(self, paths: list[str]) -> None:
        """Set the workspace folders; courses outside them are dropped (open files stay)."""
        folders = tuple(dict.fromkeys(os.path.abspath(p) for p in paths))
        with self._lock:
            self._folders = folders
            self._plans = {
                root: plan
                for root, plan in self._plans.items()
                if any(disk.inside(root, f) for f in folders)
            }
            self._assemble(self._disk_documents())

    def index_all(
        self,
        progress: Callable[[int, int], None] | None = None,
        first_done: Callable[[tuple[str, ...]], None] | None = None,
    ) -> None:
        """Read every course document of every folder from disk, then swap.

        The courses of the open documents (and of the documents `prefer` named) are read
        first: when other courses remain, the snapshot is swapped as soon as those are
        read and `first_done(roots)` is told their roots, before the rest is read."""
        with self._lock:
            self._indexing += 1
            folders = self._folders
        try:
            with self._lock:
                self._walk_problems = {}
            read_problems: dict[str, DiskProblem] = {}
            plans: dict[str, CoursePlan] = {}
            for folder in folders:
                plans.update(self._plan_folder(folder))
            first = self._first_roots(plans)
            rest = set(plans) - first
            split = first and any(plans[root].members for root in rest)
            phases = [first, rest] if split else [set(plans)]
            wanted = [
                [
                    (uri, path, root)
                    for root, plan in plans.items()
                    if root in roots
                    for uri, (path, _, _) in plan.members.items()
                ]
                for roots in phases
            ]
            total = sum(map(len, wanted))
            documents: dict[str, ScannedDocument] = {}
            skipped: set[str] = set()
            done = 0
            for phase, members in enumerate(wanted):
                counts = (done, total)
                done = self._read_members(
                    members, documents, skipped, read_problems, counts, progress
                )
                if phase == 0 and len(phases) > 1:
                    with self._lock:
                        others = self._disk_documents()
                        self._plans = plans
                        self._assemble({**others, **documents})
                    if first_done is not None:
                        first_done(tuple(sorted(first)))
            if progress is not None and total:
                progress(total, total)
            with self._lock:
                current = self._disk_documents()
                for uri, path, root in (member for members in wanted for member in members):
                    if uri in skipped and uri not in self._open:
                        if uri in current:
                            documents[uri] = current[uri]
                        else:
                            text = self._read(path, root, read_problems)
                            if text is not None:
                                documents[uri] = self._from_disk(text)
                self._read_problems = {**self._config_problems(plans), **read_problems}
                self._plans = plans
                self._preferred.clear()
                self._assemble(documents)
        finally:
            with self._lock:
                self._indexing -= 1
                pending, self._pending = self._pending, []
        if pending:
            self.files_changed(pending)

    def _read_members(
        self,
        members: list[tuple[str, str, str]],
        documents: dict[str, ScannedDocument],
        skipped: set[str],
        read_problems: dict[str, DiskProblem],
        counts: tuple[int, int],
        progress: Callable[[int, int], None] | None,
    ) -> int:
        """Read and scan `members` (uri, path, root) into `documents`, open ones left out
        (`skipped`); progress counts on from `counts` (done, total); returns done."""
        done, total = counts
        read: dict[str, str] = {}
        for uri, path, root in members:
            if uri in self._open:
                skipped.add(uri)
            else:
                text = self._read(path, root, read_problems)
                if text is not None:
                    read[uri] = text
        done += len(members) - len(read)
        scanned = self._many_from_disk(list(read.values()))
        for uri, document in zip(read, scanned, strict=True):
            documents[uri] = document
            done += 1
            if progress is not None and done % PROGRESS_STEP == 0 and done < total:
                progress(done, total)
        return done

    def prefer(self, uri: str) -> None:
        """Read the course of `uri` first in the next `index_all`, as if it were open (a
        request on it is waiting)."""
        with self._lock:
            self._preferred.add(canonical_uri(uri))

    def _first_roots(self, plans: Mapping[str, CoursePlan]) -> set[str]:
        """The roots among `plans` of the open and preferred documents' courses."""
        with self._lock:
            uris = [*self._open, *self._preferred]
        roots: set[str] = set()
        for uri in uris:
            path = uri_to_path(uri)
            holding = [root for root in plans if path is not None and disk.inside(path, root)]
            if holding:
                roots.add(max(holding, key=len))
        return roots

    def _config_problems(self, plans: Mapping[str, CoursePlan]) -> dict[str, DiskProblem]:
        """The kept problems of the course files of `plans` (read while planning)."""
        wanted = {os.path.join(root, COURSE_FILE) for root in plans}
        return {path: p for path, p in self._read_problems.items() if path in wanted}

    def _inner_folders(self, directory: str) -> list[str]:
        """Workspace folders strictly inside `directory`: they are courses of their own."""
        return [f for f in self._folders if f != directory and disk.inside(f, directory)]

    def _plan_folder(self, folder: str) -> dict[str, CoursePlan]:
        listing = self._list(folder)
        inner = self._inner_folders(folder)

        def outside_inner(path: str) -> bool:
            return not any(disk.inside(path, f) for f in inner)

        found_roots = {r for r in self._course_roots(listing) if outside_inner(r)}
        roots = sorted(found_roots | {folder}, key=len, reverse=True)
        paths_of: dict[str, list[str]] = {root: [] for root in roots}
        for path in filter(outside_inner, listing.files):
            for root in roots:
                if disk.inside(path, root):
                    paths_of[root].append(path)
                    break
        return {root: self._plan(root, paths_of[root]) for root in roots}

    def _course_roots(self, listing: Listing) -> list[str]:
        """The directories of a listing that are course roots."""
        return course_creator.course_roots(listing.landmarks, self._disk)

    def _plan(self, root: str, paths: Iterable[str]) -> CoursePlan:
        config, problems, own_lessons = self._read_config(root)
        paths = tuple(paths)
        if config.layout is not None and not own_lessons:
            config, listed = course_creator.resolve(config, paths)
            return CoursePlan(root, config, problems, paths, MappingProxyType(listed))
        if config.layout is not None:
            config, _ = course_creator.resolve(config, paths)  # its diagnostics still count
        members = course_creator.prompt_first(root, _members(root, config, paths), self._disk)
        return CoursePlan(root, config, problems, paths, members)

    def _read_config(self, root: str) -> tuple[CourseConfig, tuple[ConfigProblem, ...], bool]:
        """The course's configuration, the problems of its course file, and whether that
        file lists the lessons itself; an AI-Shifu course folder sets what it leaves."""
        course_file = os.path.join(root, COURSE_FILE)
        text: str | None = None
        config = CourseConfig()
        problems: tuple[ConfigProblem, ...] = ()
        if not self._disk.exists(course_file):
            with self._lock:
                self._read_problems.pop(course_file, None)
        else:
            text = self._read(course_file, root)
            if text is None:
                problem = ConfigProblem.of("config.unreadable", {}, (0, 0, 0, 0), fatal=True)
                problems = (problem,)
            else:
                config, found = parse_course_config(text)
                config = config._replace(text=text)
                problems = tuple(found)
                for each in found:
                    if each.fatal:
                        log.warning("%s: %s", course_file, each.message)
        config = course_creator.configure(root, config, text, self._disk, self._max_file_bytes)
        return config, problems, course_creator.lessons_from_course_file(text)

    def _plan_course(self, root: str) -> CoursePlan:
        """List one course root again (nested courses excluded)."""
        listing = self._list(root)
        nested = [r for r in self._course_roots(listing) if r != root]
        nested += self._inner_folders(root)
        paths = [p for p in listing.files if not any(disk.inside(p, n) for n in nested)]
        return self._plan(root, paths)

    # -- locating documents -----------------------------------------------------------

    def _folder_of(self, path: str) -> str | None:
        containing = [f for f in self._folders if disk.inside(path, f)]
        return max(containing, key=len) if containing else None

    def _root_of(self, path: str) -> str | None:
        """The course root of a file path, or None when it lies outside every folder.
        Callers hold the lock; `_root_outside_lock` looks at the disk without it."""
        return self._nearest_root(path, *self._planned_around(path))

    def _root_outside_lock(self, path: str) -> str | None:
        """`_root_of`, the lock held only to read the folders and plans."""
        with self._lock:
            folder, known = self._planned_around(path)
        return self._nearest_root(path, folder, known)

    def _planned_around(self, path: str) -> tuple[str | None, list[str]]:
        """The folder holding `path` and the planned course roots above it."""
        return self._folder_of(path), [r for r in self._plans if disk.inside(path, r)]

    def _nearest_root(self, path: str, folder: str | None, known: list[str]) -> str | None:
        """The innermost of `known`, of a course file's folder found on disk above `path`
        inside `folder`, and of `folder` itself (None without a folder)."""
        if folder is None:
            return None
        nearest = nearest_course_root(os.path.dirname(path), folder, self._disk)
        return max(known + ([nearest] if nearest else []) + [folder], key=len)

    def _plan_for(self, root: str) -> CoursePlan:
        """The plan of the course at `root`, made if there is none. Callers hold the lock;
        `_ensure_plan` has made it beforehand, without, unless the course at `root`
        appeared meanwhile (a new course file found while re-assembling)."""
        plan = self._plans.get(root)
        if plan is None:
            plan = self._plans[root] = self._unlisted_plan(root)
        return plan

    def _unlisted_plan(self, root: str) -> CoursePlan:
        """The plan of a course not listed yet: its configuration, no members."""
        config, problems, _ = self._read_config(root)
        return CoursePlan(root, config, problems, (), MappingProxyType({}))

    def _ensure_plan(self, root: str | None) -> None:
        """Plan the course at `root` if it has no plan yet, reading its course file
        without holding the lock."""
        if root is None:
            return
        with self._lock:
            if root in self._plans:
                return
        plan = self._unlisted_plan(root)
        with self._lock:
            self._plans.setdefault(root, plan)

    def _locate(self, uri: str) -> str | None:
        """The root of the course `uri` belongs to (None: outside every folder), found
        without holding the lock while the disk is looked at."""
        course = self._snapshot.course_for(uri)
        if course is not None:
            return course.root
        path = uri_to_path(uri)
        return self._root_outside_lock(path) if path is not None else None

    def _entry(
        self,
        uri: str,
        document: ScannedDocument,
        version: int | None,
        is_open: bool,
        root: str | None,
    ) -> DocEntry:
        path = uri_to_path(uri)
        if root is None or path is None:
            return DocEntry(uri, path, version, document, "lesson", 0, is_open)
        plan = self._plan_for(root)
        member = plan.members.get(uri)
        kind, order = (member[1], member[2]) if member else plan.classify(path)
        target = plan.config.runtime_target
        return DocEntry(uri, path, version, document, kind, order, is_open, target)

    def _empty_course(self, course_id: str, root: str | None) -> CourseSnapshot:
        problems: tuple[ConfigProblem, ...] = ()
        if root is None:
            config = CourseConfig()
        else:
            plan = self._plan_for(root)
            config, problems = plan.config, plan.problems
        return build_course(
            course_id, root, config, host_profile(config.host, config.system_keys), (), problems
        )

    def _put(
        self,
        uri: str,
        document: ScannedDocument,
        version: int | None,
        is_open: bool,
        located: str | None = None,
    ) -> None:
        """Index `document` under `uri`; one in no course yet goes into the course at
        `located` (the root the caller found outside the lock), else the one `_root_of`
        finds."""
        snapshot = self._snapshot
        course = snapshot.course_for(uri)
        if course is None:
            path = uri_to_path(uri)
            root = located or (self._root_of(path) if path is not None else None)
            course_id = root if root is not None else uri
            course = snapshot.courses.get(course_id) or self._empty_course(course_id, root)
        entry = self._entry(uri, document, version, is_open, course.root)
        added = () if uri in course.docs else (uri,)
        self._snapshot = with_course(
            snapshot, replace_document(course, entry), course.id, added=added
        )

    def _drop(self, uri: str) -> None:
        snapshot = self._snapshot
        course = snapshot.course_for(uri)
        if course is None:
            return
        updated: CourseSnapshot | None = remove_document(course, uri)
        if updated is not None and updated.root is None and not updated.docs:
            updated = None
        self._snapshot = with_course(snapshot, updated, course.id, removed=(uri,))

    # -- open buffers -----------------------------------------------------------------

    def open(self, uri: str, text: str, version: int | None) -> None:
        uri = canonical_uri(uri)
        document = self._factory(text, version)
        root = self._locate(uri)
        self._ensure_plan(root)
        with self._lock:
            self._open[uri] = (document, version)
            self._put(uri, document, version, True, root)

    def change(self, uri: str, edits: list[Edit], version: int | None) -> None:
        """Apply `(start, end, new_text)` code point edits, in order, to an open buffer."""
        uri = canonical_uri(uri)
        with self._lock:
            current = self._open.get(uri)
            if current is None:
                log.warning("ignored a change to %s, which is not open", uri)
                return
            document = current[0]
            for start, end, new_text in edits:
                document = document.edited(start, end, new_text, version)
            self._open[uri] = (document, version)
            self._put(uri, document, version, True)

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
        (`_settle_disk_copy`)."""
        uri = canonical_uri(uri)
        path = uri_to_path(uri)
        with self._lock:
            if self._open.pop(uri, None) is None:
                return None
            course = self._snapshot.course_for(uri)
            root = course.root if course is not None else None
            plan = self._plans.get(root) if root is not None else None
            if path is None or plan is None or uri not in plan.members:
                self._drop(uri)
                return None

        def reread() -> None:
            self._settle_disk_copy(uri, self._read(path, root))

        return reread

    def _settle_disk_copy(self, uri: str, text: str | None) -> None:
        """Index what was read from disk (None: nothing usable), unless the editor opened
        the document meanwhile: an open buffer wins over a late disk read."""
        with self._lock:
            if uri in self._open:
                return
            if text is None:
                self._drop(uri)
            else:
                self._put(uri, self._from_disk(text), None, False)

    def is_open(self, uri: str) -> bool:
        return canonical_uri(uri) in self._open

    # -- disk changes -----------------------------------------------------------------

    def expect_changes(self, changes: Iterable[tuple[str, str]]) -> None:
        """Note files the editor reported changed, before `files_changed` handles them:
        until then `edit_basis` reads them again too."""
        with self._lock:
            self._unsettled.update(os.path.abspath(path) for path, _ in changes)

    def files_changed(self, changes: list[tuple[str, str]]) -> None:
        """React to `(path, "created" | "changed" | "deleted")` reported by the editor."""
        try:
            self._files_changed(changes)
        finally:
            with self._lock:
                self._unsettled.difference_update(os.path.abspath(path) for path, _ in changes)

    def _files_changed(self, changes: list[tuple[str, str]]) -> None:
        with self._lock:
            if self._indexing:
                self._pending.extend(changes)
        replan: set[str] = set()
        # Files created or deleted, per course root, with the target to list again if
        # the course cannot be re-planned without listing it.
        quick: dict[str, list[tuple[str, str, str]]] = {}
        for path, kind in changes:
            path = os.path.abspath(path)
            root = self._root_outside_lock(path)
            if root is None:
                continue
            self._ensure_plan(root)
            if kind == "deleted":
                self._forget_problems(path)
            if os.path.basename(path) in (COURSE_FILE, *course_creator.LANDMARKS) or (
                kind == "created" and self._disk.is_directory(path)
            ):
                folder = self._folder_of(path)
                if folder is not None:
                    replan.add(folder)
                continue
            if kind == "changed":
                self._reread(path, root)
            elif kind == "deleted" and not self._is_member(path, root):
                folder = self._folder_of(path)
                if folder is not None:
                    quick.setdefault(root, []).append((path, kind, folder))
            else:
                quick.setdefault(root, []).append((path, kind, root))
        for root, files in quick.items():
            covered = any(disk.inside(root, target) for target in replan)
            if covered or not self._replan_files(root, [(p, k) for p, k, _ in files]):
                replan.update(target for _, _, target in files)
        for target in sorted(replan, key=len):
            if target in self._folders:
                self._replan_folder(target)
            else:
                self._replan_course(target)

    def _is_member(self, path: str, root: str) -> bool:
        with self._lock:
            return path_to_uri(path) in self._plan_for(root).members

    def _reread(self, path: str, root: str) -> None:
        uri = path_to_uri(path)
        with self._lock:
            if uri in self._open or uri not in self._plan_for(root).members:
                return
        text = self._read(path, root)
        self._settle_disk_copy(uri, text)

    def _forget_problems(self, path: str) -> None:
        with self._lock:
            for known in [p for p in self._read_problems if disk.inside(p, path)]:
                del self._read_problems[known]
            for walked in [r for r in self._walk_problems if disk.inside(r, path)]:
                del self._walk_problems[walked]

    def _replan_files(self, root: str, changes: list[tuple[str, str]]) -> bool:
        """Re-plan the course at `root` for files created or deleted (in order), without
        listing it again: True when done, False when the course must be listed again (a
        new file in a folder no listed file lies in, or no regular file; a deleted path
        never listed; the folder reaching its document limit, or at it, where a deletion
        may let an unlisted file in)."""
        with self._lock:
            plan = self._plans.get(root)
            folder = self._folder_of(root)
            if plan is None or folder is None or plan.config.layout is not None:
                return False  # an AI-Shifu course folder's lessons come from structure.json
            listed = sum(len(p.paths) for r, p in self._plans.items() if disk.inside(r, folder))
        created = sum(kind == "created" for _, kind in changes)
        if listed >= self._max_documents or listed + created > self._max_documents:
            return False
        paths = dict.fromkeys(plan.paths)
        walked = {root} | {os.path.dirname(p) for p in paths}
        for path, kind in changes:
            if kind == "deleted" and path in paths:
                del paths[path]
            elif kind != "created" or os.path.dirname(path) not in walked:
                return False
            elif path not in paths:
                if not self._disk.is_regular_file(path):
                    return False
                paths[path] = None
        uris = {known: uri for uri, (known, _, _) in plan.members.items()}
        members = _members(root, plan.config, paths, uris)
        replanned = plan._replace(paths=tuple(paths), members=members)
        with self._lock:
            if self._plans.get(root) is not plan:
                return False
            self._plans[root] = replanned
        if members != plan.members:
            self._rebuild({root: replanned})
        return True

    def _replan_course(self, root: str) -> None:
        plan = self._plan_course(root)
        with self._lock:
            self._plans[root] = plan
        self._rebuild({root: plan})

    def _replan_folder(self, folder: str) -> None:
        plans = self._plan_folder(folder)
        with self._lock:
            for root in [r for r in self._plans if disk.inside(r, folder)]:
                del self._plans[root]
            self._plans.update(plans)
        self._rebuild(plans)

    def _rebuild(self, plans: Mapping[str, CoursePlan]) -> None:
        """Rebuild the courses of `plans`, reading only documents not already indexed."""
        with self._lock:
            known = self._disk_documents()
            snapshot = self._snapshot
        documents: dict[str, ScannedDocument] = {}
        unread: set[str] = set()
        for plan in plans.values():
            for uri, (path, _, _) in plan.members.items():
                # A document read for another course root is read again: what lay inside
                # the old root (a link out of the new one) may not be part of this course.
                owner = snapshot.course_for(uri)
                if uri in known and owner is not None and owner.root == plan.root:
                    documents[uri] = known[uri]
                elif uri not in self._open:
                    text = self._read(path, plan.root)
                    if text is not None:
                        documents[uri] = self._from_disk(text)
                    else:
                        unread.add(uri)
        with self._lock:
            known = self._disk_documents()
            known.update(documents)
            for uri in unread:
                known.pop(uri, None)
            self._assemble(known)

    # -- assembling a whole snapshot --------------------------------------------------

    def _limit_problems(self, root: str) -> tuple[ConfigProblem, ...]:
        """The limits the course at `root` is over, as problems of its course file: a
        listing of its root, or of a folder holding it, stopped at the document limit; a
        member left out over the size limit."""
        found: list[ConfigProblem] = []
        for walked, problems in self._walk_problems.items():
            if disk.inside(root, walked):
                found += [
                    ConfigProblem.of(
                        "config.document-limit",
                        {"limit": str(self._max_documents)},
                        _AT_START,
                    )
                    for problem in problems
                    if problem.kind == LIMIT
                ]
        for path, problem in self._read_problems.items():
            if problem.kind == LIMIT and self._owner(path) == root:
                arguments = {
                    "path": printable(relative_path(path, root)),
                    "limit": str(self._max_file_bytes),
                }
                found.append(ConfigProblem.of("config.file-limit", arguments, _AT_START))
        return tuple(found)

    def _owner(self, path: str) -> str | None:
        """The root of the planned course `path` lies in (the innermost)."""
        roots = [root for root in self._plans if disk.inside(path, root)]
        return max(roots, key=len) if roots else None

    def _disk_documents(self) -> dict[str, ScannedDocument]:
        found: dict[str, ScannedDocument] = {}
        for course in self._snapshot.courses.values():
            for uri, entry in course.docs.items():
                if not entry.is_open:
                    found[uri] = entry.document
        return found

    def _assemble(self, on_disk: Mapping[str, ScannedDocument]) -> None:
        """Build the snapshot from the plans, the given disk documents and open buffers."""
        old = self._snapshot
        grouped: dict[str, tuple[str | None, list[DocEntry]]] = {}
        placed: set[str] = set()
        for root, plan in self._plans.items():
            entries: list[DocEntry] = []
            target = plan.config.runtime_target
            for uri, (path, kind, order) in plan.members.items():
                opened = self._open.get(uri)
                if opened is not None:
                    entries.append(
                        DocEntry(uri, path, opened[1], opened[0], kind, order, True, target)
                    )
                elif uri in on_disk:
                    entries.append(
                        DocEntry(uri, path, None, on_disk[uri], kind, order, False, target)
                    )
                else:
                    continue
                placed.add(uri)
            grouped[root] = (root, entries)
        for uri, (document, version) in self._open.items():
            if uri in placed:
                continue
            local = uri_to_path(uri)
            owner = self._root_of(local) if local is not None else None
            course_id = owner if owner is not None else uri
            entry = self._entry(uri, document, version, True, owner)
            grouped.setdefault(course_id, (owner, []))[1].append(entry)
        courses: dict[str, CourseSnapshot] = {}
        course_of: dict[str, str] = {}
        for course_id, (course_root, found) in grouped.items():
            known = self._plans.get(course_root) if course_root is not None else None
            config = known.config if known is not None else CourseConfig()
            problems = known.problems if known is not None else ()
            if course_root is not None:
                problems += self._limit_problems(course_root)
            previous = old.courses.get(course_id)
            entries = [_same_or(previous, e) for e in found]
            if previous is not None and _unchanged(previous, entries, config, problems):
                course = previous
            else:
                course = build_course(
                    course_id,
                    course_root,
                    config,
                    host_profile(config.host, config.system_keys),
                    entries,
                    problems,
                )
            courses[course_id] = course
            for entry in entries:
                course_of[entry.uri] = course_id
        self._snapshot = WorkspaceSnapshot(
            MappingProxyType(courses), MappingProxyType(course_of), old.generation + 1
        )


def _same_or(previous: CourseSnapshot | None, entry: DocEntry) -> DocEntry:
    """Reuse the previous entry object when nothing about the document changed."""
    old = previous.docs.get(entry.uri) if previous is not None else None
    return old if old is not None and old == entry else entry


def _unchanged(
    previous: CourseSnapshot | None,
    entries: list[DocEntry],
    config: CourseConfig,
    problems: tuple[ConfigProblem, ...],
) -> bool:
    """True when `previous` already holds exactly these entries under this configuration."""
    if previous is None or previous.config != config or previous.problems != problems:
        return False
    if len(previous.docs) != len(entries):
        return False
    return all(previous.docs.get(e.uri) is e for e in entries)
