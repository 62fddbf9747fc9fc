"""Planning a course grows linearly with its lessons, when its course file lists every
lesson as `mfls unpack` writes it (one glob per lesson) as when one glob holds them.

Timed: indexing the course (listing, reading, planning, assembling; documents are not
scanned, so planning is not hidden behind the scanner) and re-planning it after one new
file, as the editor's watcher reports it. The CPU time per lesson, with the fixed cost
of a 1-lesson course subtracted, must stay within `BOUND` of that at 200 lessons when the
course has 2,000: best of `RUNS` (a loaded machine slows some runs, never speeds one up),
and the comparison made up to `ATTEMPTS` times, as one noisy round can fail it. Quadratic
planning (every file against every glob) is 10x at 2,000, and fails every attempt.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

import pytest

from mfls.disk.memory import MemoryDisk
from mfls.workspace.loading import KeyFilteredDocument
from mfls.workspace.workspace import Workspace

ROOT = "/course"
BOUND = 2.0
RUNS = 3
ATTEMPTS = 3
SMALL, LARGE = 200, 2000


def lesson_path(n: int) -> str:
    return f"{n // 100:03d}-chapter/{n % 100:03d}-lesson {n}.md"


def course_files(lessons: int, listed: bool) -> dict[str, str]:
    names = [lesson_path(n) for n in range(lessons)]
    globs = ", ".join(f'"{name}"' for name in names) if listed else '"**/*.md"'
    files = {
        f"{ROOT}/mfcourse.toml": f'host = "ai-shifu"\nlessons = [{globs}]\n'
        'references = ["prompts/**/*.md"]\n'
    }
    for n, name in enumerate(names):
        files[f"{ROOT}/{name}"] = f"# Lesson {n}\n\n?[%{{{{ answer {n} }}}} A | B]\n"
    files[f"{ROOT}/prompts/course.md"] = "You are a tutor.\n"
    return files


def indexed(files: dict[str, str]) -> tuple[Workspace, MemoryDisk]:
    disk = MemoryDisk(files)
    workspace = Workspace(
        disk=disk, document_factory=lambda text, version: KeyFilteredDocument(text, ())
    )
    workspace.set_folders([ROOT])
    workspace.index_all()
    return workspace, disk


def index_seconds(files: dict[str, str]) -> float:
    began = time.process_time()
    indexed(files)
    return time.process_time() - began


def replan_seconds(files: dict[str, str]) -> float:
    workspace, disk = indexed(files)
    new = f"{ROOT}/{lesson_path(0).split('/')[0]}/999-new.md"
    disk.put(new, "# New\n")
    began = time.process_time()
    workspace.files_changed([(new, "created")])
    took = time.process_time() - began
    assert workspace.snapshot.courses[ROOT].docs  # the course survived
    return took


def best(measure: Callable[[dict[str, str]], float], files: dict[str, str]) -> float:
    gc.collect()
    return min(measure(files) for _ in range(RUNS))


@pytest.mark.parametrize("listed", [True, False], ids=["listed-globs", "one-glob"])
@pytest.mark.parametrize("measure", [index_seconds, replan_seconds], ids=["index", "re-plan"])
def test_planning_cost_per_lesson_stays_flat(
    measure: Callable[[dict[str, str]], float], listed: bool
) -> None:
    courses = [course_files(size, listed) for size in (1, SMALL, LARGE)]
    seen = []
    for _ in range(ATTEMPTS):
        fixed, small, large = (best(measure, files) for files in courses)
        per_small, per_large = (small - fixed) / SMALL, (large - fixed) / LARGE
        if per_large <= BOUND * max(per_small, 1e-7):
            return
        seen.append(f"{per_large * 1e6:.1f} µs against {per_small * 1e6:.1f} µs")
    pytest.fail(f"{measure.__name__}: per lesson at {LARGE} lessons against {SMALL}: {seen}")


def test_one_new_file_is_planned_as_a_new_listing_plans_it() -> None:
    """A re-plan after one file event (without listing the course again) gives the
    members, kinds and order a fresh indexing gives."""
    files = course_files(300, listed=False)
    workspace, disk = indexed(files)
    events = [
        (f"{ROOT}/000-chapter/050-inserted.md", "created"),
        (f"{ROOT}/prompts/late.md", "created"),
        (f"{ROOT}/{lesson_path(7)}", "deleted"),
        (f"{ROOT}/002-chapter/notes.txt", "created"),
    ]
    for path, kind in events:
        if kind == "created":
            disk.put(path, "?[%{{ late }} A | B]\n")
            files[path] = "?[%{{ late }} A | B]\n"
        else:
            disk.remove(path)
            del files[path]
        workspace.files_changed([(path, kind)])
    fresh, _ = indexed(files)

    def members(found: Workspace) -> list[tuple[str, str, int]]:
        course = found.snapshot.courses[ROOT]
        return sorted((e.uri, e.kind, e.order) for e in course.docs.values())

    assert members(workspace) == members(fresh)
    assert any(uri.endswith("050-inserted.md") for uri, _, _ in members(workspace))


def test_a_storm_of_file_events_is_planned_once_as_a_new_listing_plans_it() -> None:
    """1,000 files created and 500 deleted, reported in one notification, re-plan the
    course once (not once per file) and give what a fresh indexing gives."""
    files = course_files(1000, listed=False)
    workspace, disk = indexed(files)
    events = []
    for n in range(1000):
        path = f"{ROOT}/{lesson_path(n).split('/')[0]}/new {n}.md"
        disk.put(path, "# New\n")
        files[path] = "# New\n"
        events.append((path, "created"))
    for n in range(0, 1000, 2):
        path = f"{ROOT}/{lesson_path(n)}"
        disk.remove(path)
        del files[path]
        events.append((path, "deleted"))
    began = time.process_time()
    workspace.files_changed(events)
    took = time.process_time() - began
    fresh, _ = indexed(files)
    course, expected = workspace.snapshot.courses[ROOT], fresh.snapshot.courses[ROOT]
    assert len(course.docs) == 1000 + 500 + 1
    assert sorted((e.uri, e.kind, e.order) for e in course.docs.values()) == sorted(
        (e.uri, e.kind, e.order) for e in expected.docs.values()
    )
    assert took < 10, f"{took:.1f} s of CPU for one notification of 1,500 events"
