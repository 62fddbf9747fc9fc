import logging
import threading
from pathlib import Path

import pytest
from ws_kit import Recorder

from mfls.workspace.uris import path_to_uri
from mfls.workspace.workspace import Workspace


def write(root: Path, files: dict[str, str | bytes]) -> None:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode() if isinstance(content, str) else content)


def indexed(*folders: Path) -> tuple[Workspace, Recorder]:
    recorder = Recorder()
    workspace = Workspace(document_factory=recorder)
    workspace.set_folders([str(f) for f in folders])
    workspace.index_all()
    return workspace, recorder


def uri(path: Path) -> str:
    return path_to_uri(str(path))


def course_of(workspace: Workspace, path: Path) -> str | None:
    return workspace.snapshot.course_of.get(uri(path))


def test_nested_course_files_decide_membership(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "top.md": "x",
            "python/mfcourse.toml": 'name = "Python"\n',
            "python/one.md": "x",
            "python/deep/two.md": "x",
            "python/inner/mfcourse.toml": "",
            "python/inner/three.md": "x",
            "loose/four.md": "x",
        },
    )
    workspace, _ = indexed(tmp_path)
    assert course_of(workspace, tmp_path / "top.md") == str(tmp_path)
    assert course_of(workspace, tmp_path / "loose/four.md") == str(tmp_path)
    assert course_of(workspace, tmp_path / "python/one.md") == str(tmp_path / "python")
    assert course_of(workspace, tmp_path / "python/deep/two.md") == str(tmp_path / "python")
    assert course_of(workspace, tmp_path / "python/inner/three.md") == str(
        tmp_path / "python/inner"
    )
    assert workspace.snapshot.courses[str(tmp_path / "python")].name == "Python"


def test_multi_root_folders_are_separate_courses(tmp_path: Path) -> None:
    write(tmp_path, {"one/a.md": "?[{{ k }} A]", "two/b.md": "{{ k }}"})
    workspace, _ = indexed(tmp_path / "one", tmp_path / "two")
    snapshot = workspace.snapshot
    assert len(snapshot.courses) == 2
    two = snapshot.course_for(uri(tmp_path / "two/b.md"))
    assert "k" not in two.bindings and "k" in two.references


def test_file_outside_every_folder_is_its_own_course(tmp_path: Path) -> None:
    write(tmp_path, {"folder/a.md": "?[{{ k }} A]"})
    workspace, _ = indexed(tmp_path / "folder")
    outside = uri(tmp_path / "elsewhere.md")
    workspace.open(outside, "{{ k }}", 1)
    course = workspace.snapshot.course_for(outside)
    assert course is not None and course.root is None and list(course.docs) == [outside]
    assert "k" not in course.bindings
    untitled = "untitled:Untitled-1"
    workspace.open(untitled, "?[{{ k }} A]", 1)
    assert workspace.snapshot.course_for(untitled).id == untitled
    workspace.close(outside)
    assert workspace.snapshot.course_for(outside) is None


def test_lessons_order_and_references(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "mfcourse.toml": 'lessons = ["intro.md", "lessons/*.md"]\nreferences = ["ref/*.md"]\n',
            "intro.md": "x",
            "lessons/b.md": "x",
            "lessons/a.md": "x",
            "ref/glossary.md": "x",
            "notes.md": "x",
        },
    )
    workspace, _ = indexed(tmp_path)
    course = workspace.snapshot.courses[str(tmp_path)]
    ordered = sorted(course.docs.values(), key=lambda e: e.order)
    assert [(e.label, e.kind) for e in ordered] == [
        ("intro.md", "lesson"),
        ("a.md", "lesson"),
        ("b.md", "lesson"),
        ("glossary.md", "reference"),
    ]


def test_open_buffer_wins_and_close_falls_back_to_disk(tmp_path: Path) -> None:
    write(tmp_path, {"a.md": "?[{{ disk }} A]\r\n"})
    workspace, _ = indexed(tmp_path)
    a = uri(tmp_path / "a.md")
    workspace.open(a, "?[{{ buffer }} A]", 4)
    course = workspace.snapshot.course_for(a)
    assert set(course.bindings) == {"buffer"}
    assert course.bindings["buffer"][0].version == 4
    assert course.docs[a].is_open and course.docs[a].version == 4
    workspace.close(a)
    course = workspace.snapshot.course_for(a)
    assert set(course.bindings) == {"disk"}
    assert course.docs[a].text == "?[{{ disk }} A]\r\n"
    assert course.docs[a].version is None


def test_changes_are_applied_as_edits(tmp_path: Path) -> None:
    write(tmp_path, {"a.md": "x"})
    workspace, recorder = indexed(tmp_path)
    a = uri(tmp_path / "a.md")
    workspace.open(a, "?[{{ one }} A]", 1)
    created = len(recorder.created)
    workspace.change(a, [(5, 8, "two"), (0, 0, "Hi\n\n")], 2)
    assert recorder.edits == [(5, 8, "two"), (0, 0, "Hi\n\n")]
    assert len(recorder.created) == created
    entry = workspace.snapshot.entry(a)[1]
    assert entry.text == "Hi\n\n?[{{ two }} A]" and entry.version == 2
    assert set(workspace.snapshot.course_for(a).bindings) == {"two"}


def test_old_snapshot_is_unchanged_after_an_update(tmp_path: Path) -> None:
    write(tmp_path, {"a.md": "?[{{ one }} A]", "b.md": "{{ one }} {{ shared }}"})
    workspace, _ = indexed(tmp_path)
    a = uri(tmp_path / "a.md")
    before = workspace.snapshot
    course_before = before.course_for(a)
    keys_before = dict(course_before.bindings)
    text_before = course_before.docs[a].text
    workspace.open(a, "?[{{ two }} A]", 1)
    after = workspace.snapshot
    assert after is not before and after.generation > before.generation
    assert dict(before.course_for(a).bindings) == keys_before
    assert before.course_for(a).docs[a].text == text_before
    assert set(after.course_for(a).bindings) == {"two"}
    with pytest.raises(TypeError):
        course_before.bindings["x"] = ()  # type: ignore[index]


def test_updates_share_unchanged_parts(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "one/a.md": "?[{{ one }} A]",
            "one/b.md": "{{ untouched }}",
            "two/c.md": "{{ other }}",
        },
    )
    workspace, _ = indexed(tmp_path / "one", tmp_path / "two")
    before = workspace.snapshot
    a = uri(tmp_path / "one/a.md")
    workspace.open(a, "?[{{ one }} B]", 1)
    after = workspace.snapshot
    two = str(tmp_path / "two")
    one = str(tmp_path / "one")
    assert after.courses[two] is before.courses[two]
    assert after.course_of is before.course_of
    b = uri(tmp_path / "one/b.md")
    assert after.courses[one].docs[b] is before.courses[one].docs[b]
    assert after.courses[one].references.key_docs is before.courses[one].references.key_docs
    assert after.courses[one].bindings.key_docs is before.courses[one].bindings.key_docs
    workspace.change(a, [(0, 0, "{{ fresh }}\n\n")], 2)
    changed = workspace.snapshot.courses[one]
    assert set(changed.references) == {"untouched", "fresh"}
    assert (
        changed.references.key_docs["untouched"]
        is before.courses[one].references.key_docs["untouched"]
    )


def test_files_created_changed_and_deleted(tmp_path: Path) -> None:
    write(tmp_path, {"a.md": "{{ k }}", "b.md": "?[{{ k }} A]"})
    workspace, _ = indexed(tmp_path)
    a, b, c = (tmp_path / n for n in ("a.md", "b.md", "c.md"))
    course = str(tmp_path)
    write(tmp_path, {"c.md": "?[{{ new }} A]"})
    workspace.files_changed([(str(c), "created")])
    assert "new" in workspace.snapshot.courses[course].bindings
    write(tmp_path, {"b.md": "?[{{ changed }} A]"})
    workspace.files_changed([(str(b), "changed")])
    assert set(workspace.snapshot.courses[course].bindings) == {"new", "changed"}
    b.unlink()
    workspace.files_changed([(str(b), "deleted")])
    assert set(workspace.snapshot.courses[course].bindings) == {"new"}
    assert uri(b) not in workspace.snapshot.course_of
    assert uri(a) in workspace.snapshot.course_of


def test_disk_change_to_an_open_file_is_ignored_until_close(tmp_path: Path) -> None:
    write(tmp_path, {"a.md": "?[{{ disk }} A]"})
    workspace, _ = indexed(tmp_path)
    a = tmp_path / "a.md"
    workspace.open(uri(a), "?[{{ buffer }} A]", 1)
    write(tmp_path, {"a.md": "?[{{ disk2 }} A]"})
    workspace.files_changed([(str(a), "changed")])
    assert set(workspace.snapshot.course_for(uri(a)).bindings) == {"buffer"}
    workspace.close(uri(a))
    assert set(workspace.snapshot.course_for(uri(a)).bindings) == {"disk2"}


def test_course_file_changes_are_reread(tmp_path: Path) -> None:
    write(tmp_path, {"a.md": "x", "sub/b.md": "x"})
    workspace, _ = indexed(tmp_path)
    write(tmp_path, {"mfcourse.toml": 'host = "ai-shifu"\nname = "Renamed"\n'})
    workspace.files_changed([(str(tmp_path / "mfcourse.toml"), "created")])
    course = workspace.snapshot.courses[str(tmp_path)]
    assert course.config.host == "ai-shifu" and course.host.provides("sys_user_style")
    assert course.name == "Renamed"
    write(tmp_path, {"sub/mfcourse.toml": ""})
    workspace.files_changed([(str(tmp_path / "sub/mfcourse.toml"), "created")])
    assert course_of(workspace, tmp_path / "sub/b.md") == str(tmp_path / "sub")
    (tmp_path / "sub/mfcourse.toml").unlink()
    workspace.files_changed([(str(tmp_path / "sub/mfcourse.toml"), "deleted")])
    assert course_of(workspace, tmp_path / "sub/b.md") == str(tmp_path)
    assert str(tmp_path / "sub") not in workspace.snapshot.courses


def test_malformed_course_file_falls_back(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    write(tmp_path, {"mfcourse.toml": "lessons = [\n", "a.md": "x"})
    with caplog.at_level(logging.WARNING, logger="mfls"):
        workspace, _ = indexed(tmp_path)
    course = workspace.snapshot.courses[str(tmp_path)]
    assert course.problems[0].fatal and len(course.docs) == 1
    assert "not valid TOML" in caplog.text


def test_bad_files_are_skipped_without_losing_the_rest(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    write(tmp_path, {"good.md": "?[{{ k }} A]", "bad.md": b"\xff\xfe{{ k }}", "big.md": "x" * 64})
    (tmp_path / "gone.md").symlink_to(tmp_path / "missing.md")
    (tmp_path / "loop").symlink_to(tmp_path)
    recorder = Recorder()
    workspace = Workspace(document_factory=recorder, max_file_bytes=32)
    workspace.set_folders([str(tmp_path)])
    with caplog.at_level(logging.WARNING, logger="mfls"):
        workspace.index_all()
    course = workspace.snapshot.courses[str(tmp_path)]
    assert [e.label for e in course.docs.values()] == ["good.md"]
    messages = [r.getMessage() for r in caplog.records]
    assert any("bad.md" in m and "UTF-8" in m for m in messages)
    assert any("big.md" in m and "limit" in m for m in messages)
    assert any("loop" in m for m in messages)
    problems = {p.path: p.reason for p in workspace.disk_problems}
    assert problems == {
        str(tmp_path / "bad.md"): "not valid UTF-8 (byte 0)",
        str(tmp_path / "big.md"): "64 bytes is over the 32-byte limit",
        str(tmp_path / "loop"): "directory loop through a symbolic link",
    }
    assert messages == [f"skipped {p.path}: {p.reason}" for p in workspace.disk_problems]
    assert workspace.disk_problems_of(str(tmp_path / "sub")) == ()


def test_disk_problems_follow_the_files(tmp_path: Path) -> None:
    write(tmp_path, {"a.md": "x", "b.md": b"\xff", "sub/mfcourse.toml": "", "sub/c.md": b"\xfe"})
    workspace, _ = indexed(tmp_path)
    assert sorted(p.path for p in workspace.disk_problems) == [
        str(tmp_path / "b.md"),
        str(tmp_path / "sub/c.md"),
    ]
    assert [p.path for p in workspace.disk_problems_of(str(tmp_path / "sub"))] == [
        str(tmp_path / "sub/c.md")
    ]
    (tmp_path / "b.md").write_text("fixed")
    workspace.files_changed([(str(tmp_path / "b.md"), "changed")])
    (tmp_path / "sub/c.md").unlink()
    workspace.files_changed([(str(tmp_path / "sub/c.md"), "deleted")])
    assert workspace.disk_problems == ()
    (tmp_path / "a.md").write_bytes(b"\xff")
    workspace.files_changed([(str(tmp_path / "a.md"), "changed")])
    assert [p.reason for p in workspace.disk_problems] == ["not valid UTF-8 (byte 0)"]
    workspace.index_all()
    assert [p.path for p in workspace.disk_problems] == [str(tmp_path / "a.md")]


def test_a_course_file_that_is_a_fifo_is_a_problem(tmp_path: Path) -> None:
    import os

    write(tmp_path, {"a.md": "{{ k }}"})
    os.mkfifo(tmp_path / "mfcourse.toml")
    workspace, _ = indexed(tmp_path)
    course = workspace.snapshot.courses[str(tmp_path)]
    assert course.problems[0].fatal and len(course.docs) == 1
    [problem] = workspace.disk_problems
    assert (problem.path, problem.reason) == (
        str(tmp_path / "mfcourse.toml"),
        "not a regular file (a FIFO)",
    )


def test_index_all_reports_progress(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mfls.workspace import cold_indexing as module

    monkeypatch.setattr(module, "PROGRESS_STEP", 2)
    write(tmp_path, {f"{n}.md": "x" for n in range(5)})
    workspace = Workspace(document_factory=Recorder())
    workspace.set_folders([str(tmp_path)])
    reports: list[tuple[int, int]] = []
    workspace.index_all(lambda done, total: reports.append((done, total)))
    assert reports == [(2, 5), (4, 5), (5, 5)]


def test_late_disk_read_never_overwrites_an_open_buffer(tmp_path: Path) -> None:
    write(tmp_path, {"a.md": "?[{{ disk }} A]", **{f"{n}.md": "x" for n in range(30)}})
    a = uri(tmp_path / "a.md")
    workspace = Workspace(document_factory=Recorder())
    workspace.set_folders([str(tmp_path)])
    started = threading.Event()
    release = threading.Event()

    def progress(done: int, total: int) -> None:
        started.set()
        release.wait(5)

    from mfls.workspace import cold_indexing as module

    step, module.PROGRESS_STEP = module.PROGRESS_STEP, 10
    try:
        thread = threading.Thread(target=workspace.index_all, args=(progress,))
        thread.start()
        assert started.wait(5)
        workspace.open(a, "?[{{ buffer }} A]", 7)
        seen_during = workspace.snapshot
        release.set()
        thread.join(5)
    finally:
        module.PROGRESS_STEP = step
    assert "buffer" in seen_during.course_for(a).bindings
    course = workspace.snapshot.course_for(a)
    assert set(course.bindings) == {"buffer"}
    assert course.docs[a].version == 7
    assert len(course.docs) == 31


def test_changes_during_indexing_are_replayed(tmp_path: Path) -> None:
    write(tmp_path, {f"{n}.md": "x" for n in range(20)})
    workspace = Workspace(document_factory=Recorder())
    workspace.set_folders([str(tmp_path)])
    from mfls.workspace import cold_indexing as module

    step, module.PROGRESS_STEP = module.PROGRESS_STEP, 5
    new = tmp_path / "new.md"

    def progress(done: int, total: int) -> None:
        if done == 5:
            write(tmp_path, {"new.md": "?[{{ late }} A]"})
            workspace.files_changed([(str(new), "created")])

    try:
        workspace.index_all(progress)
    finally:
        module.PROGRESS_STEP = step
    assert "late" in workspace.snapshot.courses[str(tmp_path)].bindings


def test_set_folders_drops_removed_folders(tmp_path: Path) -> None:
    write(tmp_path, {"one/a.md": "x", "two/b.md": "x"})
    workspace, _ = indexed(tmp_path / "one", tmp_path / "two")
    workspace.set_folders([str(tmp_path / "one")])
    assert set(workspace.snapshot.courses) == {str(tmp_path / "one")}


def test_rebuilding_one_course_keeps_the_others(tmp_path: Path) -> None:
    write(tmp_path, {"one/a.md": "x", "two/b.md": "?[{{ k }} A]"})
    workspace, _ = indexed(tmp_path / "one", tmp_path / "two")
    before = workspace.snapshot
    write(tmp_path, {"one/new.md": "{{ k }}"})
    workspace.files_changed([(str(tmp_path / "one/new.md"), "created")])
    after = workspace.snapshot
    assert after.courses[str(tmp_path / "two")] is before.courses[str(tmp_path / "two")]
    assert len(after.courses[str(tmp_path / "one")].docs) == 2


def test_a_folder_inside_another_folder_is_its_own_course(tmp_path: Path) -> None:
    write(tmp_path, {"outer.md": "?[{{ k }} A]", "inner/in.md": "{{ k }}"})
    workspace, _ = indexed(tmp_path, tmp_path / "inner")
    assert course_of(workspace, tmp_path / "outer.md") == str(tmp_path)
    assert course_of(workspace, tmp_path / "inner/in.md") == str(tmp_path / "inner")
    outer = workspace.snapshot.courses[str(tmp_path)]
    assert uri(tmp_path / "inner/in.md") not in outer.docs


def test_deleting_a_directory_removes_its_documents(tmp_path: Path) -> None:
    write(tmp_path, {"keep.md": "{{ k }}", "part/one.md": "?[{{ k }} A]", "part/two.md": "x"})
    workspace, _ = indexed(tmp_path)
    for name in ("one.md", "two.md"):
        (tmp_path / "part" / name).unlink()
    (tmp_path / "part").rmdir()
    workspace.files_changed([(str(tmp_path / "part"), "deleted")])
    course = workspace.snapshot.courses[str(tmp_path)]
    assert [e.label for e in course.docs.values()] == ["keep.md"]
    assert "k" not in course.bindings


def test_changes_outside_every_folder_are_ignored(tmp_path: Path) -> None:
    write(tmp_path, {"in/a.md": "x", "out/b.md": "x"})
    workspace, _ = indexed(tmp_path / "in")
    before = workspace.snapshot
    workspace.files_changed([(str(tmp_path / "out/b.md"), "changed")])
    assert workspace.snapshot is before


def test_created_directory_is_listed(tmp_path: Path) -> None:
    write(tmp_path, {"a.md": "x"})
    workspace, _ = indexed(tmp_path)
    write(tmp_path, {"new/b.md": "?[{{ fresh }} A]", ".hidden/c.md": "?[{{ secret }} A]"})
    workspace.files_changed([(str(tmp_path / "new"), "created")])
    workspace.files_changed([(str(tmp_path / ".hidden/c.md"), "created")])
    course = workspace.snapshot.courses[str(tmp_path)]
    assert set(course.bindings) == {"fresh"}


def test_closed_documents_keep_only_what_memory_needs(tmp_path: Path) -> None:
    from mfls.syntax.scanner import scan
    from mfls.workspace.index import DiskDocument

    text = "# Title\n\n?[{{ k }} A]\n\n`{{ lit }}` {{ }}\n"
    write(tmp_path, {"a.md": text})
    workspace, _ = indexed(tmp_path)
    a = uri(tmp_path / "a.md")
    entry = workspace.snapshot.entry(a)[1]
    assert isinstance(entry.document, DiskDocument)
    full = scan(text)
    assert entry.marker_scan.markers == full.markers
    assert entry.marker_scan.invalid == full.invalid
    assert entry.marker_scan.interactions == full.interactions
    assert entry.marker_scan.blocks == () and entry.marker_scan.literals == ()
    assert entry.result == full
    workspace.open(a, text, 1)
    opened = workspace.snapshot.entry(a)[1]
    assert not isinstance(opened.document, DiskDocument)
    assert opened.marker_scan == opened.result == full


def test_a_buffer_closed_during_indexing_keeps_its_disk_copy(tmp_path: Path) -> None:
    write(tmp_path, {"a.md": "?[{{ disk }} A]", **{f"{n}.md": "x" for n in range(30)}})
    a = uri(tmp_path / "a.md")
    workspace = Workspace(document_factory=Recorder())
    workspace.set_folders([str(tmp_path)])
    workspace.open(a, "?[{{ buffer }} A]", 1)

    def progress(done: int, total: int) -> None:
        if done == total:
            workspace.close(a)

    workspace.index_all(progress)
    course = workspace.snapshot.course_for(a)
    assert set(course.bindings) == {"disk"} and not course.docs[a].is_open


def test_a_file_name_that_is_not_utf8_is_indexed_under_a_uri_that_round_trips(
    tmp_path: Path,
) -> None:
    import os

    from mfls.workspace.uris import uri_to_path

    raw = os.fsencode(str(tmp_path)) + b"/caf\xe9.md"
    with open(raw, "wb") as handle:
        handle.write(b"?[{{ k }} A]\n")
    write(tmp_path, {"a.md": "Use {{ k }}.\n"})
    workspace, _ = indexed(tmp_path)
    course = workspace.snapshot.courses[str(tmp_path)]
    odd = uri(Path(os.fsdecode(raw)))
    assert odd.endswith("/caf%E9.md")
    assert sorted(course.docs) == sorted([odd, uri(tmp_path / "a.md")])
    assert uri_to_path(odd) == os.fsdecode(raw)
    assert workspace.disk_problems == ()
