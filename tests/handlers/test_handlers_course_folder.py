"""An AI-Shifu course folder (the course tool's layout), in process: structure order,
structure.json's problems published on it, a deleted lesson's entry, file renames,
completion and rename within the course, and what changed since the last pull. Moved
from tests/e2e/test_e2e_course_folder.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.kit.course import Fixture
from tests.kit.memory_client import CourseClient, check_diagnostics

CHANGED, CREATED, DELETED = 2, 1, 3


def watched(course: CourseClient, *changes: tuple[str, int]) -> None:
    events = [{"uri": course.uri(path), "type": change} for path, change in changes]
    course.notify("workspace/didChangeWatchedFiles", {"changes": events})


def test_structure_json_problems_and_order_in_the_server(tmp_path: Path) -> None:
    # Listed first, lesson-02 reads what lesson-01 asks.
    course = check_diagnostics(
        tmp_path,
        """
        //- README.md closed
        # A course
        //- course-prompt.md closed
        Teach {{ sys_user_nickname }}.
        //- structure.json
        {"chapters": [{"title": "One", "lessons": [
          {"file": "lesson-02.md", "title": "lesson-02.md"},
          {"file": "lesson-01.md", "title": "lesson-01.md"},
          {"file": "gone.md", "title": "gone.md"}
          %%       ^^^^^^^^^ course-file-invalid: `gone.md` is not in lessons/
        ]}]}
        //- lessons/lesson-01.md closed
        ?[%{{ goal }}...Your goal]
        //- lessons/lesson-02.md
        Aim for {{ goal }}
        %%      ^^^^^^^^^^ read-before-asked
        """,
        pull=False,
        on_disk=True,
    )
    # The editor reports changes to the folder's structure and sync record.
    globs = {
        watcher["globPattern"]
        for message in course.received
        if message.get("method") == "client/registerCapability"
        for registration in message["params"]["registrations"]
        for watcher in registration["registerOptions"]["watchers"]
        if isinstance(watcher["globPattern"], str)
    }
    assert {"**/structure.json", "**/.shifu-sync.json"} <= globs

    # The asking lesson deleted: its entry gets the missing-file diagnostic.
    (course.root / "lessons/lesson-01.md").unlink()
    watched(course, ("lessons/lesson-01.md", DELETED))
    course.settle()
    published = course.published()
    structure = published["structure.json"]["diagnostics"]
    assert [(d["range"]["start"]["line"], d["code"]) for d in structure] == [
        (2, "course-file-invalid"),
        (3, "course-file-invalid"),
    ]
    assert "`lesson-01.md` is not in lessons/" in structure[0]["message"]
    lesson = published["lessons/lesson-02.md"]["diagnostics"]
    assert [d["code"] for d in lesson] == ["unbound-reference"]

    # structure.json broken: one diagnostic at the place, nothing crashes.
    (course.root / "structure.json").write_text('{"chapters": [\n  {"title": }\n]}\n')
    watched(course, ("structure.json", CHANGED))
    course.settle()
    (broken,) = course.published()["structure.json"]["diagnostics"]
    assert broken["range"]["start"]["line"] == 1
    assert "not valid JSON" in broken["message"]
    assert "lessons/lesson-02.md" in course.published()


STRUCTURE = """
    //- structure.json
    {"chapters": [{"title": "One", "lessons": [
      {"file": "lesson-01.md", "title": "lesson-01.md"},
      {"file": "lesson-02.md", "title": "lesson-02.md"}
    ]}]}
    """


def test_will_rename_files_keeps_structure_json_naming_the_lessons(tmp_path: Path) -> None:
    course = CourseClient(
        tmp_path,
        STRUCTURE
        + """
    //- lessons/lesson-01.md closed
    ?[%{{ goal }}...Your goal]
    //- lessons/lesson-02.md closed
    Aim for {{ goal }}
    """,
        on_disk=True,
    )
    will_rename = course.initialized["capabilities"]["workspace"]["fileOperations"]["willRename"]
    assert will_rename
    old, new = "lessons/lesson-01.md", "lessons/ask goal.md"
    files = [{"oldUri": course.uri(old), "newUri": course.uri(new)}]
    edit = course.call("workspace/willRenameFiles", {"files": files})
    assert edit == {
        "changes": {
            course.uri("structure.json"): [
                {
                    "range": {
                        "start": {"line": 1, "character": 11},
                        "end": {"line": 1, "character": 25},
                    },
                    "newText": '"ask goal.md"',
                }
            ]
        }
    }

    # The editor applies it, renames the file and reports both: the course keeps its
    # order and no entry is missing.
    text = course.text("structure.json").replace('"lesson-01.md"', '"ask goal.md"', 1)
    (course.root / "structure.json").write_text(text)
    (course.root / old).rename(course.root / new)
    watched(course, (old, DELETED), (new, CREATED), ("structure.json", CHANGED))
    course.open("lessons/lesson-02.md")
    course.settle()
    published = course.published()
    assert published["lessons/lesson-02.md"]["diagnostics"] == []
    assert not published.get("structure.json", {}).get("diagnostics")
    # A file no course lists: no edit.
    other = [{"oldUri": course.uri("notes.md"), "newUri": course.uri("n.md")}]
    assert course.call("workspace/willRenameFiles", {"files": other}) is None


def test_completion_and_rename_follow_the_course_folder() -> None:
    course = CourseClient(
        STRUCTURE
        + """
    //- README.md closed
    # A course

    Not a lesson: {{ goal }}
    //- course-prompt.md closed
    Keep {{ goal }} in mind.
    //- lessons/lesson-01.md closed
    ?[%{{ goal }}...Your goal]
    //- lessons/lesson-02.md
    Aim for {{ go$0al }}
    {{
    //- lessons/notes.md closed
    {{ goal }} (not listed)
    """,
    )
    lesson = {"textDocument": {"uri": course.uri("lessons/lesson-02.md")}}
    completion = course.call(
        "textDocument/completion", {**lesson, "position": {"line": 1, "character": 2}}
    )
    items = completion["items"] if isinstance(completion, dict) else completion
    assert "goal" in [item["label"] for item in items]
    edit = course.call("textDocument/rename", {**course.at(), "newName": "aim"})
    changed = {
        course.path_of(change["textDocument"]["uri"]): [e["newText"] for e in change["edits"]]
        for change in edit["documentChanges"]
    }
    # The lessons and the course prompt: not README.md, not a file structure.json omits.
    assert changed == {
        "lessons/lesson-01.md": ["%{{aim}}"],  # the learner page's form
        "lessons/lesson-02.md": ["{{ aim }}"],
        "course-prompt.md": ["{{ aim }}"],
    }


def unpacked_folder() -> Fixture:
    """A course folder as `mfls unpack --layout course-creator` lays it out (so
    `.shifu-sync.json` holds the hashes of the lessons as written); only lesson-01 is
    opened."""
    from mfls.exports.ai_shifu import Export, read_export
    from mfls.exports.course_creator import unpack_course_creator
    from tests.kit.exports import dumps, export, item, node

    items = [
        item("c", "Chapter"),
        item("a", "Ask", "?[%{{ goal }}...Your goal]\n", parent="c"),
        item("b", "Use", "Aim for {{ goal }}\r\nand more\n", parent="c"),
        item("d", "Last", "Bye\n", parent="c"),
    ]
    source = dumps(export(items, [node("c", [node("a"), node("b"), node("d")])]))
    loaded = read_export(source)
    assert isinstance(loaded, Export)
    files = {
        name: data.decode("utf-8")
        for name, data in unpack_course_creator(loaded, source, "x.json").files.items()
    }
    return Fixture(files=files, closed=set(files) - {"lessons/lesson-01.md"})


def test_changed_since_last_pull_in_the_course_status(tmp_path: Path) -> None:
    """Moved from tests/e2e/test_e2e_course_folder.py."""
    course = CourseClient(tmp_path, unpacked_folder(), on_disk=True)
    first = course.uri("lessons/lesson-01.md")

    def since() -> tuple[dict[str, Any], dict[str, Any]]:
        asked = {"arguments": [first]}
        info = course.call("workspace/executeCommand", {"command": "mfls.courseInfo", **asked})
        keys = course.call("workspace/executeCommand", {"command": "mfls.courseKeys", **asked})
        return info["sinceLastPull"], keys["sinceLastPull"]

    # As the tool computes the hash, lesson-02 (written with \r\n, read in text mode as
    # \n) already differs from what pull recorded; the others match.
    info, keys = since()
    assert info == keys
    assert [c["file"] for c in info["changed"]] == ["lessons/lesson-02.md"]
    assert info["gone"] == []

    # An edit in the editor counts before it is saved.
    course.versions["lessons/lesson-01.md"] += 1
    course.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": first, "version": course.versions["lessons/lesson-01.md"]},
            "contentChanges": [{"text": "?[%{{ goal }}...Goal]\n"}],
        },
    )
    info, _ = since()
    assert [c["file"] for c in info["changed"]] == [
        "lessons/lesson-01.md",
        "lessons/lesson-02.md",
    ]

    # Renamed on disk (the structure follows): the recorded name is gone, and the answer
    # says what the course tool will do with it.
    old, new = "lessons/lesson-03.md", "lessons/last.md"
    (course.root / old).rename(course.root / new)
    listed = json.loads((course.root / "structure.json").read_text())
    listed["chapters"][0]["lessons"][2]["file"] = "last.md"
    (course.root / "structure.json").write_text(json.dumps(listed, indent=2) + "\n")
    watched(course, (old, DELETED), (new, CREATED), ("structure.json", CHANGED))
    info, _ = since()
    assert info["gone"] == [{"file": "lessons/lesson-03.md", "name": "Last"}]
    assert "`status` counts it up to date" in info["goneFate"]
    assert "`import --course-dir` recreates every lesson" in info["goneFate"]
