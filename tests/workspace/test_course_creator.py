"""The AI-Shifu course folder (the course tool's layout) read as a course: what is
recognised, lessons and their order, the course prompt, structure.json's problems."""

from __future__ import annotations

import json
from pathlib import Path

from mfls.features.diagnostics import document_diagnostics, structure_file_diagnostics
from mfls.workspace.index import CourseSnapshot
from mfls.workspace.uris import path_to_uri
from mfls.workspace.workspace import Workspace


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def structure(*chapters: tuple[str, list[str]]) -> str:
    return json.dumps(
        {
            "chapters": [
                {"title": title, "lessons": [{"file": f, "title": f.upper()} for f in files]}
                for title, files in chapters
            ]
        },
        indent=2,
    )


def indexed(folder: Path) -> Workspace:
    workspace = Workspace()
    workspace.set_folders([str(folder)])
    workspace.index_all()
    return workspace


def course_of(workspace: Workspace, root: Path) -> CourseSnapshot:
    return workspace.snapshot.courses[str(root)]


def members(course: CourseSnapshot, root: Path) -> list[tuple[str, str]]:
    ordered = sorted(course.docs.values(), key=lambda e: e.order)
    return [(str(Path(e.path or "").relative_to(root)), e.kind) for e in ordered]


def codes(workspace: Workspace, path: Path) -> list[tuple[str, int]]:
    found = document_diagnostics(workspace.snapshot, path_to_uri(str(path)))
    return [(d.code, d.start) for d in found]


def test_structure_order_course_prompt_first_and_other_files_not_lessons(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "README.md": "# The course\n\nNotes {{ in_readme }}\n",
            "course-description.md": "About {{ in_description }}\n",
            "course-prompt.md": "You teach.\n",
            "structure.json": structure(("One", ["b.md"]), ("Two", ["a.md"])),
            "lessons/a.md": "?[%{{ goal }}...Your goal]\n",
            "lessons/b.md": "Aim for {{ goal }}\n",
            "lessons/lesson-99.md": "not listed\n",
            "assets/raw/notes.md": "{{ nothing }}\n",
            "lessons/b.md.local-20260101T000000Z.bak": "old\n",
        },
    )
    workspace = indexed(tmp_path)
    course = course_of(workspace, tmp_path)
    assert members(course, tmp_path) == [
        ("course-prompt.md", "reference"),
        ("lessons/b.md", "lesson"),
        ("lessons/a.md", "lesson"),
    ]
    assert (course.name, course.config.host) == ("The course", "ai-shifu")
    # b.md is listed first and reads what a.md (listed later) asks.
    assert codes(workspace, tmp_path / "lessons/b.md") == [("read-before-asked", 8)]
    assert course.config.layout is not None
    assert [(lesson.chapter, lesson.title) for lesson in course.config.layout.lessons] == [
        ("One", "B.MD"),
        ("Two", "A.MD"),
    ]


def test_the_course_prompt_reads_and_grants_nothing(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "course-prompt.md": "Call them {{sys_user_nickname}}; aim {{goal}}; {{nobody}}\n"
            "?[%{{ prompt_key }}...x]\n",
            "structure.json": structure(("One", ["lesson-01.md"])),
            "lessons/lesson-01.md": "?[%{{goal}}...Your goal]\nUse {{prompt_key}}\n",
        },
    )
    workspace = indexed(tmp_path)
    prompt = tmp_path / "course-prompt.md"
    text = prompt.read_text()
    # Host-provided: nothing. Asked by a lesson: read before it is asked (the prompt runs
    # before every lesson). Asked nowhere: unbound. Its own binding grants nothing.
    assert codes(workspace, prompt) == [
        ("read-before-asked", text.index("{{goal")),
        ("unbound-reference", text.index("{{nobody")),
        ("binding-in-reference", text.index("%{{ prompt_key")),
    ]
    lesson = codes(workspace, tmp_path / "lessons/lesson-01.md")
    assert [code for code, _ in lesson] == ["unbound-reference"]


def test_host_ai_shifu_applies(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            ".shifu-sync.json": "{}",
            "lessons/lesson-01.md": "?[%{{level}} Beginner | Expert]\n"
            "Hello {{sys_user_nickname}} in {{sys_user_language}}, {{level}}\n",
        },
    )
    workspace = indexed(tmp_path)
    # No legacy-binding hint (markdown-flow binds only %{{key}}), sys_user_* provided.
    assert codes(workspace, tmp_path / "lessons/lesson-01.md") == []
    # The production runtime, ai-shifu's default target.
    assert course_of(workspace, tmp_path).config.runtime_target == "markdown-flow-0.3.4"


def test_without_structure_the_lessons_are_lesson_files_in_number_order(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            ".shifu-sync.json": "{}",
            "lessons/lesson-10.md": "Use {{k}}\n",
            "lessons/lesson-2.md": "?[%{{k}}...k]\n",
            "lessons/intro.md": "not a lesson\n",
        },
    )
    course = course_of(indexed(tmp_path), tmp_path)
    assert members(course, tmp_path) == [
        ("lessons/lesson-2.md", "lesson"),
        ("lessons/lesson-10.md", "lesson"),
    ]


def test_not_recognised_without_lessons_folder(tmp_path: Path) -> None:
    write(tmp_path, {"structure.json": structure(("One", ["a.md"])), "a.md": "{{ k }}\n"})
    course = course_of(indexed(tmp_path), tmp_path)
    assert course.config.layout is None
    assert course.config.host == "generic"


def structure_problems(workspace: Workspace, root: Path) -> list[tuple[str, str]]:
    text = (root / "structure.json").read_text()
    found = structure_file_diagnostics(workspace.snapshot, str(root))
    return [(d.code, text[d.start : d.end]) for d in found]


def test_missing_duplicate_and_outside_files_are_diagnostics_at_their_place(
    tmp_path: Path,
) -> None:
    (tmp_path / "secret.md").write_text("?[%{{ k }}...k]\n")
    course_root = tmp_path / "course"
    write(
        course_root,
        {
            "structure.json": structure(
                ("One", ["a.md", "gone.md", "a.md", "../../secret.md", "/etc/passwd"])
            ),
            "lessons/a.md": "{{ k }}\n",
        },
    )
    workspace = indexed(course_root)
    assert structure_problems(workspace, course_root) == [
        ("course-file-invalid", '"gone.md"'),
        ("course-file-invalid", '"a.md"'),
        ("course-file-invalid", '"../../secret.md"'),
        ("course-file-invalid", '"/etc/passwd"'),
    ]
    messages = [d.message for d in structure_file_diagnostics(workspace.snapshot, str(course_root))]
    assert "not in lessons/" in messages[0]
    assert "second time" in messages[1]
    assert "outside the course folder" in messages[2]
    course = course_of(workspace, course_root)
    # Nothing outside the course was read: the key stays unbound in a.md.
    assert members(course, course_root) == [("lessons/a.md", "lesson")]
    assert [c for c, _ in codes(workspace, course_root / "lessons/a.md")] == ["unbound-reference"]


def test_invalid_json_is_a_diagnostic_and_lesson_files_still_count(tmp_path: Path) -> None:
    broken = '{"chapters": [\n  {"title": "One", "lessons": [}\n]}\n'
    write(tmp_path, {"structure.json": broken, "lessons/lesson-01.md": "{{ k }}\n"})
    workspace = indexed(tmp_path)
    found = structure_file_diagnostics(workspace.snapshot, str(tmp_path))
    assert [(d.code, d.start) for d in found] == [("course-file-invalid", broken.index("}"))]
    assert "not valid JSON" in found[0].message
    course = course_of(workspace, tmp_path)
    assert members(course, tmp_path) == [("lessons/lesson-01.md", "lesson")]


def test_wrong_shapes_are_diagnostics_not_crashes(tmp_path: Path) -> None:
    text = (
        '{"chapters": [3, {"title": 5, "lessons": "x"}, {"title": "T", "lessons": [{"file": 1}]}]}'
    )
    write(tmp_path, {"structure.json": text, "lessons/lesson-01.md": "x\n"})
    workspace = indexed(tmp_path)
    assert structure_problems(workspace, tmp_path) == [
        ("course-file-invalid", "3"),
        ("course-file-invalid", "5"),
        ("course-file-invalid", '"x"'),
        ("course-file-invalid", "1"),
    ]


def test_a_course_file_beside_wins_for_what_it_sets(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "mfcourse.toml": '[diagnostics]\nread-before-asked = "warning"\n',
            "structure.json": structure(("One", ["b.md", "a.md"])),
            "lessons/a.md": "?[%{{ goal }}...Your goal]\n",
            "lessons/b.md": "Aim for {{ goal }}\n",
        },
    )
    workspace = indexed(tmp_path)
    course = course_of(workspace, tmp_path)
    assert course.config.host == "ai-shifu"
    assert members(course, tmp_path) == [("lessons/b.md", "lesson"), ("lessons/a.md", "lesson")]
    found = document_diagnostics(workspace.snapshot, path_to_uri(str(tmp_path / "lessons/b.md")))
    assert [(d.code, d.severity) for d in found] == [("read-before-asked", "warning")]
    # A course file that sets host and lessons decides those.
    (tmp_path / "mfcourse.toml").write_text('host = "generic"\nlessons = ["lessons/a.md"]\n')
    course = course_of(indexed(tmp_path), tmp_path)
    assert course.config.host == "generic"
    assert members(course, tmp_path) == [("lessons/a.md", "lesson")]


def test_a_deleted_lesson_gets_the_missing_file_diagnostic(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "structure.json": structure(("One", ["lesson-01.md", "lesson-02.md"])),
            "lessons/lesson-01.md": "?[%{{ k }}...k]\n",
            "lessons/lesson-02.md": "{{ k }}\n",
        },
    )
    workspace = indexed(tmp_path)
    assert structure_problems(workspace, tmp_path) == []
    gone = tmp_path / "lessons/lesson-01.md"
    gone.unlink()
    workspace.files_changed([(str(gone), "deleted")])
    assert structure_problems(workspace, tmp_path) == [("course-file-invalid", '"lesson-01.md"')]
    assert [c for c, _ in codes(workspace, tmp_path / "lessons/lesson-02.md")] == [
        "unbound-reference"
    ]


def test_the_hash_is_the_course_tools(tmp_path: Path) -> None:
    import hashlib

    from mfls.features.sync_status import tool_sha256

    for raw in ["a\r\nb\rc\n", "\ufeffplain", "", "\r", "x\n\r\n"]:
        path = tmp_path / "lesson.md"
        path.write_bytes(raw.encode("utf-8"))
        # `_sha256_file` of shifu-cli.py: the file read in text mode, UTF-8.
        with open(path, encoding="utf-8") as file:
            expected = hashlib.sha256(file.read().encode("utf-8")).hexdigest()
        assert tool_sha256(raw) == expected


def test_a_link_out_of_the_course_is_never_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("?[%{{ k }}...k]\n")
    root = tmp_path / "course"
    write(
        root,
        {
            "structure.json": structure(("One", ["evil.md", "a.md"])),
            "lessons/a.md": "{{ k }}\n",
        },
    )
    (root / "lessons" / "evil.md").symlink_to(outside)
    workspace = indexed(root)
    course = course_of(workspace, root)
    # The link is listed but its target lies outside: not read, so `k` stays unbound.
    assert "lessons/evil.md" not in [path for path, _ in members(course, root) if path]
    assert [c for c, _ in codes(workspace, root / "lessons/a.md")] == ["unbound-reference"]


def test_structure_json_as_a_trap(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps({"chapters": [{"title": "S", "lessons": [{"file": "x.md"}]}]}))
    for name, make in [
        ("fifo", lambda p: os.mkfifo(p)),
        ("zero", lambda p: p.symlink_to("/dev/zero")),
        ("out", lambda p: p.symlink_to(secret)),
    ]:
        root = tmp_path / name
        write(root, {".shifu-sync.json": "{}", "lessons/lesson-01.md": "{{ k }}\n"})
        make(root / "structure.json")
        done = subprocess.run(
            [sys.executable, "-m", "mfls", "check", str(root)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode in (0, 1), done.stderr
        # The lessons are lesson-*.md; nothing behind the link was read as the structure.
        assert "lesson-01.md:1:1: warning unbound-reference" in done.stdout, name
        assert "x.md" not in done.stdout + done.stderr
