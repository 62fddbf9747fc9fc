"""Course plans as pure functions of what was listed and read: which files make a course,
in which order, and which course a path belongs to.

`CoursePlan` is a course as found on disk (root, configuration, listed paths, ordered
members). Nothing here reads a file: the listing and the course file's reading
(`ConfigRead`) are given; the `Disk` some functions take is only asked whether a landmark
file is there (`course_creator`). Planning is linear in files x wildcard globs
(`globs.GlobSet`; `tests/perf/test_planning_growth.py`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import NamedTuple

from mfls import disk
from mfls.disk import Disk
from mfls.workspace import course_creator
from mfls.workspace.config import ConfigProblem, CourseConfig
from mfls.workspace.course_root import nearest_course_root
from mfls.workspace.globs import glob_set
from mfls.workspace.index import DocKind, relative_path
from mfls.workspace.uris import path_to_uri, uri_to_path

Members = Mapping[str, tuple[str, DocKind, int]]
"""uri -> (path, kind, order)"""


class ConfigRead(NamedTuple):
    """A course file as read: the configuration, its problems, whether it lists the
    lessons itself."""

    config: CourseConfig
    problems: tuple[ConfigProblem, ...]
    own_lessons: bool


class CoursePlan(NamedTuple):
    """A course as found on disk: its root, configuration and ordered members."""

    root: str
    config: CourseConfig
    problems: tuple[ConfigProblem, ...]
    paths: tuple[str, ...]
    members: Members

    def classify(self, path: str) -> tuple[DocKind, int]:
        """Kind and order of a document of this course that no lesson glob lists."""
        relative = relative_path(path, self.root)
        if self.config.layout is not None:  # only the folder's listed lessons are lessons
            return "reference", len(self.members)
        if glob_set(self.config.references).any(relative):
            return "reference", len(self.members)
        return "lesson", len(self.members)


def members(
    root: str, config: CourseConfig, paths: Iterable[str], uris: Mapping[str, str] | None = None
) -> Members:
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
    ordered: dict[str, tuple[str, DocKind, int]] = {}
    known = uris or {}
    for index, _, path in found:
        uri = known.get(path) or path_to_uri(path)
        if uri not in ordered:
            kind: DocKind = "reference" if index == last else "lesson"
            ordered[uri] = (path, kind, len(ordered))
    return MappingProxyType(ordered)


def plan(root: str, paths: Iterable[str], read: ConfigRead, files: Disk) -> CoursePlan:
    """The plan of the course at `root` from its listed `paths` and its course file."""
    config, problems, own_lessons = read
    paths = tuple(paths)
    if config.layout is not None and not own_lessons:
        config, listed = course_creator.resolve(config, paths)
        return CoursePlan(root, config, problems, paths, MappingProxyType(listed))
    if config.layout is not None:
        config, _ = course_creator.resolve(config, paths)  # its diagnostics still count
    ordered = course_creator.prompt_first(root, members(root, config, paths), files)
    return CoursePlan(root, config, problems, paths, ordered)


def unlisted(root: str, read: ConfigRead) -> CoursePlan:
    """The plan of a course not listed yet: its configuration, no members."""
    return CoursePlan(root, read.config, read.problems, (), MappingProxyType({}))


def folder_courses(
    folder: str, files: Iterable[str], roots: Iterable[str], inner: Iterable[str]
) -> dict[str, list[str]]:
    """The listed `files` of a workspace folder by course root (the innermost holding
    each): `roots` found in the listing and the folder itself, none under the `inner`
    workspace folders (courses of their own)."""
    inside = tuple(inner)

    def outside_inner(path: str) -> bool:
        return not any(disk.inside(path, f) for f in inside)

    found = {r for r in roots if outside_inner(r)} | {folder}
    paths_of: dict[str, list[str]] = {r: [] for r in sorted(found, key=len, reverse=True)}
    for path in filter(outside_inner, files):
        for root in paths_of:
            if disk.inside(path, root):
                paths_of[root].append(path)
                break
    return paths_of


def course_paths(root: str, files: Iterable[str], nested: Iterable[str]) -> list[str]:
    """The listed `files` of the course at `root`, those of `nested` courses left out."""
    inner = tuple(nested)
    return [p for p in files if not any(disk.inside(p, n) for n in inner)]


def replanned(
    plan: CoursePlan,
    changes: Iterable[tuple[str, str]],
    is_regular_file: Callable[[str], bool],
) -> CoursePlan | None:
    """`plan` after files created or deleted (`(path, kind)`, in order), without listing
    the course again; None when it must be listed again (a new file in a folder no listed
    file lies in, or no regular file; a deleted path never listed)."""
    paths = dict.fromkeys(plan.paths)
    walked = {plan.root} | {os.path.dirname(p) for p in paths}
    for path, kind in changes:
        if kind == "deleted" and path in paths:
            del paths[path]
        elif kind != "created" or os.path.dirname(path) not in walked:
            return None
        elif path not in paths:
            if not is_regular_file(path):
                return None
            paths[path] = None
    uris = {known: uri for uri, (known, _, _) in plan.members.items()}
    ordered = members(plan.root, plan.config, paths, uris)
    return plan._replace(paths=tuple(paths), members=ordered)


def innermost(path: str, roots: Iterable[str]) -> str | None:
    """The innermost of `roots` holding `path` (None: none does)."""
    holding = [root for root in roots if disk.inside(path, root)]
    return max(holding, key=len) if holding else None


def inner_folders(directory: str, folders: Iterable[str]) -> list[str]:
    """The `folders` strictly inside `directory`: they are courses of their own."""
    return [f for f in folders if f != directory and disk.inside(f, directory)]


def first_roots(roots: Iterable[str], uris: Iterable[str]) -> set[str]:
    """The `roots` of the courses holding `uris` (the open and preferred documents)."""
    candidates = tuple(roots)
    found: set[str] = set()
    for uri in uris:
        path = uri_to_path(uri)
        root = innermost(path, candidates) if path is not None else None
        if root is not None:
            found.add(root)
    return found


def nearest_root(path: str, folder: str | None, known: list[str], files: Disk) -> str | None:
    """The innermost of `known`, of a course file's folder found on disk above `path`
    inside `folder`, and of `folder` itself (None without a folder)."""
    if folder is None:
        return None
    nearest = nearest_course_root(os.path.dirname(path), folder, files)
    return max(known + ([nearest] if nearest else []) + [folder], key=len)
