"""AI-Shifu's learner page, in process: a binding the targeted page versions do not read
gets `page-unreadable-binding` on its key, with a fix (the form they read, or a
course-wide rename whose record is written once the edit is seen applied); an interaction
the page shows otherwise than the runtime reads it gets `page-reads-otherwise`; the
course file's `page` names the versions. Each case is checked against the real remark-flow
packages in tests/hosts/test_learner_page.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.kit.course import dedent
from tests.kit.memory_client import CourseClient, check_diagnostics


def test_bindings_every_page_version_reads_get_nothing() -> None:
    """`https://x` is `https:` saving `x` on the page and in markdown-flow alike."""
    check_diagnostics(
        """
        //- mfcourse.toml
        host = "ai-shifu"
        //- 01.md
        ?[%{{level}} Easy | Hard]

        ?[%{{名字}} ...Your name]

        ?[%{{learner_goal}} Python | JS | ...Other]

        ?[Continue]

        ?[%{{site}} https://x | B]

        Teach {{level}} to {{名字}} for {{learner_goal}} on {{site}}.
        """,
    )


UNREAD_MESSAGES = {
    "The learner page reads no binding of “level” written so. On remark-flow 0.1.6, the "
    "learner gets the buttons `%{{ level }} Easy`, `Hard`. Every targeted page version "
    "reads `%{{level}}`: write that.",
    "The learner page reads no binding of “What would you like to learn?”. On remark-flow "
    "0.1.6, the learner gets the buttons `%{{What would you like to learn?}} Python`, `JS`; "
    "on remark-flow 1.0.0-alpha.7, the learner gets the line as raw text, with nothing to "
    "click or type in. The page reads no binding of this key in any form: rename it in the "
    "whole course to one it reads, such as `what_would_you_like_to_learn`. Answers already "
    "stored under “What would you like to learn?” stay under it.",
    "The learner page reads no binding of “カナ”. On remark-flow 1.0.0-alpha.7, the learner "
    "gets the line as raw text, with nothing to click or type in. The page reads no binding "
    "of this key in any form: rename it in the whole course to one it reads, such as `kana`. "
    "Answers already stored under “カナ” stay under it.",
}
OTHERWISE_MESSAGES = {
    "The learner page shows this interaction unlike markdown-flow 0.3.4. On remark-flow "
    "0.1.6 and remark-flow 1.0.0-alpha.7, the learner gets the buttons `a`, `b`, `c`; "
    "markdown-flow 0.3.4 reads the buttons `a|b`, `c`. Markdown drops a backslash before "
    "punctuation before the page reads the line: the page knows no escapes.",
    "The learner page shows this interaction unlike markdown-flow 0.3.4. On remark-flow "
    "1.0.0-alpha.7, the learner gets the buttons `A`, `B`; markdown-flow 0.3.4 reads the "
    "check boxes `A`, `B`. remark-flow 1.0.0-alpha.7 has no multiple choice.",
    "The learner page shows this interaction unlike markdown-flow 0.3.4. On remark-flow "
    "0.1.6 and remark-flow 1.0.0-alpha.7, the learner gets the one button `...Your "
    "thoughts`; markdown-flow 0.3.4 reads a text input “Your thoughts”. The page reads "
    "`...` as a text input only after a binding.",
    "The learner page shows this interaction unlike markdown-flow 0.3.4. On remark-flow "
    "0.1.6 and remark-flow 1.0.0-alpha.7, the learner gets the buttons `A`, `B`; "
    "markdown-flow 0.3.4 reads the check boxes `A`, `B`. The page offers multiple choice "
    "only after a binding.",
}


def _messages(course: CourseClient) -> set[str]:
    return {d["message"] for d in course.diagnostics(["01.md"])["01.md"]}


def test_a_binding_the_page_cannot_read_says_what_the_learner_gets() -> None:
    course = check_diagnostics(
        """
        //- mfcourse.toml
        host = "ai-shifu"
        //- 01.md
        ?[%{{ level }} Easy | Hard]
        %%^^^^^^^^^^^^ page-unreadable-binding: The learner page reads no binding of “level”

        ?[%{{What would you like to learn?}} Python | JS]
        %%^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ page-unreadable-binding: The learner page reads no

        ?[%{{カナ}} A | B]
        %%^^^^^^^ page-unreadable-binding: The learner page reads no binding of “カナ”. On

        Use {{ level }}, {{What would you like to learn?}} and {{カナ}}.
        """,
    )
    assert _messages(course) >= UNREAD_MESSAGES


def test_where_the_page_shows_an_interaction_otherwise() -> None:
    course = check_diagnostics(
        """
        //- mfcourse.toml
        host = "ai-shifu"
        //- 01.md
        ?[%{{a}} a\\|b | c]
        ^^^^^^^^^^^^^^^^^^ %% page-reads-otherwise: The learner page shows this interaction unlike

        ?[%{{b}} https:\\/\\/x | B]
        ^^^^^^^^^^^^^^^^^^^^^^^^^ %% page-reads-otherwise: The learner page shows this interaction

        ?[%{{c}} A || B]
        ^^^^^^^^^^^^^^^^ %% page-reads-otherwise: The learner page shows this interaction unlike

        ?[%{{d}} A ｜ B]
        ^^^^^^^^^^^^^^^ %% page-reads-otherwise: The learner page shows this interaction unlike

        ?[...Your thoughts]
        ^^^^^^^^^^^^^^^^^^^ %% page-reads-otherwise: The learner page shows this interaction unlike

        ?[A || B]
        ^^^^^^^^^ %% page-reads-otherwise: The learner page shows this interaction unlike

        ?[%{{e}} Read *this* | B]

        Use {{a}} {{b}} {{c}} {{d}} {{e}}.
        """,
    )
    assert _messages(course) >= OTHERWISE_MESSAGES


def test_the_page_setting_chooses_the_versions() -> None:
    lesson = dedent("""
        //- 01.md
        ?[%{{ level }} Easy | Hard]
        %%^^^^^^^^^^^^ page-unreadable-binding
        ?[%{{カナ}} A | B]

        ?[%{{c}} A || B]

        Use {{ level }}, {{カナ}} and {{c}}.
        """)
    check_diagnostics(
        '//- mfcourse.toml\nhost = "ai-shifu"\npage = "remark-flow-0.1.6"\n' + lesson,
    )
    newer = (
        lesson.replace("%%^^^^^^^^^^^^ page-unreadable-binding\n", "")
        .replace(
            "?[%{{カナ}} A | B]\n",
            "?[%{{カナ}} A | B]\n%%^^^^^^^ page-unreadable-binding\n",
        )
        .replace(
            "?[%{{c}} A || B]\n",
            "?[%{{c}} A || B]\n^^^^^^^^^^^^^^^^ %% page-reads-otherwise\n",
        )
    )
    check_diagnostics(
        '//- mfcourse.toml\nhost = "ai-shifu"\npage = ["remark-flow-1.0.0-alpha.7"]\n' + newer,
    )
    check_diagnostics(
        '//- mfcourse.toml\nhost = "ai-shifu"\npage = []\n'
        + lesson.replace("%%^^^^^^^^^^^^ page-unreadable-binding\n", ""),
    )
    check_diagnostics(
        '//- mfcourse.toml\nname = "Elsewhere"\ntarget = "markdown-flow-0.3.4"\n'
        + lesson.replace("%%^^^^^^^^^^^^ page-unreadable-binding\n", ""),
    )


def test_a_bad_page_setting_is_a_course_file_problem() -> None:
    check_diagnostics(
        """
        //- mfcourse.toml
        host = "ai-shifu"
        page = "remark-flow-1.2.0"
        ^^^^ %% course-file-invalid: `page` names no learner page mfls checks
        //- 01.md
        ?[%{{ level }} Easy | Hard]
        %%^^^^^^^^^^^^ page-unreadable-binding
        Use {{ level }}.
        """,
    )


def _fixes(course: CourseClient, path: str, needle: str) -> list[dict[str, Any]]:
    found = course.quick_fixes(path, course.text(path).index(needle) + 3)
    return [a for a in found if a["title"].startswith(("Write", "Rename"))]


def test_the_fix_writes_the_form_the_page_reads() -> None:
    course = CourseClient(
        '//- mfcourse.toml\nhost = "ai-shifu"\n//- 01.md\n?[%{{ level }} Easy | Hard]\n\n'
        "Use {{ level }}.\n",
    )
    [fix] = _fixes(course, "01.md", "%{{ level")
    assert fix["title"] == "Write %{{level}}"
    after = course.applied(fix["edit"])
    assert after == {"01.md": "?[%{{level}} Easy | Hard]\n\nUse {{ level }}.\n"}


def test_the_rename_fix_renames_the_key_course_wide_and_is_recorded(tmp_path: Path) -> None:
    course = CourseClient(
        tmp_path,
        """
        //- mfcourse.toml
        host = "ai-shifu"
        //- 01.md
        ?[%{{What would you like to learn?}} Python | JS]

        You chose {{What would you like to learn?}}.
        //- 02.md closed
        More on {{ What would you like to learn? }}.
        """,
        on_disk=True,
    )
    location = course.root / ".mfls" / "renames.jsonl"
    [fix] = _fixes(course, "01.md", "%{{What")
    assert fix["title"] == (
        "Rename What would you like to learn? to what_would_you_like_to_learn in the whole "
        "course (stored answers stay under What would you like to learn?)"
    )
    assert fix["kind"] == "quickfix"
    texts = course.applied(fix["edit"])
    assert texts == {
        "01.md": "?[%{{what_would_you_like_to_learn}} Python | JS]\n\n"
        "You chose {{ what_would_you_like_to_learn }}.\n",
        "02.md": "More on {{ what_would_you_like_to_learn }}.\n",
    }
    # Offered twice, applied once: one record, written once both files hold the edit.
    assert len(_fixes(course, "01.md", "%{{What")) == 1
    course.settle()
    assert not location.exists(), "an offered fix is not a rename yet"
    course.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": course.uri("01.md"), "version": 2},
            "contentChanges": [{"text": texts["01.md"]}],
        },
    )
    (course.root / "02.md").write_text(texts["02.md"], "utf-8")
    course.notify(
        "workspace/didChangeWatchedFiles", {"changes": [{"uri": course.uri("02.md"), "type": 2}]}
    )
    course.settle()
    [line] = location.read_text("utf-8").splitlines()
    record = json.loads(line)
    assert record["old_key"] == "What would you like to learn?"
    assert record["new_key"] == "what_would_you_like_to_learn"
    assert sorted(f["path"] for f in record["files"]) == ["01.md", "02.md"]
    after = course.diagnostics(["01.md"])["01.md"]
    assert [d["code"] for d in after] == []
