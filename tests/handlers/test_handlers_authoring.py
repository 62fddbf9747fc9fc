"""Code lenses, document links and `?[` snippets, in process. Moved from
tests/e2e/test_e2e_authoring.py."""

from __future__ import annotations

from typing import Any

import pytest

from tests.kit.course import expect
from tests.kit.memory_client import CourseClient, render_completion, vscode_capabilities

COURSE = """
    //- mfcourse.toml
    lessons = ["a.md", "*.md"]
    //- a.md
    # A

    ?[{{ name }} ...your name]

    Hi {{ name }}, 😀 {{ name }}
    //- b.md
    Bye {{ name }}

    Pick ?[$0
    """


def lenses(course: CourseClient, path: str) -> Any:
    return course.call("textDocument/codeLens", {"textDocument": {"uri": course.uri(path)}})


def test_code_lens_counts_and_carries_the_reads() -> None:
    course = CourseClient(COURSE)
    assert "codeLensProvider" in course.initialized["capabilities"]
    a, b = course.uri("a.md"), course.uri("b.md")
    assert lenses(course, "a.md") == [
        {
            "range": {"start": {"line": 2, "character": 5}, "end": {"line": 2, "character": 9}},
            "command": {
                "title": "asked here · read 3 times in 2 lessons",
                "command": "mfls.showReferences",
                "arguments": [
                    a,
                    {"line": 2, "character": 5},
                    [
                        # UTF-16 columns: the emoji counts two (20 in code points)
                        {"uri": a, "range": _range(4, 6, 4, 10)},
                        {"uri": a, "range": _range(4, 21, 4, 25)},
                        {"uri": b, "range": _range(0, 7, 0, 11)},
                    ],
                ],
            },
        }
    ]
    commands = course.initialized["capabilities"].get("executeCommandProvider", {})
    assert "mfls.showReferences" not in commands.get("commands", [])


def test_document_links_of_the_course_file() -> None:
    course = CourseClient(COURSE)
    links = course.call(
        "textDocument/documentLink", {"textDocument": {"uri": course.uri("mfcourse.toml")}}
    )
    a = course.uri("a.md")
    assert links == [
        {"range": _range(0, 11, 0, 17), "target": a, "tooltip": "Open a.md"},
        {
            "range": _range(0, 19, 0, 25),
            "target": a,
            "tooltip": "2 files: a.md, b.md. Opens the first.",
        },
    ]


@pytest.mark.parametrize("snippets", [True, False])
def test_snippets_after_the_opener(snippets: bool) -> None:
    caps = vscode_capabilities()
    caps["textDocument"]["completion"]["completionItem"]["snippetSupport"] = snippets
    course = CourseClient(COURSE, capabilities=caps)
    trigger = {"triggerKind": 2, "triggerCharacter": "["}
    result = course.call("textDocument/completion", {**course.at(), "context": trigger})
    kind = "snippets" if snippets else "plain"
    expect(render_completion(result), f"authoring/interaction_{kind}.txt")
    assert [i["label"] for i in result["items"]] == ["single choice", "multiple choice", "input"]
    single = result["items"][0]
    assert single["kind"] == 15  # snippet
    assert single["textEdit"]["range"] == _range(2, 7, 2, 7)
    if snippets:
        assert single["insertTextFormat"] == 2
        assert single["textEdit"]["newText"] == "{{ ${1:question} }} ${2:Yes} | ${3:No}]$0"
    else:
        assert single["insertTextFormat"] == 1
        assert single["textEdit"]["newText"] == "{{ question }} Yes | No]"


def test_lenses_are_refreshed_when_another_lesson_changes() -> None:
    caps = vscode_capabilities()
    caps["workspace"]["codeLens"] = {"refreshSupport": True}
    course = CourseClient(COURSE, capabilities=caps)

    def refreshes() -> int:
        return sum(m.get("method") == "workspace/codeLens/refresh" for m in course.received)

    course.settle()
    assert refreshes() >= 1
    before = refreshes()
    course.change("b.md", 0, 0, 0, "And {{ name }}. ")
    assert refreshes() == before, "the refresh waits for the changes to pause"
    course.settle()
    assert refreshes() == before + 1
    (lens,) = lenses(course, "a.md")
    assert lens["command"]["title"] == "asked here · read 4 times in 2 lessons"


def _range(line: int, start: int, end_line: int, end: int) -> dict[str, dict[str, int]]:
    return {
        "start": {"line": line, "character": start},
        "end": {"line": end_line, "character": end},
    }
