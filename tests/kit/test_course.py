"""The course-text format, the in-memory courses and client, `check_diagnostics` and
`expect` themselves (tests/kit/course.py, memory_client.py): what they read, that a
mismatch fails with a readable diff, and that in-memory courses stay off the disk."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mfls.workspace.uris import path_to_uri
from tests.kit.course import (
    ROOT,
    UPDATE,
    Annotation,
    Cursor,
    DiskTouched,
    course,
    course_text,
    expect,
    no_disk,
    parse,
    render,
)
from tests.kit.memory_client import CourseClient, check_diagnostics, render_completion, render_hover

COURSE = """
    //- mfcourse.toml
    name = "Demo"
    lessons = ["01.md", "02.md"]
    //- 01.md
    ?[{{ topic }} Python | JavaScript]

    Use {{ to$0pic }} and {{ topc }}.
    %%                    ^^^^^^^^^^ near-miss: Not bound in this course; did you mean
    //- 02.md closed
    {{ x }} first.
    ^^^^^^^ %% unbound-reference
    """


def test_files_cursor_and_annotations() -> None:
    fixture = parse(COURSE)
    assert fixture.files == {
        "mfcourse.toml": 'name = "Demo"\nlessons = ["01.md", "02.md"]\n',
        "01.md": "?[{{ topic }} Python | JavaScript]\n\nUse {{ topic }} and {{ topc }}.\n",
        "02.md": "{{ x }} first.\n",
    }
    assert fixture.cursor == Cursor("01.md", 2, 9)
    assert fixture.closed == {"02.md"}
    # The carets stand under `{{ topc }}` as written, `$0` included: 22..32, then 20..30.
    assert fixture.annotations == [
        Annotation("01.md", 2, 20, 30, "near-miss", "Not bound in this course; did you mean"),
        Annotation("02.md", 0, 0, 7, "unbound-reference"),
    ]


def test_a_fixture_without_header_is_one_lesson() -> None:
    fixture = parse("Hello {{ x }}\n%%    ^^^^^^^ unbound-reference\n")
    assert fixture.files == {"01.md": "Hello {{ x }}\n"}
    assert fixture.cursor is None
    assert fixture.annotations == [Annotation("01.md", 0, 6, 13, "unbound-reference")]


def test_the_common_indentation_goes_and_every_line_ending_stays() -> None:
    fixture = parse("  //- a.md\r\n    x\r\n\r\n  \t\r\n  y\r\n   \n")
    assert fixture.files == {"a.md": "  x\r\n\r\n\r\ny\r\n\n"}


def test_open_ended_and_empty_ranges_and_several_under_one_line() -> None:
    fixture = parse(
        "Ask {{ a }} {{\n"
        "%%  ^^^^^^^ unbound-reference\n"
        "%%          ^^+ unclosed\n"
        "%%            | empty: at the end\n"
    )
    assert fixture.files["01.md"] == "Ask {{ a }} {{\n"
    assert fixture.annotations == [
        Annotation("01.md", 0, 4, 11, "unbound-reference"),
        Annotation("01.md", 0, 12, None, "unclosed"),
        Annotation("01.md", 0, 14, 14, "empty", "at the end"),
    ]


def test_rendering_reads_back_as_the_same_annotations() -> None:
    fixture = parse(COURSE)
    more = [
        *fixture.annotations,
        Annotation("01.md", 0, 2, 13, "binding"),
        Annotation("01.md", 0, 1, None, "wide"),
        Annotation("01.md", 1, 0, 0, "blank"),
    ]
    text = render(fixture.files, more)
    assert text.splitlines()[:6] == [
        "//- 01.md",
        "?[{{ topic }} Python | JavaScript]",
        " " + "^" * 33 + "+ %% wide",  # an open range: to the end of its line
        "%%^^^^^^^^^^^ binding",
        "",
        "| %% blank",
    ]
    again = parse(text)
    assert sorted(again.annotations) == sorted(more)


def test_rendering_with_the_cursor_reads_back_as_the_same_annotations() -> None:
    """A failure shows the cursor line as written, so its annotations can be copied."""
    fixture = parse("Use {{ a$0 }} and {{ b }}.\n%%  ^^^^^^^^^ one\n%%              ^^^^^^^ two\n")
    assert fixture.annotations == [
        Annotation("01.md", 0, 4, 11, "one"),
        Annotation("01.md", 0, 14, 21, "two"),  # `$0` taken out before it
    ]
    text = render(fixture.files, fixture.annotations, cursor=fixture.cursor)
    assert text == (
        "//- 01.md\nUse {{ a$0 }} and {{ b }}.\n%%  ^^^^^^^^^ one\n%%              ^^^^^^^ two\n"
    )
    assert parse(text).annotations == fixture.annotations


@pytest.mark.parametrize(
    ("fixture", "problem"),
    [
        ("%% ^^ code\ntext\n", "an annotation above every text line"),
        ("a $0 b $0\n", "more than one cursor"),
        ("//- a.md\n$0\n//- b.md\n$0\n", "more than one cursor"),
        ("short\n%%    ^^^^^ code\n", "runs past its line"),
        ("//- a.md\n//- a.md\n", "appears twice"),
        ("//- a.md shut\n", "unknown option"),
    ],
)
def test_a_malformed_fixture_is_refused(fixture: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        parse(fixture)


def test_check_diagnostics_pulled() -> None:
    course = check_diagnostics(COURSE.replace(" closed", ""), pull=True)
    assert course.pulls
    assert not [m for m in course.received if m.get("method") == "textDocument/publishDiagnostics"]


def test_check_diagnostics_pushed() -> None:
    course = check_diagnostics(COURSE.replace(" closed", ""), pull=False)
    assert not course.pulls
    assert set(course.published()) == {"01.md", "02.md"}


def test_a_wrong_annotation_fails_with_the_diagnostics_as_annotated_text() -> None:
    wrong = """
        ?[{{ topic }} Python]

        Use {{ topc }} here.
        %%  ^^^^^^^^^^ unbound-reference
        """
    with pytest.raises(AssertionError) as failure:
        check_diagnostics(wrong)
    message = str(failure.value)
    assert message.startswith("the server's diagnostics are not the annotations:\n")
    assert "-%%  ^^^^^^^^^^ unbound-reference\n" in message
    assert "+%%  ^^^^^^^^^^ near-miss: Not bound in this course; did you mean “topic”?" in message
    assert message.endswith(
        "The server's diagnostics, as annotations:\n"
        "//- 01.md\n"
        "?[{{ topic }} Python]\n"
        "\n"
        "Use {{ topc }} here.\n" + message.split("Use {{ topc }} here.\n")[-1]
    )


def test_a_missing_and_an_extra_diagnostic_both_fail() -> None:
    with pytest.raises(AssertionError, match=r"\+%%  \^\^\^\^\^\^\^ unbound-reference"):
        check_diagnostics("Use {{ x }}.\n")
    with pytest.raises(AssertionError, match=r"-%%  \^\^\^\^\^ unbound-reference"):
        check_diagnostics("?[{{ x }} A]\nUse {{ x }}.\n%%  ^^^^^ unbound-reference\n")


def test_a_message_must_start_as_annotated() -> None:
    with pytest.raises(AssertionError, match="near-miss: Not bound"):
        check_diagnostics(
            "?[{{ topic }} A]\nUse {{ topc }}.\n%%  ^^^^^^^^^^ near-miss: Bound elsewhere\n",
        )


def test_positions_are_utf16_for_a_utf16_client() -> None:
    course = CourseClient("😀 {{ a$0 }}\n")
    assert course.encoding == "utf-16"
    assert course.at()["position"] == {"line": 0, "character": 7}  # 6 code points
    assert course.column("01.md", {"line": 0, "character": 7}) == 6


def test_expect_compares_and_updates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(UPDATE, raising=False)
    with pytest.raises(AssertionError, match="no snapshot"):
        expect("one\n", "a.txt", snapshots=tmp_path)
    assert not (tmp_path / "a.txt").exists()
    monkeypatch.setenv(UPDATE, "1")
    expect("one\ntwo", "a.txt", snapshots=tmp_path)
    assert (tmp_path / "a.txt").read_text() == "one\ntwo\n"
    monkeypatch.delenv(UPDATE)
    expect("one\ntwo", "a.txt", snapshots=tmp_path)
    with pytest.raises(AssertionError, match=r"(?s)UPDATE_EXPECT=1 rewrites it.*-two\n\+three"):
        expect("one\nthree\n", "a.txt", snapshots=tmp_path)


def test_renderings() -> None:
    hover = {
        "contents": {"kind": "markdown", "value": "```text\nk\n```"},
        "range": {"start": {"line": 1, "character": 2}, "end": {"line": 1, "character": 9}},
    }
    assert render_hover(hover) == "range 1:2-1:9 (markdown)\n---\n```text\nk\n```"
    assert render_hover(None) == "no hover"
    edit = {"range": hover["range"], "newText": "b }}"}
    completion = {
        "isIncomplete": True,
        "items": [
            {"label": "b", "kind": 6, "sortText": "2", "textEdit": edit},
            {"label": "a", "kind": 15, "detail": "d", "sortText": "1", "insertTextFormat": 2},
        ],
    }
    assert render_completion(completion) == (
        "incomplete: true\na | Snippet | d | insert 'a' snippet\nb | Variable | - | 1:2-1:9 'b }}'"
    )


def test_the_example_in_docs_testing_md_passes() -> None:
    """docs/testing.md shows how to write such a test: its example runs here."""
    docs = Path(__file__).resolve().parents[2] / "docs" / "testing.md"
    (example, *_) = re.findall(r"```python\n(.*?)```", docs.read_text(encoding="utf-8"), re.S)
    scope: dict[str, Any] = {"Path": Path}
    exec(compile(example, __file__, "exec"), scope)
    scope["test_a_near_miss_and_its_hover"]()


def test_the_marks_example_in_docs_testing_md_passes() -> None:
    """docs/testing.md's "Writing a test" compares a feature's ranges with annotations."""
    docs = Path(__file__).resolve().parents[2] / "docs" / "testing.md"
    (_, example, *_) = re.findall(r"```python\n(.*?)```", docs.read_text(encoding="utf-8"), re.S)
    scope: dict[str, Any] = {}
    exec(compile(example, __file__, "exec"), scope)
    scope["test_references_of_a_key"]()


def test_marks_are_compared_exactly_and_rendered_as_annotations() -> None:
    made = course_text("?[{{ go$0al }} A]\n%%   ^^^^^^ write: bound\n{{ goal }}\n")
    made.check([("01.md", 5, 9, "write", "bound")])
    with pytest.raises(
        AssertionError, match=r"(?s)-%%   \^{6} write: bound\n\+%%   \^{6} write: bou\n"
    ):
        made.check([("01.md", 5, 9, "write", "bou")])
    assert made.marked([("01.md", 19, 23, "read"), ("01.md", 0, 15, "whole")]) == (
        "//- 01.md\n?[{{ go$0al }} A]\n^^^^^^^^^^^^^^^^^ %% whole\n{{ goal }}\n%% ^^^^ read\n"
    )
    assert made.marked([("01.md", 2, 19, "across")]) == (
        "//- 01.md\n?[{{ go$0al }} A]\n%%^^^^^^^^^^^^^^^+ across\n{{ goal }}\n"
    )


def test_names_and_texts_in_turn_or_a_mapping_give_the_same_course() -> None:
    by_turns = course("a.md", "?[{{ goal }} A]\n", "b.md", "{{ goal }}\n", config='name = "N"\n')
    by_mapping = course(
        {"a.md": "?[{{ goal }} A]\n", "b.md": "{{ goal }}\n", "mfcourse.toml": 'name = "N"\n'}
    )
    for made in (by_turns, by_mapping):
        [only] = made.snapshot.courses.values()
        assert only.root == ROOT and only.config.name == "N"
        assert set(only.docs) == {made.uri("a.md"), made.uri("b.md")}
    assert by_turns.text("b.md") == by_mapping.text("b.md") == "{{ goal }}\n"


def test_the_cursor_mark_is_taken_out_and_its_offset_kept() -> None:
    made = course("a.md", "x\n", "b.md", "?[{{ go$0al }} A]\n")
    assert made.text("b.md") == "?[{{ goal }} A]\n"
    assert made.offset == 7 == made.offset_of("b.md", "al")
    assert (made.cursor_name, made.cursor_uri) == ("b.md", path_to_uri("/course/b.md"))
    assert made.offset_of("b.md", "{{", 2) == 4


def test_a_missing_or_doubled_cursor_mark_is_an_error() -> None:
    with pytest.raises(ValueError, match="no cursor"):
        _ = course("a.md", "text").offset
    with pytest.raises(ValueError, match="more than one"):
        course("a.md", "$0 and $0")
    with pytest.raises(ValueError, match="more than one"):
        course("a.md", "$0", "b.md", "$0")
    with pytest.raises(TypeError):
        course("a.md")
    with pytest.raises(ValueError, match="twice"):
        course({"mfcourse.toml": ""}, config="")


def test_folders_make_separate_courses() -> None:
    made = course("one/a.md", "x\n", "two/b.md", "y\n", folders=["one", "two"])
    assert sorted(made.snapshot.courses) == ["/course/one", "/course/two"]
    assert made.workspace.disk_problems == ()


@pytest.mark.parametrize(
    "touch",
    [
        lambda: open(os.devnull),  # noqa: SIM115
        lambda: Path(os.devnull).read_text(),
        lambda: Path("/tmp/mfls-feature-test").write_text("x"),
        lambda: os.listdir("/"),
        lambda: os.path.isfile(os.devnull),
        lambda: Path(".").resolve(),
    ],
)
def test_the_file_system_is_out_of_reach(touch: Callable[[], object]) -> None:
    with no_disk(), pytest.raises(DiskTouched):
        touch()
