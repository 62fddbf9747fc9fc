"""A lesson's learner-page problems and their fixes cost the same per binding in a crowded
lesson as in a small one: each rename fix names a new key by asking the course whether a
name is taken, not by collecting every key of the course (which made a keystroke in the
playground's 50 KB lesson of question-text bindings 466 ms).

Timed: a lesson's diagnostics, then the code actions over the whole lesson, on a course
whose every binding is a question-text key the page cannot read and is read once (unbound
elsewhere: an `unbound-reference.page` advice each). The CPU time per binding, with a
1-binding lesson's subtracted, must stay within `BOUND` of that at `SMALL` bindings when
the lesson has `LARGE`: best of `RUNS`, compared up to `ATTEMPTS` times. Collecting the
course's keys per fix or per advice is quadratic: 10x at `LARGE`.
"""

from __future__ import annotations

import gc
import time

import pytest

from mfls.disk.memory import MemoryDisk
from mfls.features.code_actions import code_actions
from mfls.features.diagnostics import document_diagnostics
from mfls.workspace.workspace import Workspace

ROOT = "/course"
LESSON = f"{ROOT}/01.md"
URI = f"file://{LESSON}"
BOUND = 2.0
RUNS = 3
ATTEMPTS = 3
SMALL, LARGE = 100, 1000


def lesson(bindings: int) -> str:
    lines = []
    for n in range(bindings):
        lines.append(f"?[%{{{{What is your goal number {n}?}}}} Python | JavaScript | Go]\n")
        lines.append(f"Use {{{{What is your goal number {n}?}}}} and {{{{Missing {n}?}}}}.\n\n")
    return "".join(lines)


def workspace_of(bindings: int) -> Workspace:
    disk = MemoryDisk(
        {
            f"{ROOT}/mfcourse.toml": 'host = "ai-shifu"\nlessons = ["01.md"]\n',
            LESSON: lesson(bindings),
        }
    )
    workspace = Workspace(disk=disk)
    workspace.set_folders([ROOT])
    workspace.index_all()
    return workspace


def seconds(bindings: int) -> float:
    workspace = workspace_of(bindings)
    snapshot = workspace.snapshot
    gc.collect()
    began = time.process_time()
    found = document_diagnostics(snapshot, URI)
    actions = code_actions(snapshot, URI, 0, len(lesson(bindings)), course_wide=False)
    took = time.process_time() - began
    codes = [d.code for d in found]
    assert codes.count("page-unreadable-binding") == bindings
    assert codes.count("unbound-reference") == bindings
    assert len(actions) >= bindings
    return took


def test_page_problems_and_fixes_cost_per_binding_stays_flat() -> None:
    seen = []
    for _ in range(ATTEMPTS):
        fixed, small, large = (min(seconds(n) for _ in range(RUNS)) for n in (1, SMALL, LARGE))
        per_small, per_large = (small - fixed) / SMALL, (large - fixed) / LARGE
        if per_large <= BOUND * max(per_small, 1e-7):
            return
        seen.append(f"{per_large * 1e6:.0f} µs against {per_small * 1e6:.0f} µs")
    pytest.fail(f"per binding at {LARGE} bindings against {SMALL}: {seen}")
