"""The workspace reads files and looks for course roots without holding its lock, and
closing a buffer reads nothing until the caller runs the re-read it is given
(`Workspace.release`, which the server runs on its worker): the disk copy then takes the
buffer's place, unless the editor opened the document again meanwhile."""

from __future__ import annotations

from mfls.disk import MAX_FILE_BYTES, DiskProblem
from mfls.disk.memory import MemoryDisk
from mfls.workspace.uris import path_to_uri
from mfls.workspace.workspace import Workspace

COURSE = 'name = "Demo"\nlessons = ["a.md"]\n'


class WatchedDisk(MemoryDisk):
    """A memory disk that records each text read and each search for a course file, with
    whether the workspace's lock was held during it."""

    def __init__(self, files: dict[str, str]) -> None:
        super().__init__(files)
        self.workspace: Workspace | None = None
        self.reads: list[tuple[str, bool]] = []
        self.searches: list[tuple[str, bool]] = []

    def nearest_holding(self, directory: str, name: str, boundary: str | None = None) -> str | None:
        assert self.workspace is not None
        self.searches.append((directory, self.workspace.lock._is_owned()))
        return super().nearest_holding(directory, name, boundary)

    def read_text(
        self, path: str, root: str | None = None, max_bytes: int = MAX_FILE_BYTES
    ) -> tuple[str | None, tuple[DiskProblem, ...]]:
        assert self.workspace is not None
        self.reads.append((path, self.workspace.lock._is_owned()))
        return super().read_text(path, root, max_bytes)


def watched(files: dict[str, str]) -> tuple[Workspace, WatchedDisk]:
    disk = WatchedDisk({f"/course/{name}": text for name, text in files.items()})
    workspace = Workspace(disk=disk)
    disk.workspace = workspace
    workspace.set_folders(["/course"])
    return workspace, disk


def test_opening_a_document_of_a_course_not_indexed_reads_its_course_file_unlocked() -> None:
    workspace, disk = watched({"mfcourse.toml": COURSE, "a.md": "{{ k }}\n"})
    a = path_to_uri("/course/a.md")
    workspace.open(a, "?[{{ k }} A]\n", 1)
    assert disk.reads == [("/course/mfcourse.toml", False)]
    course = workspace.snapshot.course_for(a)
    assert course is not None and course.config.name == "Demo"
    assert course.config.text == COURSE
    assert disk.searches == [("/course", False)]


def test_a_file_event_finds_its_course_unlocked() -> None:
    workspace, disk = watched({"mfcourse.toml": COURSE, "a.md": "x\n", "sub/b.md": "y\n"})
    workspace.index_all()
    disk.searches.clear()
    disk.put("/course/sub/mfcourse.toml", 'name = "Inner"\n')
    workspace.files_changed([("/course/sub/mfcourse.toml", "created")])
    assert disk.searches and not any(locked for _, locked in disk.searches), disk.searches
    assert "/course/sub" in workspace.snapshot.courses


def test_closing_reads_nothing_until_the_reread_runs() -> None:
    workspace, disk = watched({"mfcourse.toml": COURSE, "a.md": "?[{{ disk }} A]\n"})
    workspace.index_all()
    a = path_to_uri("/course/a.md")
    workspace.open(a, "?[{{ buffer }} A]\n", 2)
    disk.reads.clear()
    reread = workspace.release(a)
    assert reread is not None and disk.reads == []
    assert not workspace.is_open(a)
    course = workspace.snapshot.course_for(a)
    assert course is not None and set(course.bindings) == {"buffer"}
    reread()
    assert disk.reads == [("/course/a.md", False)]
    course = workspace.snapshot.course_for(a)
    assert course is not None and set(course.bindings) == {"disk"}
    assert not course.docs[a].is_open and course.docs[a].version is None


def test_a_buffer_opened_again_wins_over_the_late_reread() -> None:
    workspace, _ = watched({"mfcourse.toml": COURSE, "a.md": "?[{{ disk }} A]\n"})
    workspace.index_all()
    a = path_to_uri("/course/a.md")
    workspace.open(a, "?[{{ first }} A]\n", 2)
    reread = workspace.release(a)
    assert reread is not None
    workspace.open(a, "?[{{ again }} A]\n", 3)
    reread()
    course = workspace.snapshot.course_for(a)
    assert course is not None and set(course.bindings) == {"again"}
    assert course.docs[a].is_open and course.docs[a].version == 3


def test_a_document_outside_the_course_leaves_at_once() -> None:
    workspace, disk = watched({"mfcourse.toml": COURSE, "a.md": "x\n"})
    workspace.index_all()
    notes = path_to_uri("/course/notes.md")  # not one of the course's lessons
    workspace.open(notes, "{{ k }}\n", 1)
    assert workspace.snapshot.entry(notes) is not None
    disk.reads.clear()
    assert workspace.release(notes) is None
    assert workspace.snapshot.entry(notes) is None and disk.reads == []
