import logging
import os
from pathlib import Path

import pytest

from mfls.workspace import files


def test_reads_utf8_keeping_line_endings(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_bytes("\ufeffone\r\ntwo\rthree\n".encode())
    assert files.read_text(str(path), str(tmp_path)) == "\ufeffone\r\ntwo\rthree\n"


def test_invalid_utf8_is_skipped_with_one_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "bad.md"
    path.write_bytes(b"ok \xff\xfe")
    with caplog.at_level(logging.WARNING, logger="mfls"):
        assert files.read_text(str(path), str(tmp_path)) is None
    [record] = caplog.records
    assert "not valid UTF-8" in record.getMessage() and "bad.md" in record.getMessage()


def test_too_large_is_skipped(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "big.md"
    path.write_bytes(b"x" * 101)
    with caplog.at_level(logging.WARNING, logger="mfls"):
        assert files.read_text(str(path), str(tmp_path), max_bytes=100) is None
        assert files.read_text(str(path), str(tmp_path), max_bytes=101) == "x" * 101
    assert "limit" in caplog.records[0].getMessage()


def test_vanished_is_skipped(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="mfls"):
        assert files.read_text(str(tmp_path / "gone.md"), str(tmp_path)) is None
    assert "no longer exists" in caplog.records[0].getMessage()


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_unreadable_is_skipped(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "secret.md"
    path.write_text("x")
    path.chmod(0)
    try:
        with caplog.at_level(logging.WARNING, logger="mfls"):
            assert files.read_text(str(path), str(tmp_path)) is None
        assert "unreadable" in caplog.records[0].getMessage()
    finally:
        path.chmod(0o644)


def test_read_error_is_skipped(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "a.md"
    path.write_text("x")

    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(files, "open", refuse, raising=False)
    with caplog.at_level(logging.WARNING, logger="mfls"):
        assert files.read_text(str(path), str(tmp_path)) is None
    assert "unreadable (Permission denied)" in caplog.records[0].getMessage()


def test_symlink_out_of_root_is_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("secret")
    root = tmp_path / "course"
    root.mkdir()
    (root / "link.md").symlink_to(outside)
    assert files.read_text(str(root / "link.md"), str(root)) is None
    (root / "inner.md").write_text("fine")
    (root / "alias.md").symlink_to(root / "inner.md")
    assert files.read_text(str(root / "alias.md"), str(root)) == "fine"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_fifo_and_directory_are_skipped_without_blocking(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    os.mkfifo(tmp_path / "mfcourse.toml")
    (tmp_path / "pipe.md").symlink_to(tmp_path / "mfcourse.toml")
    (tmp_path / "folder.md").mkdir()
    with caplog.at_level(logging.WARNING, logger="mfls"):
        for name in ("mfcourse.toml", "pipe.md"):
            assert files.read_text(str(tmp_path / name), str(tmp_path)) is None
        assert files.read_text(str(tmp_path / "folder.md"), str(tmp_path)) is None
    messages = [record.getMessage() for record in caplog.records]
    assert [message.endswith("not a regular file") for message in messages] == [True, True, False]
    assert messages[2].endswith("it is a directory")


def test_walk_skips_loops_links_out_and_hidden_directories(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "o.md").write_text("o")
    root = tmp_path / "course"
    (root / "sub").mkdir(parents=True)
    (root / "a.md").write_text("a")
    (root / "sub" / "b.md").write_text("b")
    (root / "sub" / "loop").symlink_to(root)
    (root / "out").symlink_to(outside)
    (root / ".git").mkdir()
    (root / ".git" / "c.md").write_text("c")
    (root / "nested").mkdir()
    (root / "nested" / "mfcourse.toml").write_text("")
    with caplog.at_level(logging.WARNING, logger="mfls"):
        listing = files.walk(str(root))
    assert sorted(os.path.relpath(p, root) for p in listing.files) == ["a.md", "sub/b.md"]
    assert listing.course_roots == [str(root / "nested")]
    messages = " ".join(r.getMessage() for r in caplog.records)
    assert "loop" in messages and "leaves the course root" in messages


def test_walk_stops_at_the_document_limit(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    for index in range(5):
        (tmp_path / f"{index}.md").write_text("x")
    with caplog.at_level(logging.WARNING, logger="mfls"):
        listing = files.walk(str(tmp_path), max_documents=3)
    assert len(listing.files) == 3
    assert len(caplog.records) == 1
