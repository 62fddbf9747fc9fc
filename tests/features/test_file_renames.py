"""The edits that keep structure.json and an mfcourse.toml lesson list naming the same
lessons when lesson files are renamed or moved (`workspace/willRenameFiles`)."""

from __future__ import annotations

import json
import os

from mfls.features.file_renames import course_file_edits, structure_edits

ROOT = os.path.join(os.sep, "course")


def at(*parts: str) -> str:
    return os.path.join(ROOT, *parts)


def applied(text: str, edits: list[tuple[int, int, str]]) -> str:
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


STRUCTURE = json.dumps(
    {
        "chapters": [
            {"title": "One", "lessons": [{"file": "lesson-01.md", "title": "A"}]},
            {
                "title": "Two",
                "lessons": [
                    {"file": "part/lesson-02.md", "title": "B", "hidden": True},
                    {"file": "lesson-03.md", "title": "C"},
                    {"file": "lesson-01.md", "title": "A twice"},
                ],
            },
        ]
    },
    indent=2,
    ensure_ascii=False,
)


def files(text: str) -> list[str]:
    return [les["file"] for c in json.loads(text)["chapters"] for les in c["lessons"]]


def test_a_renamed_lesson_keeps_its_entries() -> None:
    renames = [(at("lessons", "lesson-01.md"), at("lessons", "intro é.md"))]
    after = applied(STRUCTURE, structure_edits(ROOT, STRUCTURE, renames))
    assert files(after) == ["intro é.md", "part/lesson-02.md", "lesson-03.md", "intro é.md"]
    # Only the names changed: every other byte is where it was.
    assert after.replace("intro é.md", "lesson-01.md") == STRUCTURE


def test_a_moved_folder_and_a_lesson_moved_out_of_lessons() -> None:
    renames = [
        (at("lessons", "part"), at("lessons", "chapter two")),
        (at("lessons", "lesson-03.md"), at("drafts", "lesson-03.md")),
    ]
    after = applied(STRUCTURE, structure_edits(ROOT, STRUCTURE, renames))
    # Out of lessons/ the tool cannot read it: left for the missing-file diagnostic.
    assert files(after) == [
        "lesson-01.md",
        "chapter two/lesson-02.md",
        "lesson-03.md",
        "lesson-01.md",
    ]


def test_nothing_for_other_files_or_broken_json() -> None:
    renames = [(at("README.md"), at("READ.md"))]
    assert structure_edits(ROOT, STRUCTURE, renames) == []
    broken = STRUCTURE[:-3]
    renames = [(at("lessons", "lesson-01.md"), at("lessons", "x.md"))]
    assert structure_edits(ROOT, broken, renames) == []


def test_a_byte_order_mark_keeps_the_places() -> None:
    text = "\ufeff" + STRUCTURE
    renames = [(at("lessons", "lesson-03.md"), at("lessons", "three.md"))]
    after = applied(text, structure_edits(ROOT, text, renames))
    assert after == "\ufeff" + STRUCTURE.replace('"lesson-03.md"', '"three.md"')


COURSE_FILE = """# An AI-Shifu course, unpacked by `mfls unpack`.
name = "A [course]"
host = "ai-shifu"
lessons = [
  "01-Basics/01-Ask.md",  # hidden
  '01-Basics/02-Use.md',
  "02-More/*.md",
  "03-Loose.md",  # not in the structure "quoted"
]
references = ["prompts/**/*.md"]

[diagnostics]
lessons = "x"
"""


def test_a_course_file_lesson_list_follows_by_name() -> None:
    renames = [
        (at("01-Basics"), at("01-Start")),
        (at("03-Loose.md"), at("03-Loose \u007f.md")),
        (at("02-More", "a.md"), at("02-More", "b.md")),
    ]
    after = applied(COURSE_FILE, course_file_edits(ROOT, COURSE_FILE, renames))
    assert after == COURSE_FILE.replace('"01-Basics/01-Ask.md"', '"01-Start/01-Ask.md"').replace(
        "'01-Basics/02-Use.md'", '"01-Start/02-Use.md"'
    ).replace('"03-Loose.md"', '"03-Loose \\u007f.md"')
