"""mfls.features.rename over real courses indexed from disk."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from rename_support import applied, indexed, uri

from mfls.features import rename as rn
from mfls.features.refusal import Refusal

TOML = 'name = "c"\nhost = "ai-shifu"\nsystem-keys = ["course_title"]\n'

LESSON_1 = """# Welcome {{ course_title }}

Hello {{ sys_user_nickname }}.

?[{{ topic }} Python | JavaScript | ...Other]

?[%{{goal}} Job | Fun]

Use {{topic}} and `{{topic}}` here. Empty {{ }} marker.

```
{{ topic }} in a fence
```

<pre>
{{ topic }} in raw HTML
</pre>
"""

LESSON_2 = """Use {{ topic }} again, and {{ goal }}.

> Quote with a marker across lines: ?[{{
> topic
> }} A | B]
"""


@pytest.fixture
def course(make_course: Callable[..., Path]) -> Path:
    return make_course(
        {"mfcourse.toml": TOML, "l1.md": LESSON_1, "l2.md": LESSON_2, "other.md": "{{ else }}\n"}
    )


def _offset_of(text: str, needle: str, nth: int = 0, into: int = 3) -> int:
    position = -1
    for _ in range(nth + 1):
        position = text.index(needle, position + 1)
    return position + into


@pytest.mark.parametrize(
    ("needle", "nth", "key"),
    [
        ("{{ topic }} Python", 0, "topic"),  # binding
        ("{{topic}} and", 0, "topic"),  # reference
        ("%{{goal}}", 0, "goal"),  # legacy binding
        ("`{{topic}}`", 0, "topic"),  # inline literal context
    ],
)
def test_prepare_answers_with_the_key_range_on_every_kind(
    course: Path, needle: str, nth: int, key: str
) -> None:
    snapshot = indexed(course).snapshot
    offset = _offset_of(LESSON_1, needle, nth, into=4)
    target = rn.prepare_rename(snapshot, uri(course / "l1.md"), offset)
    assert target.key == key
    assert LESSON_1[target.start : target.end] == key
    assert LESSON_1[target.start - 1] in "{ "


@pytest.mark.parametrize(
    ("needle", "message"),
    [
        ("Hello", "no memory marker here"),
        ("{{ }}", "invalid (empty)"),
        ("{{ topic }} in a fence", "code blocks"),
        ("{{ sys_user_nickname }}", "provided by the host"),
        ("{{ course_title }}", "system key listed in the course file"),
    ],
)
def test_prepare_refuses_with_a_reason(course: Path, needle: str, message: str) -> None:
    snapshot = indexed(course).snapshot
    offset = _offset_of(LESSON_1, needle, into=3)
    refusal = rn.prepare_rename(snapshot, uri(course / "l1.md"), offset)
    assert isinstance(refusal, Refusal)
    assert message in refusal.message.lower() or message in refusal.message


def test_rename_edits_every_document_of_the_course_only(course: Path) -> None:
    snapshot = indexed(course).snapshot
    offset = _offset_of(LESSON_1, "{{ topic }} Python")
    change = rn.rename(snapshot, uri(course / "l1.md"), offset, "  Favourite topic? ")
    texts = applied(change)
    assert set(texts) == {uri(course / "l1.md"), uri(course / "l2.md")}
    l1 = texts[uri(course / "l1.md")]
    assert "?[{{ Favourite topic? }} Python" in l1
    assert "Use {{ Favourite topic? }} and `{{Favourite topic?}}` here" in l1
    assert "{{ topic }} in a fence" in l1
    # docs/syntax.md rules 10 and 16: a raw HTML block's complete markers are renamed too.
    assert "<pre>\n{{ Favourite topic? }} in raw HTML\n</pre>" in l1
    l2 = texts[uri(course / "l2.md")]
    assert l2.startswith("Use {{ Favourite topic? }} again")
    assert "?[{{\n> Favourite topic?\n> }} A | B]" in l2
    assert change.markers == 6


def test_rename_keeps_legacy_percent(course: Path) -> None:
    snapshot = indexed(course).snapshot
    change = rn.rename(snapshot, uri(course / "l2.md"), _offset_of(LESSON_2, "{{ goal }}"), "aim")
    texts = applied(change)
    assert "?[%{{aim}} Job | Fun]" in texts[uri(course / "l1.md")]  # the learner page's form
    assert "and {{ aim }}." in texts[uri(course / "l2.md")]


def test_rename_carries_the_stored_answers_annotation(course: Path) -> None:
    snapshot = indexed(course).snapshot
    change = rn.rename(snapshot, uri(course / "l2.md"), _offset_of(LESSON_2, "{{ goal }}"), "aim")
    assert change.annotation is not None
    assert "Answers already stored under “goal” will not follow" in change.annotation.description


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("   ", "empty"),
        ("a\nb", "line break"),
        ("a\u2028b", "line break"),
        ("a\x07b", "control character"),
        ("a\x9fb", "control character"),
        ("a\x85b", "line break"),
        ("a }} b", "'}}'"),
        ("a\udc00b", "lone surrogate"),
        ("\ud800", "lone surrogate"),
        ("sys_topic", "prefix the host (ai-shifu) reserves"),
        ("sys_user_nickname", "prefix the host"),
        ("course_title", "provided by the host"),
    ],
)
def test_new_name_refusals_say_why(course: Path, name: str, message: str) -> None:
    snapshot = indexed(course).snapshot
    refusal = rn.rename(snapshot, uri(course / "l2.md"), _offset_of(LESSON_2, "{{ goal }}"), name)
    assert isinstance(refusal, Refusal) and not refusal.conflict
    assert message in refusal.message


def test_conflict_names_where_the_new_key_is_used(course: Path) -> None:
    snapshot = indexed(course).snapshot
    refusal = rn.rename(
        snapshot, uri(course / "l2.md"), _offset_of(LESSON_2, "{{ goal }}"), " topic"
    )
    assert isinstance(refusal, Refusal) and refusal.conflict
    message = refusal.message
    assert "“topic” is already a key of this course" in message
    assert "l1.md:5 (binding)" in message
    assert "l2.md:1 (reference)" in message
    assert "Merge key “goal” into “topic”" in message
    assert (refusal.old_key, refusal.new_key) == ("goal", "topic")


def test_two_courses_with_the_same_key_text_stay_apart(make_course: Callable[..., Path]) -> None:
    first = make_course({"a.md": "?[{{ q }} A | B]\n"}, name="first")
    second = make_course({"a.md": "Use {{ q }}.\n"}, name="second")
    snapshot = indexed(first, second).snapshot
    change = rn.rename(snapshot, uri(first / "a.md"), 5, "r")
    assert applied(change) == {uri(first / "a.md"): "?[{{ r }} A | B]\n"}


def test_crlf_and_emoji_offsets(make_course: Callable[..., Path]) -> None:
    text = "🚀 intro\r\n\r\n?[{{🚀 rocket}} A | B]\r\nUse {{ 🚀 rocket }} 😀 {{🚀 rocket}}\r\n"
    root = make_course({"l.md": text})
    snapshot = indexed(root).snapshot
    target = rn.prepare_rename(snapshot, uri(root / "l.md"), text.index("rocket"))
    assert text[target.start : target.end] == "🚀 rocket"
    change = rn.rename(snapshot, uri(root / "l.md"), target.start, "🛸 saucer")
    assert applied(change)[uri(root / "l.md")] == (
        "🚀 intro\r\n\r\n?[{{ 🛸 saucer }} A | B]\r\nUse {{ 🛸 saucer }} 😀 {{ 🛸 saucer }}\r\n"
    )


def test_open_document_text_and_version_win(course: Path) -> None:
    workspace = indexed(course)
    edited = LESSON_2.replace("again", "once more, {{topic}}")
    workspace.open(uri(course / "l2.md"), edited, 7)
    change = rn.rename(
        workspace.snapshot, uri(course / "l1.md"), _offset_of(LESSON_1, "{{topic}}"), "t"
    )
    by_uri = {d.uri: d for d in change.documents}
    opened = by_uri[uri(course / "l2.md")]
    assert opened.version == 7
    assert applied(change)[opened.uri].startswith("Use {{ t }} once more, {{ t }}")
    assert by_uri[uri(course / "l1.md")].version is None


def test_renaming_to_the_same_key_changes_nothing(course: Path) -> None:
    snapshot = indexed(course).snapshot
    change = rn.rename(
        snapshot, uri(course / "l2.md"), _offset_of(LESSON_2, "{{ goal }}"), " goal "
    )
    assert change.documents == ()


def test_refusals_and_the_annotation_speak_the_callers_language(course: Path) -> None:
    snapshot = indexed(course).snapshot
    offset = _offset_of(LESSON_1, "Hello", into=3)
    refusal = rn.prepare_rename(snapshot, uri(course / "l1.md"), offset, "zh-CN")
    assert isinstance(refusal, Refusal) and "这里没有记忆标记" in refusal.message
    at_goal = _offset_of(LESSON_2, "{{ goal }}")
    refused = rn.rename(snapshot, uri(course / "l2.md"), at_goal, "a }} b", "zh-CN")
    assert isinstance(refused, Refusal) and refused.message.startswith("新名称包含 '}}'")
    conflict = rn.rename(snapshot, uri(course / "l2.md"), at_goal, "topic", "zh-CN")
    assert isinstance(conflict, Refusal) and conflict.conflict
    assert conflict.message.startswith("“topic”已是本课程的键，用于 l1.md:5 (binding)")
    change = rn.rename(snapshot, uri(course / "l2.md"), at_goal, "aim", "zh-CN")
    assert not isinstance(change, Refusal) and change.annotation is not None
    assert change.annotation.label == "把记忆键“goal”重命名为“aim”"
    # English stays the default.
    english = rn.rename(snapshot, uri(course / "l2.md"), at_goal, "aim")
    assert not isinstance(english, Refusal) and english.annotation is not None
    assert english.annotation.label == "Rename memory key “goal” to “aim”"
