"""Completion after `{{ ` (issue 22), in process: VS Code closes its list when a space is
typed, so the space is a trigger character; typed inside an open `{{` it brings the
course's keys back, the first of them preselected; anywhere else it gets no list. Moved
from tests/e2e/test_e2e_completion_space.py."""

from __future__ import annotations

from typing import Any

import pytest

from tests.kit.course import expect
from tests.kit.memory_client import CourseClient, render_completion

KEY = "What would you like to learn?"
COURSE = """
    //- mfcourse.toml
    name = "Demo"
    host = "ai-shifu"
    target = "current"
    lessons = ["01.md", "02.md"]
    //- 01.md
    # Welcome

    ?[{{ What would you like to learn? }} Python | JavaScript]

    Ask again: {{ CURSOR_A

    Plain words here CURSOR_B

    ?[ CURSOR_C

    Done {{ level }} CURSOR_D
    //- 02.md closed
    # Next

    ?[{{ level }} Easy | Hard]
    """


def after_space(where: str) -> Any:
    """Completion as VS Code asks it when a space was just typed before `where`."""
    fixture = COURSE.replace(where, "$0")
    for other in ("CURSOR_A", "CURSOR_B", "CURSOR_C", "CURSOR_D"):
        fixture = fixture.replace(f" {other}", " ")
    course = CourseClient(fixture)
    assert " " in course.initialized["capabilities"]["completionProvider"]["triggerCharacters"]
    trigger = {"triggerKind": 2, "triggerCharacter": " "}
    return course.call("textDocument/completion", {**course.at(), "context": trigger})


def test_a_space_inside_an_open_marker_offers_the_keys() -> None:
    result = after_space("CURSOR_A")  # "Ask again: {{ "
    expect(render_completion(result), "completion/after_a_space.txt")
    labels = [item["label"] for item in result["items"]]
    assert {KEY, "level", "sys_user_nickname"} <= set(labels)
    ranked = sorted(result["items"], key=lambda item: item.get("sortText") or "")
    assert ranked[0]["label"] == KEY  # asked in this lesson: first
    assert [item["label"] for item in result["items"] if item.get("preselect")] == [KEY]
    edit = ranked[0]["textEdit"]
    assert edit["range"]["start"] == {"line": 4, "character": 14}  # after the space typed
    assert "}}" in edit["newText"].replace("\\", "")


@pytest.mark.parametrize(
    ("where", "what"),
    [
        ("CURSOR_B", "plain words"),
        ("CURSOR_C", "after an interaction's `?[`"),
        ("CURSOR_D", "after a closed marker"),
    ],
)
def test_a_space_anywhere_else_gets_no_list(where: str, what: str) -> None:
    result = after_space(where)
    assert result is None or not result["items"], f"{what}: {result}"
