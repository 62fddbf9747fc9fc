"""`MemoryDisk` answers as the real gateway does for the same tree of files."""

from __future__ import annotations

import inspect
import os
from collections.abc import Mapping
from pathlib import Path

import pytest

from mfls import disk
from mfls.disk import REAL_DISK, Disk, DiskProblem
from mfls.disk.memory import MemoryDisk
from mfls.workspace.course_root import nearest_course_root
from mfls.workspace.loading import load_course, skipped_holding
from mfls.workspace.workspace import Workspace

FAKE = "/course"

Tree = Mapping[str, "str | bytes"]


def write_tree(root: Path, files: Tree) -> None:
    root.mkdir(exist_ok=True)
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode() if isinstance(content, str) else content)


def memory_tree(files: Tree) -> MemoryDisk:
    tree = {f"{FAKE}/{name}": content for name, content in files.items()}
    return MemoryDisk(tree, directories=[FAKE])


class Both:
    """The same tree on the real disk (under tmp_path) and in memory (under /course)."""

    def __init__(self, tmp_path: Path, files: Tree) -> None:
        self.real_root = str(tmp_path / "course")
        write_tree(Path(self.real_root), files)
        self.memory = memory_tree(files)

    def real(self, path: str) -> str:
        return self.real_root + path[len(FAKE) :] if path.startswith(FAKE) else path

    def neutral(self, found: object) -> object:
        """`found` with the real root written as the fake one, in every string inside it."""
        if isinstance(found, str):
            return found.replace(self.real_root, FAKE)
        if isinstance(found, tuple):
            return tuple(self.neutral(part) for part in found)
        if isinstance(found, DiskProblem):
            return DiskProblem(self.neutral(found.path), self.neutral(found.reason))  # type: ignore[arg-type]
        if isinstance(found, disk.Listing):
            return disk.Listing(self.neutral(found.files), self.neutral(found.landmarks))  # type: ignore[arg-type]
        return found


TREE: Tree = {
    "mfcourse.toml": 'name = "Demo"\nlessons = ["b.md", "*.md"]\n',
    "a.md": "?[{{ goal }} A | B]\r\n\r\nUse {{ goal }}.\r\n",
    "b.md": "{{ goal }} 你好 😀\n",
    "z/deep/c.md": "# C\n",
    "z/b.md": "z\n",
    "bad.md": b"ok \xff\xfe not utf-8\n",
    "big.md": "x" * 300,
    ".hidden/h.md": "hidden\n",
    "node_modules/pkg/n.md": "n\n",
    "__pycache__/p.md": "p\n",
    "z/.git/config": "[core]\n",
    "notes.txt": "text\n",
    "inner/mfcourse.toml": "host = [\n",
    "inner/i.md": "{{ sys_user_nickname }}\n",
    "inner/sub/j.md": "j\n",
}

PATHS = [
    "/course/a.md",
    "/course/b.md",
    "/course/bad.md",
    "/course/big.md",
    "/course/z",
    "/course/z/deep/c.md",
    "/course/missing.md",
    "/course/a.md/under-a-file",
    "/course/nowhere/x.md",
    "/course/z/../a.md",
    "/course/.hidden/h.md",
    "/course/inner/mfcourse.toml",
    "/course/a\0b.md",
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("root", [None, "/course", "/course/z"])
def test_reads_answer_alike(tmp_path: Path, path: str, root: str | None) -> None:
    both = Both(tmp_path, TREE)
    real_root = None if root is None else both.real(root)
    for max_bytes in (disk.MAX_FILE_BYTES, 100, 3):
        for name in ("read_bytes", "read_prefix", "read_text"):
            real = getattr(disk, name)(both.real(path), real_root, max_bytes)
            memory = getattr(both.memory, name)(path, root, max_bytes)
            assert both.neutral(real) == memory, (name, max_bytes)
    for needle in (b"goal", b"\xff", b"absent"):
        real_found = disk.contains(both.real(path), needle, real_root)
        assert real_found == both.memory.contains(path, needle, root)


@pytest.mark.parametrize("path", [*PATHS, "/course", "/course/inner/sub", "/", "/elsewhere"])
def test_kinds_answer_alike(tmp_path: Path, path: str) -> None:
    both = Both(tmp_path, TREE)
    for name in ("exists", "lexists", "is_regular_file", "is_directory", "can_list"):
        assert getattr(disk, name)(both.real(path)) == getattr(both.memory, name)(path), name


@pytest.mark.parametrize(
    ("directory", "boundary"),
    [
        ("/course/inner/sub", "/course"),
        ("/course/inner/sub", None),
        ("/course/inner", "/course/inner"),
        ("/course/z/deep", "/course"),
        ("/course/z/deep", "/course/z"),
        ("/course/z/deep", "/course/inner"),
        ("/course/nowhere/at/all", "/course"),
    ],
)
def test_nearest_holding_answers_alike(
    tmp_path: Path, directory: str, boundary: str | None
) -> None:
    both = Both(tmp_path, TREE)
    real_boundary = None if boundary is None else both.real(boundary)
    real = disk.nearest_holding(both.real(directory), "mfcourse.toml", real_boundary)
    assert both.neutral(real) == both.memory.nearest_holding(directory, "mfcourse.toml", boundary)
    assert both.neutral(
        nearest_course_root(both.real(directory), real_boundary)
    ) == nearest_course_root(directory, boundary, both.memory)


@pytest.mark.parametrize(
    "root",
    [
        "/course",
        "/course/",
        "/course/z",
        "/course/a.md",
        "/course/missing",
        "/course/a\0",
    ],
)
@pytest.mark.parametrize("max_files", [disk.MAX_DOCUMENTS, 3, 0])
@pytest.mark.parametrize("landmarks", [(), ("mfcourse.toml",), ("mfcourse.toml", "b.md")])
def test_walks_answer_alike(
    tmp_path: Path, root: str, max_files: int, landmarks: tuple[str, ...]
) -> None:
    both = Both(tmp_path, TREE)
    real = disk.walk(both.real(root), max_files, landmarks=landmarks)
    assert both.neutral(real) == both.memory.walk(root, max_files, landmarks=landmarks)


def _shape(workspace: Workspace, root: str) -> object:
    """What a workspace indexed, with paths relative to `root`: every course's id, root,
    configuration, problems and documents, and the files it skipped."""

    def rel(text: str | None) -> str | None:
        if text is None:
            return None
        return text.replace(root, "<root>").replace("file://" + root.replace(os.sep, "/"), "<uri>")

    snapshot = workspace.snapshot
    courses = []
    for course_id in sorted(snapshot.courses):
        course = snapshot.courses[course_id]
        docs = [
            (rel(uri), rel(e.path), e.kind, e.order, e.version, e.is_open, e.text)
            for uri, e in sorted(course.docs.items())
        ]
        courses.append((rel(course_id), rel(course.root), course.config, course.problems, docs))
    skipped = [(rel(p.path), rel(p.reason)) for p in workspace.disk_problems]
    return courses, sorted(skipped)


WORKSPACE_TREES: dict[str, Tree] = {
    "empty": {},
    "plain": {"a.md": "?[{{ goal }} A]\n", "b.md": "{{ goal }}\n"},
    "configured": {
        "mfcourse.toml": (
            'host = "ai-shifu"\nlessons = ["two.md", "*.md"]\nreferences = ["refs/*.md"]\n'
        ),
        "one.md": "{{ sys_user_nickname }}\n",
        "two.md": "?[{{ k }} A]\n",
        "refs/glossary.md": "{{ k }}\n",
    },
    "nested and skipped": TREE,
    "bad course file": {"mfcourse.toml": b"name = \xff\n", "a.md": "a\n"},
}


@pytest.mark.parametrize("name", sorted(WORKSPACE_TREES))
@pytest.mark.parametrize(("max_file_bytes", "max_documents"), [(disk.MAX_FILE_BYTES, 100), (50, 2)])
def test_a_workspace_on_memory_indexes_what_it_indexes_on_disk(
    tmp_path: Path, name: str, max_file_bytes: int, max_documents: int
) -> None:
    files = WORKSPACE_TREES[name]
    both = Both(tmp_path, files)
    limits = {"max_file_bytes": max_file_bytes, "max_documents": max_documents}
    on_disk = Workspace(**limits)
    on_disk.set_folders([both.real_root])
    on_disk.index_all()
    in_memory = Workspace(disk=both.memory, **limits)
    in_memory.set_folders([FAKE])
    in_memory.index_all()
    assert _shape(in_memory, FAKE) == _shape(on_disk, both.real_root)
    assert in_memory.snapshot.courses, "the folder is a course even when empty"


def test_load_course_and_skipped_holding_read_the_given_disk() -> None:
    memory = memory_tree({"a.md": "?[{{ goal }} A]\n", "bad.md": b"{{ goal }} \xff\n"})
    loaded = load_course(FAKE, ("goal",), memory)
    assert loaded.is_folder and loaded.course is not None
    assert [p.path for p in loaded.problems] == ["/course/bad.md"]
    assert skipped_holding(loaded.problems, b"goal", memory) == ("/course/bad.md",)
    assert skipped_holding(loaded.problems, b"other", memory) == ()
    assert not load_course("/course/a.md", None, memory).is_folder


def test_changes_to_the_tree_reach_the_workspace() -> None:
    memory = memory_tree({"a.md": "?[{{ goal }} A]\n"})
    workspace = Workspace(disk=memory)
    workspace.set_folders([FAKE])
    workspace.index_all()
    memory.put("/course/b.md", "{{ goal }}\n")
    workspace.files_changed([("/course/b.md", "created")])
    [course] = workspace.snapshot.courses.values()
    assert sorted(e.path for e in course.docs.values()) == ["/course/a.md", "/course/b.md"]
    memory.put("/course/b.md", b"\xff")
    workspace.files_changed([("/course/b.md", "changed")])
    assert [p.reason for p in workspace.disk_problems] == ["not valid UTF-8 (byte 0)"]
    memory.remove("/course/b.md")
    workspace.files_changed([("/course/b.md", "deleted")])
    [course] = workspace.snapshot.courses.values()
    assert [e.path for e in course.docs.values()] == ["/course/a.md"]
    assert workspace.disk_problems == ()


def test_put_remove_base_and_directories() -> None:
    memory = MemoryDisk({"a.md": "a", "/abs/b.md": "b"}, directories=["empty/dir"], base="/w")
    assert memory.read_text("/w/a.md") == ("a", ())
    assert memory.read_text("a.md") == ("a", ())
    assert memory.read_text("../abs/b.md") == ("b", ())
    assert memory.is_directory("/w/empty/dir") and memory.walk("/w/empty") == (disk.Listing(), ())
    memory.remove("/w/empty")
    assert not memory.exists("/w/empty/dir") and memory.is_directory("/w")
    assert memory.walk("/w") == (disk.Listing(("/w/a.md",)), ())
    memory.remove("/nothing/there")
    with pytest.raises(IsADirectoryError):
        memory.put("/w", "x")
    with pytest.raises(NotADirectoryError):
        memory.put("/w/a.md/c.md", "x")
    memory.put("a.md", "changed")
    assert memory.read_bytes("a.md") == (b"changed", ())


def test_text_with_a_lone_surrogate_reads_as_invalid_utf8() -> None:
    memory = MemoryDisk({"/a.md": "ok \ud800"})
    assert memory.read_text("/a.md") == (None, (DiskProblem("/a.md", "not valid UTF-8 (byte 3)"),))
    assert memory.read_bytes("/a.md") == (b"ok \xed\xa0\x80", ())


def test_memory_and_real_disks_offer_every_method_of_disk() -> None:
    wanted = {
        name: inspect.signature(member)
        for name, member in inspect.getmembers(Disk, inspect.isfunction)
        if not name.startswith("_")
    }
    assert "read_text" in wanted and "walk" in wanted
    for implementation in (MemoryDisk(), REAL_DISK):
        for name, signature in wanted.items():
            found = inspect.signature(getattr(implementation, name))
            parameters = list(signature.parameters.values())[1:]  # without self
            assert list(found.parameters.values()) == parameters, (implementation, name)
