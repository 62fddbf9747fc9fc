"""`write_tree` and `write_file`: everything is written, or nothing is."""

from __future__ import annotations

from pathlib import Path

from mfls.disk.trees import write_file, write_tree

FILES = {"a.md": b"A\r\n", "sub/b.md": b"B", ".mfls/m.json": b"{}"}


def listing(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def test_a_new_folder(tmp_path: Path) -> None:
    assert write_tree(str(tmp_path / "out"), FILES) is None
    assert (tmp_path / "out" / "a.md").read_bytes() == b"A\r\n"
    assert listing(tmp_path) == [
        "out",
        "out/.mfls",
        "out/.mfls/m.json",
        "out/a.md",
        "out/sub",
        "out/sub/b.md",
    ]


def test_an_empty_folder_is_filled(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    assert write_tree(str(tmp_path / "out"), FILES) is None
    assert (tmp_path / "out" / "sub" / "b.md").read_bytes() == b"B"


def test_a_full_folder_is_kept_unless_replaced(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "mine").write_text("x")
    problem = write_tree(str(tmp_path / "out"), FILES)
    assert problem is not None and "not empty" in problem.reason
    assert listing(tmp_path) == ["out", "out/mine"]
    assert write_tree(str(tmp_path / "out"), FILES, replace=True) is None
    assert listing(tmp_path / "out") == [".mfls", ".mfls/m.json", "a.md", "sub", "sub/b.md"]
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def test_a_file_in_the_way(tmp_path: Path) -> None:
    (tmp_path / "out").write_text("x")
    problem = write_tree(str(tmp_path / "out"), FILES, replace=True)
    assert problem is not None and "not a folder" in problem.reason
    assert (tmp_path / "out").read_text() == "x"


def test_paths_outside_are_refused(tmp_path: Path) -> None:
    for bad in ("../x", "/etc/x", "a/../../x", "", "a//b"):
        problem = write_tree(str(tmp_path / "out"), {bad: b""})
        assert problem is not None, bad
    assert listing(tmp_path) == []


def test_a_failure_midway_writes_nothing(tmp_path: Path) -> None:
    problem = write_tree(str(tmp_path / "out"), {"a": b"file", "a/b": b"under a file"})
    assert problem is not None and "nothing was written" in problem.reason
    assert listing(tmp_path) == []


def test_write_file_replaces_whole(tmp_path: Path) -> None:
    target = tmp_path / "e.json"
    assert write_file(str(target), b"one") is None
    assert write_file(str(target), b"two") is None
    assert target.read_bytes() == b"two"
    assert [p.name for p in tmp_path.iterdir()] == ["e.json"]
    problem = write_file(str(tmp_path), b"x")
    assert problem is not None
    assert write_file(str(tmp_path / "missing" / "e.json"), b"x") is not None


def test_write_file_within_a_folder_refuses_dot_dot_and_links_out(tmp_path: Path) -> None:
    root, outside = tmp_path / "course", tmp_path / "outside"
    (root / "lessons").mkdir(parents=True)
    outside.mkdir()
    (root / "out").symlink_to(outside)
    assert write_file(str(root / "lessons/a.md"), b"in", within=str(root)) is None
    problem = write_file(str(root / "lessons/../../x.md"), b"x", within=str(root))
    assert problem is not None and problem.reason == f"refusing a path outside {root}"
    problem = write_file(str(root / "out/x.md"), b"x", within=str(root))
    assert problem is not None and problem.reason.startswith("refusing a path that a link")
    assert list(outside.iterdir()) == [] and not (tmp_path / "x.md").exists()
