"""Messages in the author's language (issue 12), in process: the client's `locale` in
`initialize` chooses Chinese or English for diagnostics, hovers and code action titles;
the `mfls.locale` setting overrides it, and a change of the setting republishes. Moved
from tests/e2e/test_e2e_locale.py."""

from __future__ import annotations

from tests.kit.course import expect
from tests.kit.memory_client import (
    CourseClient,
    check_diagnostics,
    render_hover,
    vscode_capabilities,
)

LESSON = "?[%{{ goal }} A | B]\n\nUse {{ goal }} and {{ topic }}.\n"


def titles(course: CourseClient, path: str) -> set[str]:
    lines = course.text(path).split("\n")
    whole = {
        "start": {"line": 0, "character": 0},
        "end": {"line": len(lines) - 1, "character": len(lines[-1])},
    }
    found = course.call(
        "textDocument/codeAction",
        {"textDocument": {"uri": course.uri(path)}, "range": whole, "context": {"diagnostics": []}},
    )
    return {action["title"] for action in found}


def test_a_chinese_client_gets_chinese_messages() -> None:
    course = check_diagnostics(
        """
        //- mfcourse.toml
        colour = "red"
        ^^^^^^ %% course-file-invalid: 未知设置 `colour`，已忽略。
        //- a.md
        ?[%{{ goal }} A | B]
        %%^^^^^^^^^^^ legacy-binding: `%{{...}}` 是旧的绑定写法：请改为 `{{ goal }}`。

        Use {{ go$0al }} and {{ topic }}.
        %%                   ^^^^^^^^^^^ unbound-reference: 没有任何课时提问“topic”
        """,
        client="neovim@v0.11",
        locale="zh-CN",
    )
    hover = course.call("textDocument/hover", course.at())
    expect(course.relative(render_hover(hover)), "locale/hover_zh.md")
    value = hover["contents"]["value"]
    assert "**引用**：AI 会读取这个问题已记住的回答。" in value
    assert f"绑定位置：[a.md:1]({course.uri('a.md')}#L1)。" in value
    assert {"把旧写法绑定转换为 {{ goal }}", "在首次使用前用交互提问“topic”"} <= titles(
        course, "a.md"
    )


def test_the_locale_setting_wins_and_its_change_republishes() -> None:
    course = check_diagnostics(
        """
        //- a.md
        ?[%{{ goal }} A | B]
        %%^^^^^^^^^^^ legacy-binding

        Use {{ goal }} and {{ topic }}.
        %%                 ^^^^^^^^^^^ unbound-reference: No lesson asks “topic”, so the AI may lack
        """,
        capabilities=vscode_capabilities(pull=False, client="neovim@v0.11"),
        pull=False,
        locale="zh-Hans-CN",
        initialization_options={"mfls": {"locale": "en"}},
    )
    assert "Convert legacy binding to {{ goal }}" in titles(course, "a.md")

    course.settings = {"locale": "zh-CN"}
    course.notify("workspace/didChangeConfiguration", {"settings": {"mfls": {"locale": "zh-CN"}}})
    course.settle()
    (unbound,) = [
        d for d in course.published()["a.md"]["diagnostics"] if d["code"] == "unbound-reference"
    ]
    assert unbound["message"].startswith("没有任何课时提问“topic”")
    assert "把旧写法绑定转换为 {{ goal }}" in titles(course, "a.md")
