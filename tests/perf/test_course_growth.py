"""Indexing a course and diagnosing every document grows linearly with its lessons.

The course has keys bound in every lesson, keys bound in every seventh lesson, a key per
lesson read from other lessons (before and after it is bound), near misses (some whose
pieces many keys share), unbound keys and reference documents that bind a lesson key.
The time per lesson, with the fixed cost of a 1-lesson course subtracted, must stay
within `BOUND` of that at 200 lessons (medians of 3; ratios only, so a loaded machine
slows every run alike), in one of `ATTEMPTS` rounds.
"""

from __future__ import annotations

import gc
import statistics
import time

from mfls.disk.memory import MemoryDisk
from mfls.features.diagnostics import document_diagnostics
from mfls.workspace.workspace import Workspace

ROOT = "/course"
EVERYWHERE = ("name", "goal", "level", "pace")
"""Keys every lesson binds and reads."""
BOUND = 1.6
SIZES = (200, 800, 3200)
ATTEMPTS = 3


def course_files(lessons: int) -> dict[str, str]:
    files = {
        f"{ROOT}/mfcourse.toml": (
            'name = "growth"\nlessons = ["l/*.md"]\nreferences = ["ref/*.md"]\n'
        )
    }
    for n in range(lessons):
        parts = [f"# Lesson {n}\n\n?[{{{{ topic {n} }}}} A | B]\n\n"]
        parts += [f"?[{{{{ {key} }}}} ...Tell me]\n\n" for key in EVERYWHERE]
        parts.append(f"?[{{{{ common {n % 7} }}}} Yes | No]\n\n")
        for j in range(6):
            other = (n * 7919 + j * 104729) % lessons
            key = EVERYWHERE[j % len(EVERYWHERE)]
            parts.append(
                f"Recall {{{{ topic {other} }}}} and {{{{ common {j} }}}}, {{{{ {key} }}}}.\n\n"
            )
        parts.append(
            f"Typo {{{{ topci {n} }}}}, {{{{ topic {n}abc }}}} (near crowded pieces) and "
            "{{ What would you like to learn? }}.\n\n"
        )
        files[f"{ROOT}/l/{n:05d}.md"] = "".join(parts)
    for r in range(max(1, lessons // 50)):
        files[f"{ROOT}/ref/{r:04d}.md"] = f"?[{{{{ name }}}} ...N]\n\n{{{{ topic {r} }}}}\n"
    return files


def check_course(disk: MemoryDisk) -> tuple[float, int]:
    """Seconds to index the course and diagnose every document; the diagnostics found."""
    gc.collect()
    started = time.perf_counter()
    workspace = Workspace(disk=disk)
    workspace.set_folders([ROOT])
    workspace.index_all()
    snapshot = workspace.snapshot
    found = sum(
        len(document_diagnostics(snapshot, uri))
        for course in snapshot.courses.values()
        for uri in course.docs
    )
    return time.perf_counter() - started, found


def median_time(lessons: int) -> tuple[float, int]:
    disk = MemoryDisk(course_files(lessons))
    runs = [check_course(disk) for _ in range(3)]
    return statistics.median(t for t, _ in runs), runs[0][1]


def per_lesson_times() -> dict[int, float]:
    fixed, _ = median_time(1)
    per_lesson: dict[int, float] = {}
    for lessons in SIZES:
        seconds, found = median_time(lessons)
        assert found >= 5 * lessons
        per_lesson[lessons] = max(seconds - fixed, 1e-9) / lessons
    return per_lesson


def test_course_check_time_per_lesson_stays_flat() -> None:
    """Compared up to `ATTEMPTS` times: one noisy round (a clean-clone run saw 2.0x once,
    1.2x-1.45x on the same code after) can fail it; growth fails every round."""
    seen = []
    for _ in range(ATTEMPTS):
        per_lesson = per_lesson_times()
        base = per_lesson[SIZES[0]]
        if all(per_lesson[n] <= BOUND * base for n in SIZES[1:]):
            return
        seen.append(", ".join(f"{n}: {v * 1e3:.3f} ms" for n, v in per_lesson.items()))
    raise AssertionError(f"time per lesson grows: {seen}")
