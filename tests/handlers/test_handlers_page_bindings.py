"""What mfls writes on a course that targets AI-Shifu's learner page (issue 28), in
process: no "pad marker" on a binding the page reads only unpadded, the
runtime-binding-ignored fix and rename writing `%{{key}}`, completion right after `?[%{{`
writing the key tight and offering only keys the page reads, the snippets' binding, and
messages advising the form the page reads. Every edit mfls offers is run through the real
remark-flow in tests/hosts/test_page_safe_edits.py; what each version reads is
tests/hosts/test_learner_page.py's.
"""

from __future__ import annotations

from typing import Any

from tests.kit.memory_client import CourseClient, check_diagnostics

AI_SHIFU = '//- mfcourse.toml\nhost = "ai-shifu"\n'


def titles(course: CourseClient, path: str = "01.md") -> list[str]:
    """The titles of the code actions at the cursor."""
    params = {
        "textDocument": {"uri": course.uri(path)},
        "range": {"start": course.at()["position"], "end": course.at()["position"]},
        "context": {"diagnostics": []},
    }
    return [action["title"] for action in course.call("textDocument/codeAction", params) or []]


def action(course: CourseClient, title: str) -> dict[str, Any]:
    params = {
        "textDocument": {"uri": course.at()["textDocument"]["uri"]},
        "range": {"start": course.at()["position"], "end": course.at()["position"]},
        "context": {"diagnostics": []},
    }
    [found] = [a for a in course.call("textDocument/codeAction", params) if a["title"] == title]
    return found


def test_no_pad_marker_on_a_binding_the_page_reads_only_unpadded() -> None:
    lesson = "//- 01.md\n?[%{{le$0vel}} A | B]\n\nUse {{level}}.\n"
    course = CourseClient(AI_SHIFU + lesson)
    assert not [t for t in titles(course) if t.startswith("Pad marker")]
    reference = CourseClient(
        AI_SHIFU + lesson.replace("$0", "").replace("{{level}}.", "{{le$0vel}}.")
    )
    assert "Pad marker to {{ level }}" in titles(reference)
    # 1.0.0-alpha.7 alone reads a padded binding; a generic host has no page at all.
    alpha = AI_SHIFU + 'page = "remark-flow-1.0.0-alpha.7"\n' + lesson
    assert "Pad marker to %{{ level }}" in titles(CourseClient(alpha))
    generic = '//- mfcourse.toml\nname = "x"\n' + lesson
    assert "Pad marker to %{{ level }}" in titles(CourseClient(generic))


RUNTIME_BINDING_IGNORED = """
//- mfcourse.toml
host = "ai-shifu"
//- 01.md
?[{{ go$0al }} Job | Fun]
%%^^^^^^^^^^^^ runtime-binding-ignored: markdown-flow 0.3.4 saves nothing here: write `%{{goal}}`.

Use {{ goal }}.
%%  ^^^^^^^^^^ unbound-reference: No lesson asks “goal”
"""


def messages(course: CourseClient, path: str = "01.md") -> list[str]:
    report = course.call("textDocument/diagnostic", {"textDocument": {"uri": course.uri(path)}})
    items = sorted(
        report["items"],
        key=lambda i: (i["range"]["start"]["line"], i["range"]["start"]["character"]),
    )
    return [item["message"] for item in items]


def test_the_runtime_binding_ignored_fix_writes_the_page_form() -> None:
    course = check_diagnostics(RUNTIME_BINDING_IGNORED)
    assert "Pad marker to {{ goal }}" not in titles(course)
    fix = action(course, "Bind with %{{goal}}")
    assert course.applied(fix["edit"])["01.md"].startswith("?[%{{goal}} Job | Fun]\n")
    assert "Bind it in an interaction (`?[%{{goal}} ...]`)" in messages(course)[1]


def test_rename_writes_the_binding_unpadded() -> None:
    course = CourseClient(
        AI_SHIFU
        + "//- 01.md\n?[%{{ go$0al }} Job | Fun]\n\nUse {{goal}}.\n"
        + "//- 02.md\n?[{{goal}} Again | Later]\n",
    )
    edit = course.call("textDocument/rename", {**course.at(), "newName": "learner_goal"})
    assert course.applied(edit) == {
        "01.md": "?[%{{learner_goal}} Job | Fun]\n\nUse {{ learner_goal }}.\n",
        "02.md": "?[%{{learner_goal}} Again | Later]\n",
    }


def test_completion_right_after_the_opener_writes_the_key_tight() -> None:
    course = CourseClient(
        AI_SHIFU
        + "//- 01.md\n?[%{{level}} A | B]\n\n?[%{{What is your name?}} ...Name]\n\n"
        + "?[%{{$0 Yes | No]\n",
    )
    found = course.call("textDocument/completion", course.at())
    items = {item["label"]: item for item in found["items"]}
    assert items["level"]["textEdit"]["newText"] == "level\\}\\}"
    assert items["level"]["textEdit"]["range"]["start"] == course.at()["position"]
    # The page reads no binding of a question-text key: it is not offered here.
    assert "What is your name?" not in items
    typed = CourseClient(
        AI_SHIFU + "//- 01.md\n?[%{{level}} A | B]\n\nUse {{ What is your name? }}.\n\n"
        "?[%{{ le$0}} Yes | No]\n",
    )
    found = typed.call("textDocument/completion", typed.at())
    [item] = [i for i in found["items"] if i["label"] == "level"]
    edit = item["textEdit"]
    # The padding typed after `{{` is replaced: the page reads `%{{level}}` only.
    assert edit["newText"] == "level"
    assert edit["range"]["start"]["character"] == len("?[%{{")
    assert edit["range"]["end"]["character"] == len("?[%{{ le")
    reference = CourseClient(
        AI_SHIFU + "//- 01.md\n?[%{{level}} A | B]\n\n?[%{{What is your name?}} ...Name]\n\n"
        "Use {{$0\n",
    )
    found = reference.call("textDocument/completion", reference.at())
    labels = {item["label"]: item for item in found["items"]}
    assert labels["level"]["textEdit"]["newText"] == " level \\}\\}"
    assert "What is your name?" in labels


def test_the_snippets_bind_in_the_page_form() -> None:
    course = CourseClient(AI_SHIFU + 'target = "current"\n' + "//- 01.md\nAsk.\n\n?[$0\n")
    found = course.call("textDocument/completion", course.at())
    snippets = [item["textEdit"]["newText"] for item in found["items"]]
    assert snippets and all(s.startswith("%{{${1:question}}}") for s in snippets), snippets


def test_a_multiple_choice_snippet_only_where_the_page_shows_one() -> None:
    def labels(page: str) -> list[str]:
        fixture = AI_SHIFU + page + "//- 01.md\nAsk.\n\n?[$0\n"
        course = CourseClient(fixture)
        return [
            item["label"] for item in course.call("textDocument/completion", course.at())["items"]
        ]

    # remark-flow 1.0.0-alpha.7, checked by default, shows `A || B` as single choice.
    assert labels("") == ["single choice", "input"]
    assert labels('page = "remark-flow-0.1.6"\n') == ["single choice", "multiple choice", "input"]


MESSAGES = """
//- mfcourse.toml
host = "ai-shifu"
//- 01.md
Use {{ topic }} and {{ What is your name? }}.
%%  ^^^^^^^^^^^ unbound-reference: No lesson asks “topic”
%%                  ^^^^^^^^^^^^^^^^^^^^^^^^ unbound-reference: No lesson asks “What is your name?”

?[%{{mood}}]
^^^^^^^^^^^^ %% empty-interaction: This interaction offers no choices
"""


def test_messages_advise_the_form_the_page_reads() -> None:
    topic, name, mood = messages(check_diagnostics(MESSAGES))
    assert "Bind it in an interaction (`?[%{{topic}} ...]`)" in topic
    assert "the learner page reads no binding of this key" in name
    assert "such as `what_is_your_name`, and bind that in an interaction" in name
    assert "(`?[%{{what_is_your_name}} ...]`)" in name
    assert "write `?[%{{mood}} ...]` to say so" in mood


ZH = """
//- mfcourse.toml
host = "ai-shifu"
//- 01.md
?[{{ goal }} Job | Fun]
%%^^^^^^^^^^ runtime-binding-ignored: markdown-flow 0.3.4 不会在这里保存回答：请写成 `%{{goal}}`。

Use {{ topic }}.
%%  ^^^^^^^^^^^ unbound-reference: 没有任何课时提问“topic”
"""


def test_the_chinese_messages_advise_the_same_form() -> None:
    _, topic = messages(check_diagnostics(ZH, locale="zh-CN"))
    assert "请在交互中绑定它（`?[%{{topic}} ...]`）" in topic


def test_the_hover_does_not_call_the_page_form_old() -> None:
    lesson = "//- 01.md\n?[%{{le$0vel}} A | B]\n"
    generic = '//- mfcourse.toml\nname = "x"\n'
    for fixture, old in ((AI_SHIFU, False), (generic, True)):
        course = CourseClient(fixture + lesson)
        shown = course.call("textDocument/hover", course.at())["contents"]["value"]
        assert "**Binding**" in shown
        assert ("old `%{{...}}` form" in shown) is old, shown
