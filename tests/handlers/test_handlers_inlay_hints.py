"""Inlay hints (`textDocument/inlayHint`), in process: after a read, where the course
first asks the key and its choices; after a binding, how many lessons read it; the
requested range; the `inlayHints.enabled` setting; the refresh when another lesson or
the setting changes. Rendered as the editor shows them, in snapshots."""

from __future__ import annotations

from typing import Any

from tests.kit.course import expect, lines_of
from tests.kit.memory_client import CourseClient, vscode_capabilities

COURSE = """
    //- mfcourse.toml
    host = "ai-shifu"
    target = "current"
    lessons = ["intro.md", "next.md"]
    references = ["prompt.md"]
    //- intro.md
    Say hello to {{ sys_user_nickname }} before {{ goal }} is asked.

    ?[{{ level }} Beginner | Some experience | An expert of many, many years | Four | Five | Six]

    ?[{{ goal }} Pass an exam | ...or say it]

    ?[{{ note }} ...anything else]

    Tailor to {{ level }} and {{ goal }}, not `{{ level }}`; {{ levle }} is a typo.
    //- next.md
    Still {{ goal }}?

    ?[{{ sys_user_style }} A | B]
    //- prompt.md
    Know the {{ level }} and the {{ goal }}.
    """


def hints(course: CourseClient, path: str, range_: Any = None) -> Any:
    if range_ is None:
        last = len(lines_of(course.text(path)))
        range_ = {"start": {"line": 0, "character": 0}, "end": {"line": last, "character": 0}}
    params = {"textDocument": {"uri": course.uri(path)}, "range": range_}
    return course.call("textDocument/inlayHint", params)


def render(course: CourseClient, *paths: str) -> str:
    """Each file with its hints where the editor draws them: `‹label›` (after a space
    when the hint asks for one), then `→ file:line` where the label leads and the
    tooltip when it says more than the label."""
    out: list[str] = []
    for path in paths:
        out.append(f"//- {path}")
        lines = lines_of(course.text(path))
        by_line: dict[int, list[tuple[int, str]]] = {}
        for hint in hints(course, path):
            position = hint["position"]
            label = hint["label"]
            if isinstance(label, list):
                parts = []
                for part in label:
                    text = part["value"]
                    if "location" in part:
                        where = part["location"]
                        line = where["range"]["start"]["line"] + 1
                        text += f" → {course.path_of(where['uri'])}:{line}"
                    parts.append(text)
                label = "".join(parts)
            tooltip = hint.get("tooltip")
            if tooltip is not None and not label.startswith(tooltip):
                label += f" | tooltip: {tooltip}"
            pad = " " if hint.get("paddingLeft") else ""
            column = course.column(path, position)
            by_line.setdefault(position["line"], []).append((column, f"{pad}‹{label}›"))
        for number, line in enumerate(lines):
            for column, shown in sorted(by_line.get(number, ()), reverse=True):
                line = line[:column] + shown + line[column:]
            out.append(line)
    return "\n".join(out)


def test_hints_say_where_a_key_is_asked_and_how_often_it_is_read() -> None:
    course = CourseClient(COURSE)
    assert course.initialized["capabilities"]["inlayHintProvider"] == {"resolveProvider": False}
    expect(render(course, "intro.md", "next.md", "prompt.md"), "inlay_hints/course.md")


def test_hints_in_chinese() -> None:
    course = CourseClient(COURSE, locale="zh-CN")
    expect(render(course, "intro.md", "next.md", "prompt.md"), "inlay_hints/course_zh.md")


def test_only_the_hints_of_the_requested_range() -> None:
    course = CourseClient(COURSE)
    every = hints(course, "intro.md")
    # "Tailor to {{ level }} and {{ goal }}": up to the end of the second read
    line = {"start": {"line": 8, "character": 0}, "end": {"line": 8, "character": 36}}
    inside = hints(course, "intro.md", line)
    assert inside == [h for h in every if h["position"]["line"] == 8][:2]
    assert [h["label"][0]["value"] for h in inside] == [
        "asked in intro.md: Beginner, Some experience, An expert of many,…, Four, Five…",
        "asked in intro.md: Pass an exam; free input",
    ]
    nothing = {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 0}}
    assert hints(course, "intro.md", nothing) == []


def test_a_lesson_of_a_course_folder_is_named_by_its_title() -> None:
    course = CourseClient(
        """
        //- structure.json
        {"chapters": [{"title": "One", "lessons": [
          {"file": "lesson-01.md", "title": "Getting started"},
          {"file": "lesson-02.md", "title": "Going on"}
        ]}]}
        //- lessons/lesson-01.md
        ?[%{{ goal }} Pass | Learn]
        //- lessons/lesson-02.md
        Aim for {{ goal }}
        """,
    )
    expect(render(course, "lessons/lesson-01.md", "lessons/lesson-02.md"), "inlay_hints/folder.md")


def test_the_setting_turns_hints_off_and_on_with_a_refresh() -> None:
    caps = vscode_capabilities(client="neovim@v0.11")
    course = CourseClient(
        COURSE,
        capabilities=caps,
        initialization_options={"mfls": {"inlayHints": {"enabled": False}}},
    )
    course.settle()
    assert hints(course, "intro.md") == []

    def refreshes() -> int:
        return sum(m.get("method") == "workspace/inlayHint/refresh" for m in course.received)

    before = refreshes()
    course.settings = {"inlayHints": {"enabled": True}}
    course.notify("workspace/didChangeConfiguration", {"settings": None})
    course.settle()
    assert refreshes() == before + 1
    assert len(hints(course, "intro.md")) == 8

    course.settings = {"inlayHints": {"enabled": "no"}}  # a bad value changes nothing
    course.notify("workspace/didChangeConfiguration", {"settings": None})
    course.settle()
    assert len(hints(course, "intro.md")) == 8
    logged = [
        m["params"]["message"] for m in course.received if m.get("method") == "window/logMessage"
    ]
    assert any("mfls.inlayHints.enabled: expected true or false, got 'no'" in m for m in logged)


def test_hints_follow_another_lesson_after_a_refresh() -> None:
    caps = vscode_capabilities(client="neovim@v0.11")
    course = CourseClient(COURSE, capabilities=caps)
    course.settle()

    def note() -> str:
        (found,) = [h["label"] for h in hints(course, "intro.md") if h["position"]["line"] == 6]
        return str(found)

    assert note() == "not read yet"
    before = sum(m.get("method") == "workspace/inlayHint/refresh" for m in course.received)
    course.change("next.md", 0, 0, 0, "Mind {{ note }}. ")
    course.settle()
    after = sum(m.get("method") == "workspace/inlayHint/refresh" for m in course.received)
    assert after == before + 1
    assert note() == "read in 1 lesson"


def test_no_refresh_for_a_client_without_it() -> None:
    course = CourseClient(COURSE)  # VS Code's captured capabilities: no refresh
    course.change("next.md", 0, 0, 0, "Mind {{ note }}. ")
    course.settle()
    assert not any(m.get("method") == "workspace/inlayHint/refresh" for m in course.received)
