"""`CourseGate`: a document's course is ready when no indexing of the folders is coming
or under way, or once the worker has indexed that course; `wait` is bounded."""

from __future__ import annotations

import asyncio
from pathlib import Path

from mfls.lsp.course_gate import CourseGate
from mfls.workspace.index import WorkspaceSnapshot
from mfls.workspace.uris import path_to_uri
from mfls.workspace.workspace import Workspace


def two_courses(root: Path) -> WorkspaceSnapshot:
    for name in ("a", "b"):
        (root / name).mkdir()
        (root / name / "mfcourse.toml").write_text(f'name = "{name}"\n')
        (root / name / "one.md").write_text("?[{{ k }} A | B]\n")
    workspace = Workspace()
    workspace.set_folders([str(root)])
    workspace.index_all()
    return workspace.snapshot


async def test_ready_follows_the_indexing_of_each_course(tmp_path: Path) -> None:
    snapshot = two_courses(tmp_path)
    a, b = (path_to_uri(str(tmp_path / name / "one.md")) for name in "ab")
    gate = CourseGate()
    assert gate.ready(snapshot, a) and gate.ready(snapshot, None)
    gate.expect()  # `initialize` saw folders
    assert not gate.ready(snapshot, a) and not gate.ready(snapshot, None)
    gate.begin()
    gate.courses_known([str(tmp_path / "b")])
    assert gate.ready(snapshot, b)
    assert not gate.ready(snapshot, a)
    assert not gate.ready(snapshot, None)  # every course: not before the end
    gate.end(snapshot)
    assert gate.ready(snapshot, a) and gate.ready(snapshot, None)
    gate.begin()  # indexing again (folders changed): known courses stay ready
    assert gate.ready(snapshot, a)
    assert not gate.ready(snapshot, path_to_uri(str(tmp_path / "elsewhere.md")))


async def test_wait_returns_when_the_course_is_known_or_the_bound_passes(tmp_path: Path) -> None:
    snapshot = two_courses(tmp_path)
    a = path_to_uri(str(tmp_path / "a" / "one.md"))
    gate = CourseGate()
    gate.begin()
    loop = asyncio.get_running_loop()
    began = loop.time()
    assert not await gate.wait(lambda: gate.ready(snapshot, a), 0.2)
    assert loop.time() - began >= 0.19
    loop.call_later(0.05, gate.courses_known, [str(tmp_path / "a")])
    began = loop.time()
    assert await gate.wait(lambda: gate.ready(snapshot, a), 5.0)
    assert loop.time() - began < 1.0
