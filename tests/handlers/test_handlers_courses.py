"""Courses, in process: multi-root isolation, disk changes, course files, folders. Moved
from tests/e2e/test_e2e_courses.py (whose watcher registration test stays there)."""

from __future__ import annotations

from pathlib import Path

from tests.kit.memory_client import CourseClient, check_diagnostics, vscode_capabilities

NEOVIM = vscode_capabilities(client="neovim@v0.11")
CHANGED, CREATED, DELETED = 2, 1, 3
ERROR = 1


def codes(course: CourseClient, path: str) -> list[str]:
    report = course.call("textDocument/diagnostic", {"textDocument": {"uri": course.uri(path)}})
    return sorted(str(d["code"]) for d in report["items"])


def watched(course: CourseClient, path: str, change: int) -> None:
    changes = [{"uri": course.uri(path), "type": change}]
    course.notify("workspace/didChangeWatchedFiles", {"changes": changes})


def test_two_courses_with_the_same_key_share_nothing() -> None:
    course = check_diagnostics(
        """
        //- a/mfcourse.toml
        name = "Course A"
        //- a/01.md closed
        ?[{{ your name }} ...type it]

        ?[{{ only in a }} X | Y]
        //- a/02.md
        Hello {{ your name }}.
        //- b/mfcourse.toml
        name = "Course B"
        //- b/01.md
        Hello {{$0 your name }}.
        %%    ^^^^^^^^^^^^^^^^^ unbound-reference
        """,
        capabilities=NEOVIM,
        folders=["a", "b"],
    )
    assert course.call("textDocument/definition", course.at()) in (None, [])
    references = course.call(
        "textDocument/references", {**course.at(), "context": {"includeDeclaration": True}}
    )
    assert [course.path_of(r["uri"]) for r in references] == ["b/01.md"]

    course.change("b/01.md", 1, 0, 0, "{{")
    completion = course.call(
        "textDocument/completion",
        {"textDocument": {"uri": course.uri("b/01.md")}, "position": {"line": 1, "character": 2}},
    )
    labels = [item["label"] for item in completion["items"]]
    assert "your name" in labels
    assert "only in a" not in labels

    symbols = course.call("workspace/symbol", {"query": "your"})
    containers = sorted(s.get("containerName", "") for s in symbols if s["name"] == "your name")
    assert containers == ["Course A", "Course B"]


def test_closed_files_edited_created_and_deleted_on_disk(tmp_path: Path) -> None:
    course = CourseClient(
        tmp_path,
        """
        //- 01-ask.md closed
        ?[{{ colour }} Red | Blue]
        //- 02-use.md
        Paint it {{ colour }}, then {{ fresh }}.
        """,
        capabilities=NEOVIM,
        on_disk=True,
    )
    registrations = [m for m in course.received if m.get("method") == "client/registerCapability"]
    watchers = [
        r
        for m in registrations
        for r in m["params"]["registrations"]
        if r["method"] == "workspace/didChangeWatchedFiles"
    ]
    assert not watchers, "neovim 0.11 has no dynamic registration for file watching"
    assert codes(course, "02-use.md") == ["unbound-reference"]

    # A closed lesson edited on disk: its binding goes away.
    (course.root / "01-ask.md").write_text("No question here any more.\n")
    watched(course, "01-ask.md", CHANGED)
    assert codes(course, "02-use.md") == ["unbound-reference", "unbound-reference"]

    # A new lesson binding both keys.
    (course.root / "03-new.md").write_text("?[{{ colour }} A | B]\n\n?[{{ fresh }} C | D]\n")
    watched(course, "03-new.md", CREATED)
    assert codes(course, "02-use.md") == ["read-before-asked", "read-before-asked"]

    # ... deleted again.
    (course.root / "03-new.md").unlink()
    watched(course, "03-new.md", DELETED)
    assert codes(course, "02-use.md") == ["unbound-reference", "unbound-reference"]


def test_an_open_buffer_wins_over_the_disk_copy() -> None:
    course = CourseClient(
        """
        //- 01.md closed
        ?[{{ a }} X | Y]
        //- 02.md
        Use {{ a }}.
        """,
        capabilities=NEOVIM,
    )
    course.open("01.md", "No binding in the buffer.\n")
    assert codes(course, "02.md") == ["unbound-reference"]
    course.notify("textDocument/didClose", {"textDocument": {"uri": course.uri("01.md")}})
    assert codes(course, "02.md") == []


def test_a_malformed_course_file_uses_defaults_and_says_so(tmp_path: Path) -> None:
    # The defaults still index the lesson: only the unbound key is reported.
    course = check_diagnostics(
        tmp_path,
        """
        //- mfcourse.toml
        name = "Broken
        %%            ^+ course-file-invalid: The course file is not valid TOML.
        lessons = [
        //- lesson.md
        ?[{{ q }} A | B]

        Use {{ q }} and {{ nope }}.
        %%              ^^^^^^^^^^ unbound-reference
        """,
        pull=False,
        on_disk=True,
    )
    messages = [
        m["params"]["message"] for m in course.received if m.get("method") == "window/showMessage"
    ]
    assert any("mfcourse.toml" in message for message in messages), messages
    (invalid,) = course.published()["mfcourse.toml"]["diagnostics"]
    assert invalid["severity"] == ERROR

    # Fixed on disk: the course file's diagnostic is withdrawn, its settings apply.
    (course.root / "mfcourse.toml").write_text('[diagnostics]\nunbound-reference = "off"\n')
    watched(course, "mfcourse.toml", CHANGED)
    course.settle()
    published = course.published()
    assert published["mfcourse.toml"]["diagnostics"] == []
    assert published["lesson.md"]["diagnostics"] == []


def test_workspace_folders_added_and_removed() -> None:
    course = CourseClient(
        """
        //- a/01.md closed
        ?[{{ shared }} X | Y]
        //- b/01.md closed
        Use {{ shared }}.
        """,
        capabilities=NEOVIM,
        folders=["b"],
    )

    def found() -> list[str]:
        symbols = course.call("workspace/symbol", {"query": "shared"})
        return [course.path_of(s["location"]["uri"]) for s in symbols]

    assert found() == ["b/01.md"]
    event = {"added": [course.folder("a")], "removed": [course.folder("b")]}
    course.notify("workspace/didChangeWorkspaceFolders", {"event": event})
    assert found() == ["a/01.md"]


def test_a_file_outside_every_folder_is_a_course_of_its_own() -> None:
    course = CourseClient(
        """
        //- course/01.md closed
        ?[{{ k }} X | Y]
        //- loose/note.mdflow
        Use {{ k }}.
        """,
        capabilities=NEOVIM,
        folders=["course"],
    )
    course.open("loose/note.mdflow", language="markdownflow")
    assert codes(course, "loose/note.mdflow") == ["unbound-reference"]
