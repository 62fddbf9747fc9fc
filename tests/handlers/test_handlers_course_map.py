"""The course map commands in process: `mfls.courseKeys` (the course key table) and
`mfls.courseMap` (the map page for a web view), with a live edit in between. Moved from
tests/e2e/test_e2e_course_map.py."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.kit.course import expect
from tests.kit.memory_client import CourseClient

COURSE = """
    //- mfcourse.toml
    name = "Map demo"
    host = "ai-shifu"
    target = "current"
    lessons = ["01.md", "02.md"]
    //- 01.md closed
    # One

    Use {{ level }} early.

    ?[{{ goal }} Learn | Build]
    //- 02.md closed
    # Two

    ?[{{ level }} Easy | Hard]

    {{ goal }} and {{ goel }}
    """


def keys(course: CourseClient, argument: object) -> Any:
    return course.call(
        "workspace/executeCommand", {"command": "mfls.courseKeys", "arguments": [argument]}
    )


def test_course_keys_and_map_commands() -> None:
    course = CourseClient(COURSE)
    commands = course.initialized["capabilities"]["executeCommandProvider"]["commands"]
    assert {"mfls.courseKeys", "mfls.courseMap"} <= set(commands)
    uri = course.uri("02.md")
    answer = keys(course, uri)
    assert answer["course"] == "Map demo"
    rows = {row["key"]: row for row in answer["rows"]}
    assert list(rows) == ["level", "goal", "goel"]
    assert rows["level"]["asked"] == [
        {
            "lesson": "02.md",
            "uri": uri,
            "line": 3,
            "column": 3,
            "choices": ["Easy", "Hard"],
            "input": None,
        }
    ]
    assert rows["level"]["problems"] == [{"code": "read-before-asked", "count": 1}]
    assert (rows["goal"]["reads"], rows["goal"]["readLessons"]) == (1, 1)
    assert rows["goel"]["problems"] == [{"code": "near-miss", "count": 1, "suggestion": "goal"}]
    expect(answer["markdown"], "course_map/keys.md")
    assert "| level | 02.md (line 3) | 1 in 1 lesson | read-before-asked |" in answer["markdown"]

    # The table follows an open buffer as it is typed.
    course.open("02.md")
    course.change("02.md", 4, 18, 22, "goal")
    after = keys(course, {"uri": uri})
    assert [row["key"] for row in after["rows"]] == ["level", "goal"]
    assert after["rows"][1]["reads"] == 2

    page = course.call(
        "workspace/executeCommand",
        {"command": "mfls.courseMap", "arguments": [course.uri("mfcourse.toml")]},
    )
    assert page["title"] == "Course map: Map demo"
    found = re.search(r'id="map-data">(.*?)</script>', page["html"], re.S)
    assert found is not None
    assert [key[0] for key in json.loads(found.group(1))["keys"]] == ["level", "goal"]


def test_course_keys_refuses_a_file_outside_the_courses_and_no_argument() -> None:
    course = CourseClient(COURSE)
    outside = {"command": "mfls.courseKeys", "arguments": [course.uri("../x.md")]}
    error = course.answer("workspace/executeCommand", outside)["error"]
    assert "not part of any indexed course" in error["message"]
    missing = {"command": "mfls.courseKeys", "arguments": []}
    error = course.answer("workspace/executeCommand", missing)["error"]
    assert "give its URI" in error["message"]


def test_a_chinese_client_gets_the_key_table_and_its_refusal_in_chinese() -> None:
    course = CourseClient(COURSE, locale="zh-CN")
    markdown = keys(course, course.uri("02.md"))["markdown"]
    assert "| 问题 | 提问位置 | 读取 | 诊断 |" in markdown.splitlines()
    assert "| level | 02.md（第 3 行） | 1 次，在 1 个课时中 | read-before-asked |" in markdown
    outside = {"command": "mfls.courseKeys", "arguments": [course.uri("../x.md")]}
    error = course.answer("workspace/executeCommand", outside)["error"]
    assert error["message"] == "此文档还不属于任何已索引的课程。"
