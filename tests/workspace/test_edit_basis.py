"""`Workspace.edit_basis`: closed documents read again before an edit, on a memory disk;
it changes nothing, and what it read reaches the index only through
`Workspace.take_disk_copies` (the server's loop applies it)."""

from __future__ import annotations

from mfls.disk.memory import MemoryDisk
from mfls.workspace.uris import path_to_uri
from mfls.workspace.workspace import Workspace

ROOT = "/course"


def _workspace(files: dict[str, str | bytes]) -> tuple[Workspace, MemoryDisk]:
    memory = MemoryDisk({f"{ROOT}/{name}": text for name, text in files.items()})
    workspace = Workspace(disk=memory)
    workspace.set_folders([ROOT])
    workspace.index_all()
    return workspace, memory


def _uri(name: str) -> str:
    return path_to_uri(f"{ROOT}/{name}")


def test_a_changed_closed_document_is_indexed_again_and_only_asked_ones_are_read() -> None:
    workspace, memory = _workspace(
        {"mfcourse.toml": "", "a.md": "{{ k }}\n", "b.md": "x {{ k }}\n", "c.md": "{{ k }}\n"}
    )
    memory.put(f"{ROOT}/b.md", "moved\n\nx {{ k }}\n")
    memory.put(f"{ROOT}/c.md", "changed too, not asked\n")
    live = workspace.snapshot
    basis = workspace.edit_basis(ROOT, [_uri("a.md"), _uri("b.md")])
    course = basis.snapshot.courses[ROOT]
    assert course.docs[_uri("b.md")].text == "moved\n\nx {{ k }}\n"
    assert course.docs[_uri("c.md")].text == "{{ k }}\n"  # not re-read
    assert basis.unusable == () and basis.aliases == frozenset()
    assert workspace.snapshot is live  # the basis changed nothing
    assert list(basis.copies.documents) == [_uri("b.md")]
    workspace.take_disk_copies(basis.copies)
    now = workspace.snapshot.courses[ROOT]
    assert now.docs[_uri("b.md")].text == "moved\n\nx {{ k }}\n"
    assert now.docs[_uri("c.md")].text == "{{ k }}\n"


def test_an_undecodable_document_is_unusable_and_a_deleted_one_dropped() -> None:
    workspace, memory = _workspace({"mfcourse.toml": "", "a.md": "{{ k }}\n", "b.md": "{{ k }}\n"})
    memory.put(f"{ROOT}/a.md", b"\xff {{ k }}\n")
    memory.remove(f"{ROOT}/b.md")
    basis = workspace.edit_basis(ROOT, [_uri("a.md"), _uri("b.md")])
    assert [p.path for p in basis.unusable] == [f"{ROOT}/a.md"]
    assert "UTF-8" in basis.unusable[0].reason
    assert _uri("b.md") not in basis.snapshot.courses[ROOT].docs
    assert workspace.disk_problems == () and _uri("b.md") in workspace.snapshot.course_of
    workspace.take_disk_copies(basis.copies)
    assert [p.path for p in workspace.disk_problems] == [f"{ROOT}/a.md", f"{ROOT}/b.md"]
    assert _uri("b.md") not in workspace.snapshot.course_of


def test_a_member_with_an_unhandled_watcher_event_is_read_too() -> None:
    workspace, memory = _workspace({"mfcourse.toml": "", "a.md": "{{ k }}\n", "b.md": "none\n"})
    memory.put(f"{ROOT}/b.md", "now {{ k }}\n")
    workspace.expect_changes([(f"{ROOT}/b.md", "changed")])
    basis = workspace.edit_basis(ROOT, [_uri("a.md")])
    assert basis.snapshot.courses[ROOT].docs[_uri("b.md")].text == "now {{ k }}\n"
    workspace.files_changed([(f"{ROOT}/b.md", "changed")])
    memory.put(f"{ROOT}/b.md", "again {{ k }}\n")
    basis = workspace.edit_basis(ROOT, [_uri("a.md")])  # handled: no longer read
    assert basis.snapshot.courses[ROOT].docs[_uri("b.md")].text == "now {{ k }}\n"


def test_a_copy_the_index_replaced_meanwhile_is_not_applied() -> None:
    """The watcher's newer read of a file wins over an edit basis's older one."""
    workspace, memory = _workspace({"mfcourse.toml": "", "a.md": "{{ k }}\n"})
    memory.put(f"{ROOT}/a.md", "older {{ k }}\n")
    basis = workspace.edit_basis(ROOT, [_uri("a.md")])
    memory.put(f"{ROOT}/a.md", "newer {{ k }}\n")
    workspace.files_changed([(f"{ROOT}/a.md", "changed")])
    workspace.take_disk_copies(basis.copies)
    assert workspace.snapshot.courses[ROOT].docs[_uri("a.md")].text == "newer {{ k }}\n"


def test_a_copy_of_a_document_opened_meanwhile_is_not_applied() -> None:
    workspace, memory = _workspace({"mfcourse.toml": "", "a.md": "{{ k }}\n"})
    memory.put(f"{ROOT}/a.md", "on disk {{ k }}\n")
    basis = workspace.edit_basis(ROOT, [_uri("a.md")])
    workspace.open(_uri("a.md"), "in the editor {{ k }}\n", 1)
    workspace.take_disk_copies(basis.copies)
    entry = workspace.snapshot.courses[ROOT].docs[_uri("a.md")]
    assert entry.is_open and entry.text == "in the editor {{ k }}\n"


def test_a_read_problem_the_watcher_cleared_meanwhile_is_not_put_back() -> None:
    """The basis read `a.md` undecodable; the author fixed it and the watcher read it
    again: the basis's problem is older and must not make the course unusable."""
    workspace, memory = _workspace(
        {"mfcourse.toml": "", "a.md": b"\xff {{ k }}\n", "b.md": "x {{ k }}\n"}
    )
    basis = workspace.edit_basis(ROOT, [_uri("a.md"), _uri("b.md")])
    assert [p.path for p in basis.unusable] == [f"{ROOT}/a.md"]
    memory.put(f"{ROOT}/a.md", "fixed {{ k }}\n")
    workspace.files_changed([(f"{ROOT}/a.md", "changed")])
    assert workspace.disk_problems == ()
    workspace.take_disk_copies(basis.copies)
    assert workspace.disk_problems == ()
    assert workspace.snapshot.courses[ROOT].docs[_uri("a.md")].text == "fixed {{ k }}\n"
    assert workspace.edit_basis(ROOT, [_uri("b.md")]).unusable == ()


def test_a_read_problem_the_watcher_found_meanwhile_is_not_erased() -> None:
    """The basis read `a.md` fine; then it broke and the watcher dropped it with its
    problem: the basis's older clean read must not erase that problem."""
    workspace, memory = _workspace({"mfcourse.toml": "", "a.md": "{{ k }}\n", "b.md": "{{ k }}\n"})
    basis = workspace.edit_basis(ROOT, [_uri("a.md"), _uri("b.md")])
    assert basis.unusable == ()
    memory.put(f"{ROOT}/a.md", b"\xff {{ k }}\n")
    workspace.files_changed([(f"{ROOT}/a.md", "changed")])
    workspace.take_disk_copies(basis.copies)
    assert [p.path for p in workspace.disk_problems] == [f"{ROOT}/a.md"]
    assert _uri("a.md") not in workspace.snapshot.course_of
    later = workspace.edit_basis(ROOT, [_uri("b.md")])
    assert [p.path for p in later.unusable] == [f"{ROOT}/a.md"]
