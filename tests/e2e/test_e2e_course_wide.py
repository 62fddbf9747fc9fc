"""Course-wide problems: `workspace/diagnostic` for pull clients, published diagnostics of
closed documents for push clients, and the `mfls.courseInfo` command."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from e2e_session import Session, capabilities, session, uri_of, wait_until, write_files
from lsprotocol import types as t

import mfls

COURSE = {
    "mfcourse.toml": 'name = "Course"\nlessons = ["lessons/*.md"]\nreferences = ["ref/*.md"]\n'
    "unknown-field = 1\n",
    "lessons/01.md": "# One\n\n?[{{ colour }} Red | Blue]\n",
    "lessons/02.md": "Your colour: {{ colour }}.\n",
    "lessons/03.md": "Your size: {{ size }}.\n",
    "lessons/04.md": "Your shape: {{ shape }}.\n",
    "ref/glossary.md": "See {{ colour }} and {{ shape }}.\n",
}
# 01 binds "size" instead of "colour", and gets a problem of its own.
EDIT = "?[{{ size }} S | M]\n\n{{ }}\n"


def codes(items: object) -> list[str]:
    return sorted(str(d.code) for d in items)  # type: ignore[attr-defined]


async def pull_workspace(s: Session, previous: dict[str, str] | None = None) -> dict[str, object]:
    report = await s.client.workspace_diagnostic_async(
        t.WorkspaceDiagnosticParams(
            previous_result_ids=[
                t.PreviousResultId(uri=uri, value=value) for uri, value in (previous or {}).items()
            ]
        )
    )
    return {item.uri: item for item in report.items}


async def test_workspace_diagnostic_reports_every_member_and_the_course_file(
    tmp_path: Path,
) -> None:
    write_files(tmp_path, COURSE)
    async with session(capabilities("visual-studio-code", pull=True), [tmp_path]) as s:
        assert s.result is not None
        provider = s.result.capabilities.diagnostic_provider
        assert provider is not None and provider.workspace_diagnostics
        await s.indexed()
        reports = await pull_workspace(s)
        names = [*(f"lessons/0{n}.md" for n in range(1, 5)), "ref/glossary.md"]
        toml = uri_of(tmp_path / "mfcourse.toml")
        assert list(reports) == [uri_of(tmp_path / n) for n in names] + [toml]
        assert all(r.kind == "full" for r in reports.values())  # type: ignore[attr-defined]
        by_name = {n: reports[uri_of(tmp_path / n)] for n in names}
        assert codes(by_name["lessons/03.md"].items) == ["unbound-reference"]  # type: ignore[attr-defined]
        assert codes(by_name["ref/glossary.md"].items) == ["unbound-reference"]  # type: ignore[attr-defined]
        assert not by_name["lessons/01.md"].items  # type: ignore[attr-defined]
        [field] = reports[toml].items  # type: ignore[attr-defined]
        assert field.code == "course-file-invalid" and field.range.start.line == 3

        # Sent back, every result id still holds.
        ids = {uri: r.result_id for uri, r in reports.items()}  # type: ignore[attr-defined]
        again = await pull_workspace(s, ids)
        assert {r.kind for r in again.values()} == {"unchanged"}  # type: ignore[attr-defined]

        # An edit of an open lesson changes closed ones: only those are full again (04
        # reads "shape", unbound before and after).
        opened = s.open(tmp_path / "lessons/01.md")
        s.change(opened, [t.TextDocumentContentChangeWholeDocument(text=EDIT)])
        changed = await pull_workspace(s, ids)
        full = {uri for uri, r in changed.items() if r.kind == "full"}  # type: ignore[attr-defined]
        names = ["lessons/01.md", "lessons/02.md", "lessons/03.md", "ref/glossary.md"]
        assert full == {uri_of(tmp_path / n) for n in names}
        assert changed[opened].version == 2  # type: ignore[attr-defined]
        assert codes(changed[uri_of(tmp_path / "lessons/02.md")].items) == ["unbound-reference"]  # type: ignore[attr-defined]


async def test_workspace_diagnostic_leaves_closed_documents_out_when_told(
    tmp_path: Path,
) -> None:
    write_files(tmp_path, COURSE)
    settings = {"diagnostics": {"closedDocuments": False}}
    caps = capabilities("visual-studio-code", pull=True)
    async with session(caps, [tmp_path], initialization_options=settings) as s:
        await s.indexed()
        s.open(tmp_path / "lessons/03.md")
        reports = await pull_workspace(s)
        with_items = {uri for uri, r in reports.items() if r.items}  # type: ignore[attr-defined]
        assert with_items == {
            uri_of(tmp_path / "lessons/03.md"),
            uri_of(tmp_path / "mfcourse.toml"),
        }


async def test_push_clients_get_closed_documents_only_when_they_change(tmp_path: Path) -> None:
    write_files(tmp_path, COURSE)
    async with session(
        capabilities("visual-studio-code"),
        [tmp_path],
        initialization_options={"diagnosticDelay": 0},
    ) as s:
        await s.indexed()
        lesson2, lesson3 = uri_of(tmp_path / "lessons/02.md"), uri_of(tmp_path / "lessons/03.md")
        lesson4 = uri_of(tmp_path / "lessons/04.md")
        glossary, toml = uri_of(tmp_path / "ref/glossary.md"), uri_of(tmp_path / "mfcourse.toml")
        initial = {lesson3, lesson4, glossary, toml}
        await wait_until(lambda: initial <= {p.uri for p in s.published})
        # Closed documents with nothing to say are not published at all.
        assert {p.uri for p in s.published} == initial
        assert all(p.version is None for p in s.published)

        # An edit that moves the binding of "colour" from 01 to "size": 01 first, then 02
        # and the glossary (colour now unbound) and 03 (size now bound); not 04, unchanged.
        s.published.clear()
        opened = s.open(tmp_path / "lessons/01.md")
        await wait_until(lambda: any(p.uri == opened for p in s.published))
        s.published.clear()
        s.change(opened, [t.TextDocumentContentChangeWholeDocument(text=EDIT)])
        await wait_until(lambda: {lesson2, lesson3, glossary} <= {p.uri for p in s.published})
        await asyncio.sleep(0.3)
        order = [p.uri for p in s.published]
        assert order[0] == opened, order
        assert sorted(order[1:]) == sorted([lesson2, lesson3, glossary]), order
        assert codes(s.client.diagnostics[lesson2]) == ["unbound-reference"]
        assert not s.client.diagnostics[lesson3]

        # Closing the edited lesson: its diagnostics are those of the file on disk (clean).
        s.published.clear()
        s.close(opened)
        await wait_until(lambda: lesson3 in {p.uri for p in s.published})
        await asyncio.sleep(0.3)
        assert codes(s.client.diagnostics[lesson3]) == ["unbound-reference"]
        assert not s.client.diagnostics[lesson2]
        assert codes(s.client.diagnostics[opened]) == []  # the file on disk is clean


async def test_push_clients_can_turn_closed_documents_off(tmp_path: Path) -> None:
    write_files(tmp_path, COURSE)
    options = {"diagnosticDelay": 0, "diagnostics": {"closedDocuments": False}}
    async with session(
        capabilities("visual-studio-code"), [tmp_path], initialization_options=options
    ) as s:
        await s.indexed()
        opened = s.open(tmp_path / "lessons/03.md")
        await wait_until(lambda: opened in s.client.diagnostics)
        await asyncio.sleep(0.3)
        assert {p.uri for p in s.published} == {opened, uri_of(tmp_path / "mfcourse.toml")}


async def test_course_info_counts_the_course(tmp_path: Path) -> None:
    write_files(tmp_path, COURSE)
    async with session(capabilities("visual-studio-code", pull=True), [tmp_path]) as s:
        await s.indexed()
        assert s.result is not None
        provider = s.result.capabilities.execute_command_provider
        assert provider is not None and "mfls.courseInfo" in provider.commands
        for asked in ("lessons/02.md", "mfcourse.toml"):
            info = await s.client.workspace_execute_command_async(
                t.ExecuteCommandParams(
                    command="mfls.courseInfo", arguments=[uri_of(tmp_path / asked)]
                )
            )
            assert info["name"] == "Course"
            assert info["root"] == str(tmp_path)
            assert info["courseFile"] == uri_of(tmp_path / "mfcourse.toml")
            # The questions: colour (asked), size and shape (read, unbound).
            assert (info["lessons"], info["references"], info["questions"]) == (4, 1, 3)
            # size in 03, shape in 04 and the glossary unbound; the course file's field.
            assert (info["errors"], info["warnings"], info["problems"]) == (0, 4, 4)
            summary = "4 lessons · 1 reference document · 3 questions · 4 problems"
            assert info["summary"] == summary
            assert info["server"] == mfls.__file__
            assert info["python"] == sys.executable

        with pytest.raises(Exception, match="no MarkdownFlow course"):
            await s.client.workspace_execute_command_async(
                t.ExecuteCommandParams(
                    command="mfls.courseInfo", arguments=[uri_of(tmp_path.parent / "x.md")]
                )
            )
