"""mfls.disk reading: every bad file comes back as a `DiskProblem`, nothing raises,
nothing blocks, nothing is logged."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from mfls import disk
from mfls.disk import DiskProblem, reading


def only(problems: tuple[DiskProblem, ...]) -> DiskProblem:
    [problem] = problems
    return problem


@pytest.fixture(autouse=True)
def nothing_logged(caplog: pytest.LogCaptureFixture) -> object:
    with caplog.at_level(logging.DEBUG):
        yield
    assert caplog.records == [], "the gateway reports problems as data, never as log lines"


def test_reads_utf8_keeping_line_endings(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_bytes("\ufeffone\r\ntwo\rthree\n".encode())
    assert disk.read_text(str(path), str(tmp_path)) == ("\ufeffone\r\ntwo\rthree\n", ())
    assert disk.read_bytes(str(path)) == ("\ufeffone\r\ntwo\rthree\n".encode(), ())


def test_invalid_utf8_is_a_problem_naming_the_byte(tmp_path: Path) -> None:
    path = tmp_path / "bad.md"
    path.write_bytes(b"ok \xff\xfe")
    text, problems = disk.read_text(str(path), str(tmp_path))
    assert text is None
    assert only(problems) == DiskProblem(str(path), "not valid UTF-8 (byte 3)")
    assert "bad.md" in only(problems).path
    assert disk.read_bytes(str(path)) == (b"ok \xff\xfe", ())


def test_too_large_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "big.md"
    path.write_bytes(b"x" * 101)
    text, problems = disk.read_text(str(path), str(tmp_path), max_bytes=100)
    assert text is None
    assert only(problems).reason == "101 bytes is over the 100-byte limit"
    assert disk.read_text(str(path), str(tmp_path), max_bytes=101) == ("x" * 101, ())
    data, problems = disk.read_bytes(str(path), max_bytes=100)
    assert data is None and "limit" in only(problems).reason


def test_the_size_limit_applies_to_any_path_without_reading_it(tmp_path: Path) -> None:
    sparse = tmp_path / "huge.md"
    with open(sparse, "wb") as handle:
        handle.truncate(2**40)  # a terabyte, sparse: reading it would never end
    data, problems = disk.read_bytes(str(sparse))
    assert data is None
    assert only(problems).reason == f"{2**40} bytes is over the {disk.MAX_FILE_BYTES}-byte limit"
    prefix, _ = disk.read_prefix(str(sparse), max_bytes=10)
    assert prefix == b"\0" * 11


def test_vanished_is_skipped(tmp_path: Path) -> None:
    gone = str(tmp_path / "gone.md")
    vanished = (None, (DiskProblem(gone, "it no longer exists"),))
    assert disk.read_text(gone, str(tmp_path)) == vanished
    assert disk.read_bytes(gone) == vanished


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_unreadable_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "secret.md"
    path.write_text("x")
    path.chmod(0)
    try:
        text, problems = disk.read_text(str(path), str(tmp_path))
        assert text is None and "unreadable" in only(problems).reason
    finally:
        path.chmod(0o644)


def test_read_error_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.md"
    path.write_text("x")

    def refuse(descriptor: int, limit: int) -> bytes:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(reading, "read_descriptor", refuse)
    text, problems = disk.read_text(str(path), str(tmp_path))
    assert text is None
    assert only(problems).reason == "unreadable (Permission denied)"


def test_symlink_out_of_root_is_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("secret")
    root = tmp_path / "course"
    root.mkdir()
    (root / "link.md").symlink_to(outside)
    text, problems = disk.read_text(str(root / "link.md"), str(root))
    assert text is None
    assert only(problems) == DiskProblem(
        str(root / "link.md"), f"it resolves outside the course root {root}"
    )
    (root / "inner.md").write_text("fine")
    (root / "alias.md").symlink_to(root / "inner.md")
    assert disk.read_text(str(root / "alias.md"), str(root)) == ("fine", ())


def test_a_root_reached_through_a_link_reads_its_files(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "a.md").write_text("inside")
    (tmp_path / "course").symlink_to(tmp_path / "real")
    (tmp_path / "outside.md").write_text("secret")
    (tmp_path / "real" / "up.md").symlink_to(tmp_path / "outside.md")
    root = str(tmp_path / "course")
    assert disk.read_text(str(tmp_path / "course" / "a.md"), root) == ("inside", ())
    text, problems = disk.read_text(str(tmp_path / "course" / "up.md"), root)
    assert text is None
    assert only(problems).kind == "outside"


def test_a_symlink_loop_is_a_problem(tmp_path: Path) -> None:
    (tmp_path / "x.md").symlink_to(tmp_path / "y.md")
    (tmp_path / "y.md").symlink_to(tmp_path / "x.md")
    text, problems = disk.read_text(str(tmp_path / "x.md"), str(tmp_path))
    assert text is None and only(problems).path == str(tmp_path / "x.md")
    assert "unreadable" in only(problems).reason


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_fifo_and_directory_are_skipped_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "mfcourse.toml")
    (tmp_path / "pipe.md").symlink_to(tmp_path / "mfcourse.toml")
    (tmp_path / "folder.md").mkdir()
    reasons = []
    for name in ("mfcourse.toml", "pipe.md", "folder.md"):
        text, problems = disk.read_text(str(tmp_path / name), str(tmp_path))
        assert text is None and only(problems).path == str(tmp_path / name)
        reasons.append(only(problems).reason)
        assert disk.read_bytes(str(tmp_path / name)) == (None, problems)
    assert reasons == [
        "not a regular file (a FIFO)",
        "not a regular file (a FIFO)",
        "not a regular file (a directory)",
    ]
    assert disk.contains(str(tmp_path / "mfcourse.toml"), b"x") is None


def test_devices_are_not_read() -> None:
    for device in ("/dev/zero", "/dev/null"):
        if os.path.exists(device):
            data, problems = disk.read_bytes(device)
            assert data is None
            assert only(problems).reason == "not a regular file (a character device)"


def test_odd_names_never_raise(tmp_path: Path) -> None:
    raw = os.fsencode(str(tmp_path)) + b"/caf\xe9.md"
    with open(raw, "wb") as handle:
        handle.write(b"{{ k }}")
    name = os.fsdecode(raw)  # the undecodable byte kept as a lone surrogate
    assert disk.read_text(name, str(tmp_path)) == ("{{ k }}", ())
    text, problems = disk.read_text(str(tmp_path / "nul\0.md"))
    assert text is None and only(problems).reason == "unreadable (its name holds a NUL)"
    assert DiskProblem(name, "x").shown.endswith("caf\\xe9.md")
    assert DiskProblem("a\nforged.md:1:1: error", "x").shown == "a\\nforged.md:1:1: error"
    assert DiskProblem("\x1b[31mred", "x").shown == "\\x1b[31mred"
    assert not disk.is_regular_file("a\0b") and not disk.exists("a\0b")


def test_contains_reads_past_chunk_edges(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reading, "CHUNK_BYTES", 4)
    path = tmp_path / "a.md"
    path.write_bytes(b"0123456789{{ key }}xyz")
    assert disk.contains(str(path), b"{{ key }}") is True
    assert disk.contains(str(path), b"{{ other }}") is False
    assert disk.contains(str(tmp_path / "missing.md"), b"x") is None


def test_nearest_course_root(tmp_path: Path) -> None:
    (tmp_path / "c" / "d").mkdir(parents=True)
    (tmp_path / "c" / "mfcourse.toml").write_text("")
    directory = str(tmp_path / "c" / "d")
    assert disk.nearest_holding(directory, "mfcourse.toml", str(tmp_path)) == str(tmp_path / "c")
    assert disk.nearest_holding(str(tmp_path), "mfcourse.toml", str(tmp_path)) is None
    (tmp_path / "e").mkdir()
    os.mkfifo(tmp_path / "e" / "mfcourse.toml")
    assert disk.nearest_holding(str(tmp_path / "e"), "mfcourse.toml", str(tmp_path)) is None
