"""The output rule (`mfls.disk.outputs.check_output`) and the writes held to it
(`write_file`, `write_tree`). Nothing here opens or writes a device: `/dev/null` is only
checked, never written."""

from __future__ import annotations

import os
import socket
import stat
from pathlib import Path

import pytest

from mfls.disk import DiskProblem
from mfls.disk.outputs import Output, check_output
from mfls.disk.trees import write_file, write_tree


def refused(found: Output | DiskProblem, *words: str) -> None:
    assert isinstance(found, DiskProblem), found
    for word in words:
        assert word in found.reason, found.reason


def test_a_new_name_and_a_regular_file_are_written_where_they_are(tmp_path: Path) -> None:
    real = os.path.realpath(tmp_path)
    assert check_output(str(tmp_path / "new.html")) == Output(f"{real}/new.html", None)
    (tmp_path / "old.html").write_text("x")
    found = check_output(str(tmp_path / "old.html"))
    assert isinstance(found, Output)
    assert found.path == f"{real}/old.html" and found.identity is not None


def test_a_link_to_a_regular_file_resolves_to_that_file(tmp_path: Path) -> None:
    (tmp_path / "far").mkdir()
    (tmp_path / "far" / "map.html").write_text("old")
    (tmp_path / "link.html").symlink_to("far/map.html")
    (tmp_path / "chain.html").symlink_to("link.html")
    for name in ("link.html", "chain.html"):
        found = check_output(str(tmp_path / name))
        assert isinstance(found, Output)
        assert found.path == os.path.realpath(tmp_path / "far" / "map.html")


@pytest.mark.parametrize("where", ["/dev/null", "/dev/zero"])
def test_a_real_character_device_is_refused_and_a_link_to_it(tmp_path: Path, where: str) -> None:
    if not stat.S_ISCHR(os.stat(where).st_mode):
        pytest.skip(f"{where} is no character device here")
    refused(check_output(where), "character device")
    (tmp_path / "out.html").symlink_to(where)
    refused(check_output(str(tmp_path / "out.html")), "link to a character device")


def test_a_fifo_a_socket_a_folder_and_links_to_them_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "dir").mkdir()
    server = socket.socket(socket.AF_UNIX)
    try:
        monkeypatch.chdir(tmp_path)  # a short socket name, whatever the length of tmp_path
        server.bind("sock")
        for name, kind in (("fifo", "a FIFO"), ("sock", "a socket"), ("dir", "a folder")):
            refused(check_output(str(tmp_path / name)), f"it is {kind}, not a regular file")
            (tmp_path / f"to-{name}").symlink_to(name)
            refused(check_output(str(tmp_path / f"to-{name}")), f"link to {kind}")
    finally:
        server.close()
    assert stat.S_ISFIFO(os.lstat(tmp_path / "fifo").st_mode)


def test_a_link_to_nothing_and_a_missing_folder_are_refused(tmp_path: Path) -> None:
    (tmp_path / "dangling.html").symlink_to("nowhere.html")
    refused(check_output(str(tmp_path / "dangling.html")), "link to nothing")
    refused(check_output(str(tmp_path / "no" / "map.html")), "its folder")
    (tmp_path / "file").write_text("x")
    refused(check_output(str(tmp_path / "file" / "map.html")), "its folder")
    refused(check_output(str(tmp_path) + "/"), "names a folder")


def test_an_input_under_any_name_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "course.json"
    source.write_text("{}")
    os.link(source, tmp_path / "hard.json")
    (tmp_path / "soft.json").symlink_to("course.json")
    for name in ("course.json", "hard.json", "soft.json"):
        refused(check_output(str(tmp_path / name), [str(source)]), "which this command reads")
    assert isinstance(check_output(str(tmp_path / "other.json"), [str(source)]), Output)


def test_a_file_in_a_folder_read_is_refused_by_path_or_through_a_link(tmp_path: Path) -> None:
    course = tmp_path / "c"
    (course / "sub").mkdir(parents=True)
    (course / "01-a.md").write_text("lesson")
    (tmp_path / "into.md").symlink_to("c/01-a.md")
    (tmp_path / "alias").symlink_to("c")
    for name in ("c/01-a.md", "c/new.html", "c/sub/new.html", "into.md", "alias/new.html"):
        refused(check_output(str(tmp_path / name), roots=[str(course)]), "lies in")
    assert isinstance(check_output(str(tmp_path / "map.html"), roots=[str(course)]), Output)


def test_a_folder_output_never_holds_an_input_nor_goes_through_a_link(tmp_path: Path) -> None:
    (tmp_path / "course").mkdir()
    source = tmp_path / "course" / "x.json"
    source.write_text("{}")
    refused(check_output(str(tmp_path / "course"), [str(source)], folder=True), "it holds")
    refused(check_output(str(tmp_path), [str(source)], folder=True), "it holds")
    (tmp_path / "link").symlink_to("course")
    refused(check_output(str(tmp_path / "link"), folder=True), "a link")
    refused(check_output(str(source), folder=True), "a regular file, not a folder")
    assert isinstance(check_output(str(tmp_path / "new"), [str(source)], folder=True), Output)


def test_write_file_writes_through_a_link_and_keeps_the_mode(tmp_path: Path) -> None:
    (tmp_path / "far").mkdir()
    target = tmp_path / "far" / "e.json"
    target.write_bytes(b"old")
    target.chmod(0o600)
    (tmp_path / "e.json").symlink_to("far/e.json")
    assert write_file(str(tmp_path / "e.json"), b"new") is None
    assert (tmp_path / "e.json").is_symlink()
    assert target.read_bytes() == b"new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert sorted(p.name for p in (tmp_path / "far").iterdir()) == ["e.json"]


def test_write_file_and_write_tree_refuse_what_the_rule_refuses(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "x.json").write_bytes(b"input")
    problem = write_file(str(tmp_path / "fifo"), b"x")
    assert problem is not None and "FIFO" in problem.reason
    problem = write_file(str(tmp_path / "x.json"), b"x", inputs=[str(tmp_path / "x.json")])
    assert problem is not None and "which this command reads" in problem.reason
    problem = write_tree(
        str(tmp_path), {"a.md": b""}, replace=True, inputs=[str(tmp_path / "x.json")]
    )
    assert problem is not None and "it holds" in problem.reason
    assert stat.S_ISFIFO(os.lstat(tmp_path / "fifo").st_mode)
    assert (tmp_path / "x.json").read_bytes() == b"input"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "x.json"]
