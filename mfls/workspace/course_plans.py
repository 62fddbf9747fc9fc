"""`CoursePlans`: the workspace folders and the plan of each course in them, and where a
path belongs.

It holds the mutable part of planning (the folders, root -> `CoursePlan`) under the
workspace's lock and reads what planning needs through the `DiskRecord` (listings,
course files) outside that lock; the plans themselves are made by the pure functions of
`mfls.workspace.planning`. Reads with the lock held happen only where a caller holds it
already and a course appeared meanwhile (`plan_for`).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterable, Mapping

from mfls import disk
from mfls.workspace import course_creator, planning
from mfls.workspace.config import COURSE_FILE, ConfigProblem, CourseConfig, parse_course_config
from mfls.workspace.disk_record import DiskRecord
from mfls.workspace.planning import ConfigRead, CoursePlan
from mfls.workspace.uris import path_to_uri

log = logging.getLogger("mfls")


class CoursePlans:
    def __init__(self, record: DiskRecord, lock: threading.RLock) -> None:
        self._record = record
        self._lock = lock
        self.folders: tuple[str, ...] = ()
        self.plans: dict[str, CoursePlan] = {}
        """root -> plan; replaced or updated only with the lock held."""

    def set_folders(self, paths: Iterable[str]) -> None:
        """Set the workspace folders; plans outside them are dropped. Lock held."""
        self.folders = tuple(dict.fromkeys(os.path.abspath(p) for p in paths))
        self.plans = {
            root: plan
            for root, plan in self.plans.items()
            if any(disk.inside(root, f) for f in self.folders)
        }

    # -- reading and planning (outside the lock) --------------------------------------

    def read_config(self, root: str) -> ConfigRead:
        """The course's configuration, the problems of its course file, and whether that
        file lists the lessons itself; an AI-Shifu course folder sets what it leaves."""
        course_file = os.path.join(root, COURSE_FILE)
        files = self._record.disk
        text: str | None = None
        config = CourseConfig()
        problems: tuple[ConfigProblem, ...] = ()
        if not files.exists(course_file):
            self._record.forget_read(course_file)
        else:
            text = self._record.read(course_file, root)
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
        max_bytes = self._record.max_file_bytes
        config = course_creator.configure(root, config, text, files, max_bytes)
        return ConfigRead(config, problems, course_creator.lessons_from_course_file(text))

    def plan_folder(self, folder: str) -> dict[str, CoursePlan]:
        """List a workspace folder and plan each course in it."""
        listing = self._record.list(folder)
        roots = course_creator.course_roots(listing.landmarks, self._record.disk)
        inner = planning.inner_folders(folder, self.folders)
        paths_of = planning.folder_courses(folder, listing.files, roots, inner)
        return {root: self._plan(root, paths) for root, paths in paths_of.items()}

    def plan_course(self, root: str) -> CoursePlan:
        """List one course root again (nested courses excluded)."""
        listing = self._record.list(root)
        found = course_creator.course_roots(listing.landmarks, self._record.disk)
        nested = [r for r in found if r != root] + planning.inner_folders(root, self.folders)
        return self._plan(root, planning.course_paths(root, listing.files, nested))

    def _plan(self, root: str, paths: Iterable[str]) -> CoursePlan:
        return planning.plan(root, paths, self.read_config(root), self._record.disk)

    def ensure(self, root: str | None) -> None:
        """Plan the course at `root` if it has no plan yet, reading its course file
        without holding the lock."""
        if root is None:
            return
        with self._lock:
            if root in self.plans:
                return
        plan = planning.unlisted(root, self.read_config(root))
        with self._lock:
            self.plans.setdefault(root, plan)

    def plan_for(self, root: str) -> CoursePlan:
        """The plan of the course at `root`, made if there is none. Callers hold the lock;
        `ensure` has made it beforehand, without, unless the course at `root` appeared
        meanwhile (a new course file found while re-assembling)."""
        plan = self.plans.get(root)
        if plan is None:
            plan = self.plans[root] = planning.unlisted(root, self.read_config(root))
        return plan

    def replan_files(
        self, root: str, changes: list[tuple[str, str]]
    ) -> tuple[CoursePlan, CoursePlan] | None:
        """The course at `root` re-planned for files created or deleted, without listing it
        again, and kept (the plans before and after); None when it must be listed again
        (`planning.replanned`, an AI-Shifu course folder, the folder reaching its
        document limit, or at it, where a deletion may let an unlisted file in)."""
        with self._lock:
            plan = self.plans.get(root)
            folder = self.folder_of(root)
            if plan is None or folder is None or plan.config.layout is not None:
                return None  # an AI-Shifu course folder's lessons come from structure.json
            listed = sum(len(p.paths) for r, p in self.plans.items() if disk.inside(r, folder))
        created = sum(kind == "created" for _, kind in changes)
        limit = self._record.max_documents
        if listed >= limit or listed + created > limit:
            return None
        replanned = planning.replanned(plan, changes, self._record.disk.is_regular_file)
        with self._lock:
            if replanned is None or self.plans.get(root) is not plan:
                return None
            self.plans[root] = replanned
        return plan, replanned

    def replace_under(self, folder: str, plans: Mapping[str, CoursePlan]) -> None:
        """`plans` instead of every plan under `folder`. Lock held."""
        for root in [r for r in self.plans if disk.inside(r, folder)]:
            del self.plans[root]
        self.plans.update(plans)

    # -- where a path belongs ---------------------------------------------------------

    def folder_of(self, path: str) -> str | None:
        return planning.innermost(path, self.folders)

    def owner(self, path: str) -> str | None:
        """The root of the planned course `path` lies in (the innermost)."""
        return planning.innermost(path, self.plans)

    def nested(self, root: str) -> list[str]:
        """The course roots and workspace folders strictly inside `root`."""
        with self._lock:
            inner = [r for r in self.plans if r != root and disk.inside(r, root)]
        return inner + planning.inner_folders(root, self.folders)

    def is_member(self, path: str, root: str) -> bool:
        with self._lock:
            return path_to_uri(path) in self.plan_for(root).members

    def root_of(self, path: str) -> str | None:
        """The course root of a file path, or None when it lies outside every folder.
        Callers hold the lock; `root_outside_lock` looks at the disk without it."""
        known = [r for r in self.plans if disk.inside(path, r)]
        return planning.nearest_root(path, self.folder_of(path), known, self._record.disk)

    def root_outside_lock(self, path: str) -> str | None:
        """`root_of`, the lock held only to read the folders and plans."""
        with self._lock:
            folder = self.folder_of(path)
            known = [r for r in self.plans if disk.inside(path, r)]
        return planning.nearest_root(path, folder, known, self._record.disk)
