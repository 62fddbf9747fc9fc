"""Course-wide problems, in process: `workspace/diagnostic` for pull clients, published
diagnostics of closed documents for push clients, and the `mfls.courseInfo` command.
Moved from tests/e2e/test_e2e_course_wide.py."""

from __future__ import annotations

import sys
from typing import Any

import mfls
from tests.kit.memory_client import CourseClient, vscode_capabilities

COURSE = """
    //- mfcourse.toml
    name = "Course"
    lessons = ["lessons/*.md"]
    references = ["ref/*.md"]
    unknown-field = 1
    //- lessons/01.md closed
    # One

    ?[{{ colour }} Red | Blue]
    //- lessons/02.md closed
    Your colour: {{ colour }}.
    //- lessons/03.md closed
    Your size: {{ size }}.
    //- lessons/04.md closed
    Your shape: {{ shape }}.
    //- ref/glossary.md closed
    See {{ colour }} and {{ shape }}.
    """
# 01 binds "size" instead of "colour", and gets a problem of its own.
EDIT = "?[{{ size }} S | M]\n\n{{ }}\n"
MEMBERS = ["lessons/01.md", "lessons/02.md", "lessons/03.md", "lessons/04.md", "ref/glossary.md"]


def codes(items: list[dict[str, Any]]) -> list[str]:
    return sorted(str(d["code"]) for d in items)


def pull_workspace(course: CourseClient, previous: dict[str, str] | None = None) -> Any:
    """The workspace report's items by path, in the order sent."""
    ids = [{"uri": uri, "value": value} for uri, value in (previous or {}).items()]
    report = course.call("workspace/diagnostic", {"previousResultIds": ids})
    return {course.path_of(item["uri"]): item for item in report["items"]}


def replace_all(course: CourseClient, path: str, text: str) -> None:
    course.versions[path] += 1
    course.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": course.uri(path), "version": course.versions[path]},
            "contentChanges": [{"text": text}],
        },
    )


def test_workspace_diagnostic_reports_every_member_and_the_course_file() -> None:
    course = CourseClient(COURSE, capabilities=vscode_capabilities(pull=True))
    assert course.initialized["capabilities"]["diagnosticProvider"]["workspaceDiagnostics"]
    reports = pull_workspace(course)
    assert list(reports) == [*MEMBERS, "mfcourse.toml"]
    assert {r["kind"] for r in reports.values()} == {"full"}
    assert codes(reports["lessons/03.md"]["items"]) == ["unbound-reference"]
    assert codes(reports["ref/glossary.md"]["items"]) == ["unbound-reference"]
    assert reports["lessons/01.md"]["items"] == []
    (field,) = reports["mfcourse.toml"]["items"]
    assert field["code"] == "course-file-invalid" and field["range"]["start"]["line"] == 3

    # Sent back, every result id still holds.
    ids = {course.uri(path): r["resultId"] for path, r in reports.items()}
    again = pull_workspace(course, ids)
    assert {r["kind"] for r in again.values()} == {"unchanged"}

    # An edit of an open lesson changes closed ones: only those are full again (04 reads
    # "shape", unbound before and after).
    course.open("lessons/01.md")
    replace_all(course, "lessons/01.md", EDIT)
    changed = pull_workspace(course, ids)
    full = {path for path, r in changed.items() if r["kind"] == "full"}
    assert full == {"lessons/01.md", "lessons/02.md", "lessons/03.md", "ref/glossary.md"}
    assert changed["lessons/01.md"]["version"] == 2
    assert codes(changed["lessons/02.md"]["items"]) == ["unbound-reference"]


def test_workspace_diagnostic_leaves_closed_documents_out_when_told() -> None:
    course = CourseClient(
        COURSE,
        capabilities=vscode_capabilities(pull=True),
        initialization_options={"diagnostics": {"closedDocuments": False}},
    )
    course.open("lessons/03.md")
    reports = pull_workspace(course)
    assert {path for path, r in reports.items() if r["items"]} == {
        "lessons/03.md",
        "mfcourse.toml",
    }


def published_paths(course: CourseClient) -> list[str]:
    return [
        course.path_of(m["params"]["uri"])
        for m in course.received
        if m.get("method") == "textDocument/publishDiagnostics"
    ]


def test_push_clients_get_closed_documents_only_when_they_change() -> None:
    course = CourseClient(COURSE, initialization_options={"diagnosticDelay": 0})
    course.settle()
    # Closed documents with nothing to say are not published at all.
    initial = {"lessons/03.md", "lessons/04.md", "ref/glossary.md", "mfcourse.toml"}
    assert set(published_paths(course)) == initial
    assert all("version" not in p for p in course.published().values())

    # An edit that moves the binding of "colour" from 01 to "size": 01 first, then 02 and
    # the glossary (colour now unbound) and 03 (size now bound); not 04, unchanged.
    course.open("lessons/01.md")
    course.settle()
    assert published_paths(course)[len(initial) :] == ["lessons/01.md"]
    course.received.clear()
    replace_all(course, "lessons/01.md", EDIT)
    course.settle()
    order = published_paths(course)
    assert order[0] == "lessons/01.md", order
    assert sorted(order[1:]) == ["lessons/02.md", "lessons/03.md", "ref/glossary.md"], order
    published = course.published()
    assert codes(published["lessons/02.md"]["diagnostics"]) == ["unbound-reference"]
    assert published["lessons/03.md"]["diagnostics"] == []

    # Closing the edited lesson: its diagnostics are those of the file on disk (clean).
    course.received.clear()
    course.notify("textDocument/didClose", {"textDocument": {"uri": course.uri("lessons/01.md")}})
    course.settle()
    published = course.published()
    assert codes(published["lessons/03.md"]["diagnostics"]) == ["unbound-reference"]
    assert published["lessons/02.md"]["diagnostics"] == []
    assert published["lessons/01.md"]["diagnostics"] == []  # the file on disk is clean


def test_push_clients_can_turn_closed_documents_off() -> None:
    options = {"diagnosticDelay": 0, "diagnostics": {"closedDocuments": False}}
    course = CourseClient(COURSE, initialization_options=options)
    course.open("lessons/03.md")
    course.settle()
    assert set(published_paths(course)) == {"lessons/03.md", "mfcourse.toml"}


def test_course_info_counts_the_course() -> None:
    course = CourseClient(COURSE, capabilities=vscode_capabilities(pull=True))
    commands = course.initialized["capabilities"]["executeCommandProvider"]["commands"]
    assert "mfls.courseInfo" in commands
    for asked in ("lessons/02.md", "mfcourse.toml"):
        info = course.call(
            "workspace/executeCommand",
            {"command": "mfls.courseInfo", "arguments": [course.uri(asked)]},
        )
        assert info["name"] == "Course"
        assert info["root"] == str(course.root)
        assert info["courseFile"] == course.uri("mfcourse.toml")
        # The questions: colour (asked), size and shape (read, unbound).
        assert (info["lessons"], info["references"], info["questions"]) == (4, 1, 3)
        # size in 03, shape in 04 and the glossary unbound; the course file's field.
        assert (info["errors"], info["warnings"], info["problems"]) == (0, 4, 4)
        summary = "4 lessons · 1 reference document · 3 questions · 4 problems"
        assert info["summary"] == summary
        assert info["server"] == mfls.__file__
        assert info["python"] == sys.executable

    outside = {"command": "mfls.courseInfo", "arguments": [course.uri("../x.md")]}
    error = course.answer("workspace/executeCommand", outside)["error"]
    assert "no MarkdownFlow course" in error["message"]
