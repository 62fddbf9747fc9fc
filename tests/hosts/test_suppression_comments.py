"""A suppression comment costs the learner nothing, checked on the hosts' real packages:
markdown-flow 0.4.2 (in process) sends the AI no part of it, and the learner page's parser
(remark-flow 0.1.6 and 1.0.0-alpha.7 with remark-gfm, `remark_flow/page.mjs`) reads it as
an `html` node, never as text, and keeps the blocks around it. The texts are those the
quick fix "Ignore this problem here" writes (`features/suppression_fixes.ignore_change`), in a
paragraph, a list item, a block quote and a table."""

from __future__ import annotations

from importlib.metadata import version

import pytest
from remark_flow_page import PACKAGES, installed_version, page_readings, require_page

from mfls.features.suppression_fixes import ignore_change
from mfls.syntax.document import Document

try:
    from markdown_flow import MarkdownFlow
except ImportError:  # pragma: no cover - the test extras install it
    pytest.fail(
        "markdown-flow is missing: pip install -e '.[test]' (or scripts/setup-test-env.sh)",
        pytrace=False,
    )

LESSONS = {
    "a paragraph": "Intro.\n\nUse {{ topc }} here.\nAnd more.\n",
    "a list item": "- One\n- Use {{ topc }} here.\n- Three\n",
    "a list item's paragraph": "- One\n\n  Use {{ topc }} here.\n",
    "a block quote": "> First.\n> Use {{ topc }} here.\n",
    "a table": "| a | b |\n|---|---|\n| 1 | {{ topc }} |\n",
}


def _suppressed(lesson: str) -> str:
    change = ignore_change(Document(lesson), lesson.index("{{ topc"), "near-miss")
    assert change is not None
    return lesson[: change.start] + change.new_text + lesson[change.end :]


def test_the_sdk_is_the_pinned_release() -> None:
    assert version("markdown-flow") == "0.4.2"


@pytest.mark.parametrize("lesson", LESSONS.values(), ids=LESSONS.keys())
def test_markdown_flow_sends_the_ai_no_suppression(lesson: str) -> None:
    edited = _suppressed(lesson)
    assert "mfls-disable" in edited
    seen = _ai_sees(edited)
    assert "mfls-" not in seen and "<!--" not in seen
    # What the AI sees is the lesson's text without the comment (spaces aside).
    assert _lines(seen) == _lines(_ai_sees(lesson)), seen


def _ai_sees(lesson: str) -> str:
    messages = MarkdownFlow(lesson).get_content_messages(0, {"topc": "VALUE"})
    content: str = [m for m in messages if m["role"] == "user"][-1]["content"]
    assert "VALUE" in content
    return content


def _visible(text: str) -> str:
    return "".join(text.split())


def _lines(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines()]


@pytest.mark.parametrize("page", list(PACKAGES))
def test_the_learner_page_shows_nothing_of_a_suppression(page: str) -> None:
    require_page()
    assert installed_version(page) == page.removeprefix("remark-flow-")
    lessons = list(LESSONS.values())
    before = page_readings(page, lessons)
    after = page_readings(page, [_suppressed(lesson) for lesson in lessons])
    for lesson, plain, edited in zip(lessons, before, after, strict=True):
        assert "mfls-" not in edited["text"], (lesson, edited)
        # The same text, but the space before an end-of-line comment (which HTML shows as
        # nothing at a paragraph's end or before a line break).
        assert _visible(edited["text"]) == _visible(plain["text"]), (lesson, plain, edited)
        # The same blocks, but the comment line above a paragraph (an `html` block).
        assert [b for b in edited["blocks"] if b != "html"] == plain["blocks"], (lesson, edited)
