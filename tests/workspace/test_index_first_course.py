"""`Workspace.index_all` reads the courses of the open (and preferred) documents first and
swaps them in before reading the rest of the workspace."""

from __future__ import annotations

from pathlib import Path

from mfls.workspace.index import WorkspaceSnapshot
from mfls.workspace.uris import path_to_uri
from mfls.workspace.workspace import Workspace

COURSES = {
    "a/mfcourse.toml": 'host = "ai-shifu"\n',
    "a/one.md": "?[%{{ level }} Low | High]\n",
    "a/two.md": "Adapt to {{ level }}.\n",
    "b/mfcourse.toml": 'name = "B"\n',
    "b/one.md": "?[{{ colour }} Red | Blue]\n",
    "b/two.md": "Paint it {{ colour }}.\n",
}


def write(root: Path, files: dict[str, str]) -> None:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")


def uri(path: Path) -> str:
    return path_to_uri(str(path))


def indexing(root: Path) -> tuple[Workspace, list[tuple[tuple[str, ...], WorkspaceSnapshot]]]:
    write(root, COURSES)
    workspace = Workspace()
    workspace.set_folders([str(root)])
    told: list[tuple[tuple[str, ...], WorkspaceSnapshot]] = []
    return workspace, told


def test_the_open_documents_course_is_swapped_in_before_the_rest(tmp_path: Path) -> None:
    workspace, told = indexing(tmp_path)
    opened = uri(tmp_path / "b" / "two.md")
    workspace.open(opened, "Paint it {{ colour }}.\n", 1)
    workspace.index_all(first_done=lambda roots: told.append((roots, workspace.snapshot)))
    assert [roots for roots, _ in told] == [(str(tmp_path / "b"),)]
    early = told[0][1]
    first = early.courses[str(tmp_path / "b")]
    assert set(first.docs) == {uri(tmp_path / "b" / "one.md"), opened}
    assert "colour" in first.bindings  # the other lesson is read: the key is asked
    assert early.course_for(uri(tmp_path / "a" / "one.md")) is None
    final = workspace.snapshot.courses
    assert set(final[str(tmp_path / "a")].docs) == {
        uri(tmp_path / "a" / "one.md"),
        uri(tmp_path / "a" / "two.md"),
    }
    assert final[str(tmp_path / "b")] is first  # reused, not rebuilt


def test_a_preferred_document_counts_as_open(tmp_path: Path) -> None:
    workspace, told = indexing(tmp_path)
    workspace.prefer(uri(tmp_path / "a" / "two.md"))
    workspace.index_all(first_done=lambda roots: told.append((roots, workspace.snapshot)))
    assert [roots for roots, _ in told] == [(str(tmp_path / "a"),)]
    assert told[0][1].courses[str(tmp_path / "a")].config.host == "ai-shifu"
    told.clear()
    workspace.index_all(first_done=lambda roots: told.append((roots, workspace.snapshot)))
    assert told == []  # a preference lasts one indexing


def test_one_pass_when_nothing_is_open_or_everything_is_first(tmp_path: Path) -> None:
    workspace, told = indexing(tmp_path)
    workspace.index_all(first_done=lambda roots: told.append((roots, workspace.snapshot)))
    for name in ("a/one.md", "b/one.md"):
        workspace.open(uri(tmp_path / name), (tmp_path / name).read_text(), 1)
    workspace.index_all(first_done=lambda roots: told.append((roots, workspace.snapshot)))
    assert told == []
    courses = workspace.snapshot.courses
    assert all(len(courses[str(tmp_path / name)].docs) == 2 for name in "ab")
