"""Key completion inside markers: whole completion lists (the range replaced, each item's
kind, detail and text; tests/features/snapshots/completion) and the line once an item is
accepted."""

import pytest

from mfls.features.completion import complete
from tests.kit.course import Course, completion_text, expect
from tests.kit.course import course as make_course


@pytest.fixture
def course() -> Course:
    return make_course(
        {
            "one.md": "?[{{ goal }} A | B]\n\n?[{{ 学习目标 }} ...]\n",
            "two.md": (
                "?[{{ pace }} Slow | Fast]\n\nUse {{ goal }}.\n\n"
                "Type {{}} here and {{ go here\n\nAnd `{{ example }}`.\n"
            ),
            "three.md": "?[{{ later }} X]\n\nRead {{ unbound key }} and {{ goal }}.\n",
        },
        config='host = "playground"\nlessons = ["one.md", "two.md", "three.md"]\n',
    )


def keys(result) -> list[str]:
    return [item.key for item in sorted(result.items, key=lambda i: i.sort_text)]


def accepted(text: str, result, key: str) -> str:
    """The text once the item of `key` is accepted (its edit applied)."""
    assert any(item.key == key for item in result.items)
    return text[: result.start] + result.new_text(key) + text[result.end :]


def replaced(course: Course) -> str:
    """The text the completion at the cursor replaces."""
    result = complete(course.snapshot, course.cursor_uri, course.offset)
    assert result is not None
    return course.text(course.cursor_name or "")[result.start : result.end]


def line_after(course: Course, key: str, name: str | None = None, at: int | None = None) -> str:
    """The line of `at` (the cursor's by default) once the item of `key` is accepted."""
    uri = course.cursor_uri if name is None else course.uri(name)
    offset = course.offset if at is None else at
    text = course.snapshot.entry(uri)[1].text
    result = complete(course.snapshot, uri, offset)
    assert result is not None
    assert result.start <= offset <= result.end
    done = accepted(text, result, key)
    start = text.rfind("\n", 0, offset) + 1
    return done[start : done.find("\n", start)]


def test_auto_closed_marker_is_replaced_whole(course: Course) -> None:
    at = course.offset_of("two.md", "{{}}", 2)
    result = complete(course.snapshot, course.uri("two.md"), at)
    text = course.text("two.md")
    expect(completion_text(text, result, documentation=True), "completion/auto_closed.txt")
    assert line_after(course, "goal", "two.md", at) == "Type {{ goal }} here and {{ go here"


def test_unclosed_marker_being_typed_replaces_up_to_the_cursor(course: Course) -> None:
    at = course.offset_of("two.md", "{{ go here", 5)
    result = complete(course.snapshot, course.uri("two.md"), at)
    assert result is not None
    text = course.text("two.md")
    assert text[result.start : result.end] == "go"
    assert line_after(course, "goal", "two.md", at) == "Type {{}} here and {{ goal }} here"


def test_inside_an_existing_marker_replaces_the_key(course: Course) -> None:
    at = course.offset_of("two.md", "{{ goal }}", 5)
    result = complete(course.snapshot, course.uri("two.md"), at)
    text = course.text("two.md")
    assert text[result.start : result.end] == "goal"
    assert line_after(course, "pace", "two.md", at) == "Use {{ pace }}."


@pytest.mark.parametrize(
    ("typed", "line"),
    [
        ("Ask {{$0", "Ask {{ level }}"),
        ("Ask {{ $0", "Ask {{ level }}"),
        ("Ask {{ le$0", "Ask {{ level }}"),
        ("Ask {{   le$0", "Ask {{   level }}"),
        ("Ask {{le$0", "Ask {{level}}"),
        ("Ask {{$0}}", "Ask {{ level }}"),
        ("Ask {{ $0 }}", "Ask {{ level }}"),
        ("Ask {{ le$0 }} now", "Ask {{ level }} now"),
        ("Ask {{le$0}} now", "Ask {{level}} now"),
        ("Ask {{ le$0vel }}", "Ask {{ level }}"),
        ("Ask {{ $0le }}", "Ask {{ level }}"),
        ("Ask %{{ le$0 }}", "Ask %{{ level }}"),
        ("Ask `{{ le$0`", "Ask `{{ level }}`"),
    ],
)
def test_accepting_writes_one_marker_and_no_doubled_braces(typed: str, line: str) -> None:
    course = make_course({"a.md": "?[{{ level }} A]\n\n" + typed + "\n"})
    assert line_after(course, "level") == line


def test_a_key_ending_with_a_brace_keeps_its_marker_closed() -> None:
    course = make_course({"a.md": "?[{{ a} }} A]\n\nAsk {{a$0}}\n"})
    assert line_after(course, "a}") == "Ask {{a} }}"


def test_the_range_starts_where_the_key_starts_for_every_item(course: Course) -> None:
    # Neovim uses one start column for every item: the start of the edit range.
    at = course.offset_of("two.md", "{{ go here", 5)
    result = complete(course.snapshot, course.uri("two.md"), at)
    assert result.start == at - 2
    expect(completion_text(course.text("two.md"), result), "completion/typed_go.txt")


def test_ranking_same_lesson_then_course_order_then_host_then_unbound(course: Course) -> None:
    at = course.offset_of("two.md", "{{}}", 2)
    result = complete(course.snapshot, course.uri("two.md"), at)
    assert keys(result) == [
        "pace",
        "goal",
        "学习目标",
        "later",
        "browser_language",
        "example",
        "unbound key",
    ]


def test_literal_only_keys_are_offered(course: Course) -> None:
    # A code span's marker is substituted like any other: its key is read.
    at = course.offset_of("two.md", "{{}}", 2)
    result = complete(course.snapshot, course.uri("two.md"), at)
    (example,) = [item for item in result.items if item.key == "example"]
    assert (example.kind, example.detail) == ("doubtful", "not bound in this course · read once")


def test_no_completion_outside_a_marker(course: Course) -> None:
    uri = course.uri("two.md")
    assert complete(course.snapshot, uri, course.offset_of("two.md", "Use")) is None
    assert complete(course.snapshot, uri, course.offset_of("two.md", "{{}}", 1)) is None
    assert complete(course.snapshot, uri, course.offset_of("two.md", "{{}}", 4)) is None


def test_after_interaction_opener() -> None:
    course = make_course({"a.md": "?[{{ level }} A]\n\n?[{{$0}}]\n", "b.md": "?[{{"})
    at = course.offset
    result = complete(course.snapshot, course.uri("a.md"), at)
    text = course.text("a.md")
    assert accepted(text, result, "level") == "?[{{ level }} A]\n\n?[{{ level }}]\n"
    result = complete(course.snapshot, course.uri("b.md"), 4)
    assert (result.start, result.end) == (4, 4)
    assert result.new_text("level") == " level }}"
    assert keys(result) == ["level"]


def test_single_brace_and_code_blocks_do_not_trigger() -> None:
    course = make_course({"a.md": "?[{{ k }} A]\n\nOne { brace\n\n```\n{{ code\n```\n"})
    uri = course.uri("a.md")
    assert complete(course.snapshot, uri, course.offset_of("a.md", "{ brace", 1)) is None
    assert complete(course.snapshot, uri, course.offset_of("a.md", "{{ code", 3)) is None


def test_legacy_binding_keeps_its_percent() -> None:
    course = make_course("a.md", "?[{{ k }} A]\n\n?[%{{ $0k }} B]\n")
    assert replaced(course) == "k"
    assert line_after(course, "k") == "?[%{{ k }} B]"


def test_cjk_and_punctuated_keys() -> None:
    course = make_course("a.md", "?[{{ 你想学什么？ }} A]\n\n?[{{ a.b [0] }} B]\n\n{{ 你$0 x\n")
    assert replaced(course) == "你"
    assert line_after(course, "你想学什么？") == "{{ 你想学什么？ }} x"
    assert line_after(course, "a.b [0]") == "{{ a.b [0] }} x"


def test_limit_filters_by_what_was_typed() -> None:
    lines = "\n\n".join(f"?[{{{{ key number {n} }}}} A]" for n in range(50))
    course = make_course("a.md", lines + "\n\n{{ number 4$0\n")
    at = course.offset
    result = complete(course.snapshot, course.uri("a.md"), at, limit=10)
    assert result.is_incomplete
    assert keys(result) == [
        *[f"key number {n}" for n in (4, 14, 24, 34)],
        *[f"key number {n}" for n in range(40, 46)],
    ]
    full = complete(course.snapshot, course.uri("a.md"), at)
    assert len(full.items) == 50 and not full.is_incomplete


def test_table_follows_edits() -> None:
    course = make_course({"a.md": "?[{{ one }} A]\n\n{{}}\n"})
    uri, workspace = course.open("a.md"), course.workspace
    text = course.text("a.md")
    at = text.index("{{}}") + 2
    first = complete(workspace.snapshot, uri, at)
    assert keys(first) == ["one"]
    workspace.change(uri, [(0, 0, "?[{{ two }} B]\n\n")], 2)
    second = complete(workspace.snapshot, uri, at + 16)
    assert sorted(keys(second)) == ["one", "two"]
    workspace.change(uri, [(0, 16, "")], 3)
    third = complete(workspace.snapshot, uri, at)
    assert keys(third) == ["one"]
    assert keys(first) == ["one"]


def test_table_survives_removal_from_the_middle() -> None:
    text = "?[{{ one }} A]\n\n?[{{ two }} A]\n\n?[{{ three }} A]\n\n{{}}\n"
    course = make_course({"a.md": text})
    uri, workspace = course.open("a.md"), course.workspace
    at = text.index("{{}}") + 2
    assert sorted(keys(complete(workspace.snapshot, uri, at))) == ["one", "three", "two"]
    workspace.change(uri, [(0, 16, "")], 2)
    result = complete(workspace.snapshot, uri, at - 16)
    assert keys(result) == ["two", "three"]
    assert [result.new_text(k) for k in keys(result)] == [" two ", " three "]
    workspace.change(uri, [(0, 0, "?[{{ four }} A]\n\n")], 3)
    assert keys(complete(workspace.snapshot, uri, at + 1)) == ["four", "two", "three"]


def test_raw_html_triggers_and_indented_code_does_not() -> None:
    text = "?[{{ k }} A]\n\n<pre>\n{{ in pre\n</pre>\n\n    {{ indented\n"
    course = make_course({"a.md": text})
    uri = course.uri("a.md")
    at = text.index("{{ in pre") + 4
    result = complete(course.snapshot, uri, at)
    assert result is not None and (result.start, result.end) == (at - 1, at)
    assert complete(course.snapshot, uri, text.index("{{ indented") + 4) is None


def test_plain_text_edits_reuse_the_key_table() -> None:
    from mfls.features.completion import _table

    text = "?[{{ one }} A]\n\nSome text.\n\n{{}}\n"
    course = make_course({"a.md": text})
    uri, workspace = course.open("a.md"), course.workspace
    before = workspace.snapshot.course_for(uri)
    table = _table(before)
    workspace.change(uri, [(text.index("text"), text.index("text"), "more ")], 2)
    after = workspace.snapshot.course_for(uri)
    assert after is not before
    assert _table(after) is table
    workspace.change(uri, [(0, 0, "?[{{ two }} B]\n\n")], 3)
    assert _table(workspace.snapshot.course_for(uri)) is not table


def test_the_key_being_typed_is_not_offered_to_itself() -> None:
    # An editor that closes braces makes `{{ Wh}}` a marker: "Wh" is read once, here.
    course = make_course({"a.md": "?[{{ What now }} A]\n\nAsk {{ Wh$0}}\n"})
    result = complete(course.snapshot, course.cursor_uri, course.offset, limit=10)
    assert keys(result) == ["What now"]
    elsewhere = make_course({"a.md": "?[{{ What now }} A]\n\nAsk {{ What now$0\n"})
    result = complete(elsewhere.snapshot, elsewhere.cursor_uri, elsewhere.offset, limit=10)
    assert keys(result) == ["What now"]


def test_snippet_text_escapes_what_a_snippet_would_read() -> None:
    course = make_course({"a.md": "?[{{ cost $1 \\ {x} }} A]\n\nAsk {{$0\n"})
    result = complete(course.snapshot, course.cursor_uri, course.offset)
    assert result.new_text("cost $1 \\ {x}") == " cost $1 \\ {x} }}"
    assert result.snippet_text("cost $1 \\ {x}") == " cost \\$1 \\\\ {x\\} \\}\\}"
