"""Suppression comments, in process: `<!-- mfls-disable-next-line CODE -->`,
`<!-- mfls-disable-line CODE -->` and `<!-- mfls-disable CODE -->` ... `<!-- mfls-enable
-->` silence problems in lessons and reference documents, pulled and published alike; a
comment in a code span or a code block is no suppression; one that silences nothing, or
names an unknown code, is `unused-suppression`. The quick fix "Ignore this problem here"
writes a comment that keeps the Markdown's blocks (its result rendered here), and the
removal of an unused one leaves the document as it was before it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.kit.memory_client import CourseClient, check_diagnostics

COURSE = """
    //- mfcourse.toml
    name = "Demo"
    lessons = ["01.md"]
    references = ["ref.md"]
    //- 01.md
    ?[{{ topic }} Python | JavaScript]

    <!-- mfls-disable-next-line near-miss -->
    Use {{ topc }} here.

    Use {{ nope }} here. <!-- mfls-disable-line unbound-reference -->

    <!-- mfls-disable -->
    Use {{ gone }} and {{ topcc }}.
    <!-- mfls-enable -->

    <!-- mfls-disable near-miss, unbound-reference -->
    Use {{ tpic }} and {{ unknown }}.
    <!-- mfls-enable near-miss -->
    Use {{ topc }} and {{ still-silent }}.
    %%  ^^^^^^^^^^ near-miss
    <!-- mfls-enable -->

    <!-- mfls-disable -->
    Use {{ tpic }} and {{ all-silent }}.
    <!-- mfls-enable near-miss -->
    Use {{ topc }} and {{ all-still-silent }}.
    %%  ^^^^^^^^^^ near-miss
    <!-- mfls-disable near-miss -->
    Use {{ topc }} silenced again.
    <!-- mfls-enable -->

    <!-- mfls-disable-next-line unbound-reference -->
    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ %% unused-suppression: This suppression
    Use {{ topc }} again.
    %%  ^^^^^^^^^^ near-miss

    <!-- mfls-disable-next-line no-such-code near-miss -->
    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ %% unused-suppression: This suppression n
    Use {{ topc }} once more.

    `<!-- mfls-disable-next-line near-miss -->`
    Use {{ topc }} in the same paragraph.
    %%  ^^^^^^^^^^ near-miss

    ```
    <!-- mfls-disable -->
    ```

    Use {{ last }}.
    %%  ^^^^^^^^^^ unbound-reference
    //- ref.md
    <!-- mfls-disable-next-line binding-in-reference -->
    ?[{{ topic }} A | B]

    <!-- mfls-disable-line -->
    ^^^^^^^^^^^^^^^^^^^^^^^^^^ %% unused-suppression: This suppression
    """


@pytest.mark.parametrize("pull", [True, False], ids=["pulled", "published"])
def test_suppressed_problems_are_absent_and_unused_suppressions_reported(pull: bool) -> None:
    check_diagnostics(COURSE, pull=pull)


def test_a_course_file_severity_applies_to_unused_suppressions() -> None:
    check_diagnostics(
        """
        //- mfcourse.toml
        [diagnostics]
        unused-suppression = "off"
        //- 01.md
        <!-- mfls-disable-next-line near-miss -->
        Nothing to silence.
        """,
    )


def _quick_fixes(course: CourseClient, path: str, needle: str) -> list[dict[str, Any]]:
    found = course.quick_fixes(path, course.text(path).index(needle) + 1)
    return [a for a in found if a["kind"] == "quickfix"]


def _ignored(lesson: str, needle: str, title: str) -> str:
    course = CourseClient('//- mfcourse.toml\nname = "Demo"\n//- 01.md\n' + lesson)
    [fix] = [a for a in _quick_fixes(course, "01.md", needle) if a["title"] == title]
    return course.applied(fix["edit"])["01.md"]


IGNORE_NEAR_MISS = "Ignore this problem here (near-miss)"
ASKED = "?[{{ topic }} A | B]\n\n"

CASES = {
    "a paragraph's first line: a comment line above": (
        ASKED + "Use {{ topc }} here.\nAnd more.\n",
        ASKED + "<!-- mfls-disable-next-line near-miss -->\nUse {{ topc }} here.\nAnd more.\n",
    ),
    "the document's line ending (CRLF)": (
        ASKED.replace("\n", "\r\n") + "# Use {{ topc }}\r\n",
        ASKED.replace("\n", "\r\n")
        + "<!-- mfls-disable-next-line near-miss -->\r\n# Use {{ topc }}\r\n",
    ),
    "a list item's paragraph: its indentation": (
        ASKED + "- One\n\n  Use {{ topc }} here.\n",
        ASKED + "- One\n\n  <!-- mfls-disable-next-line near-miss -->\n  Use {{ topc }} here.\n",
    ),
    "a list item's first line: at the line's end": (
        ASKED + "- One\n- Use {{ topc }} here.\n- Three\n",
        ASKED + "- One\n- Use {{ topc }} here. <!-- mfls-disable-line near-miss -->\n- Three\n",
    ),
    "a block quote: at the line's end": (
        ASKED + "> Use {{ topc }} here.\n",
        ASKED + "> Use {{ topc }} here. <!-- mfls-disable-line near-miss -->\n",
    ),
    "a paragraph's later line, before its hard break": (
        ASKED + "First line.\nUse {{ topc }} here.  \nLast.\n",
        ASKED + "First line.\nUse {{ topc }} here. <!-- mfls-disable-line near-miss -->  \nLast.\n",
    ),
    "a table row: inside its last cell": (
        ASKED + "| a | b |\n|---|---|\n| 1 | {{ topc }} |\n",
        ASKED + "| a | b |\n|---|---|\n| 1 | {{ topc }} <!-- mfls-disable-line near-miss --> |\n",
    ),
}


@pytest.mark.parametrize(("before", "after"), CASES.values(), ids=CASES.keys())
def test_ignore_this_problem_here_keeps_the_markdown(before: str, after: str) -> None:
    assert _ignored(before, "{{ topc", IGNORE_NEAR_MISS) == after
    # The edited lesson has no problem left.
    check_diagnostics('//- mfcourse.toml\nname = "Demo"\n//- 01.md\n' + after)


def test_no_ignore_where_the_comment_would_not_be_read() -> None:
    """An unclosed marker swallows the rest of its line, a comment at its end too; on the
    paragraph's first line the comment goes above instead."""
    later_line = ASKED + "Some text\nand {{ topic here <!-- x -->\n"
    course = CourseClient('//- mfcourse.toml\nname = "Demo"\n//- 01.md\n' + later_line)
    titles = [a["title"] for a in _quick_fixes(course, "01.md", "{{ topic here")]
    assert "Ignore this problem here (marker-unclosed)" not in titles, titles
    first_line = ASKED + "And {{ topic here <!-- x -->\n"
    assert (
        _ignored(
            first_line,
            "{{ topic here",
            "Ignore this problem here (marker-unclosed)",
        )
        == ASKED + "<!-- mfls-disable-next-line marker-unclosed -->\nAnd {{ topic here <!-- x -->\n"
    )


def test_ignore_is_titled_in_chinese() -> None:
    course = CourseClient(
        '//- mfcourse.toml\nname = "Demo"\n//- 01.md\n' + ASKED + "Use {{ topc }} here.\n",
        locale="zh-CN",
    )
    titles = [a["title"] for a in _quick_fixes(course, "01.md", "{{ topc")]
    assert "在这里忽略这个问题（near-miss）" in titles


REMOVALS = {
    "a comment line": (
        "Text.\n<!-- mfls-disable-next-line near-miss -->\nMore.\n",
        "<!-- mfls-disable-next-line",
        "Text.\nMore.\n",
    ),
    "a comment at a line's end": (
        "Text. <!-- mfls-disable-line -->\nMore.\n",
        "<!-- mfls-disable-line",
        "Text.\nMore.\n",
    ),
    "the codes that silence nothing": (
        ASKED + "<!-- mfls-disable-next-line near-miss, unbound-reference, nope -->\n"
        "Use {{ topc }}.\n",
        "<!-- mfls-disable-next-line",
        ASKED + "<!-- mfls-disable-next-line near-miss -->\nUse {{ topc }}.\n",
    ),
}


@pytest.mark.parametrize(("before", "needle", "after"), REMOVALS.values(), ids=REMOVALS.keys())
def test_removing_an_unused_suppression(before: str, needle: str, after: str) -> None:
    assert _ignored(before, needle, "Remove the unused suppression") == after


def test_ignore_answers_the_diagnostic_it_silences_and_is_not_preferred() -> None:
    course = CourseClient(
        '//- mfcourse.toml\nname = "Demo"\n//- 01.md\n' + ASKED + "Use {{ topc }}.\n"
    )
    [diagnostic] = course.diagnostics(["01.md"])["01.md"]
    found = course.call(
        "textDocument/codeAction",
        {
            "textDocument": {"uri": course.uri("01.md")},
            "range": diagnostic["range"],
            "context": {"diagnostics": [diagnostic], "only": ["quickfix"]},
        },
    )
    [ignore] = [a for a in found if a["title"] == IGNORE_NEAR_MISS]
    assert ignore["diagnostics"] == [diagnostic]
    assert not ignore.get("isPreferred")
