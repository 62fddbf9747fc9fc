"""mfls.disk.replacing: every file changes, or none does; the outcome is data."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mfls.disk import replacing
from mfls.disk.replacing import FileChange, ReplaceFailure
from tests.kit.faults import fail_on_call


def _files(tmp_path: Path, count: int) -> list[Path]:
    paths = []
    for i in range(count):
        path = tmp_path / f"f{i}.md"
        path.write_bytes(f"file {i} {{{{a}}}}\r\n".encode())
        paths.append(path)
    return paths


def _changes(paths: list[Path]) -> list[FileChange]:
    return [
        FileChange(p, p.read_bytes(), p.read_bytes().replace(b"{{a}}", b"{{ b }}")) for p in paths
    ]


def test_apply_file_changes_writes_every_file_and_leaves_no_temp(tmp_path: Path) -> None:
    paths = _files(tmp_path, 4)
    paths[1].chmod(0o600)
    assert replacing.apply_file_changes(_changes(paths)) is None
    for i, path in enumerate(paths):
        assert path.read_bytes() == f"file {i} {{{{ b }}}}\r\n".encode()
    assert paths[1].stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == [p.name for p in paths]


def _third_call_failing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str, error: OSError
) -> ReplaceFailure:
    """Four files changed with the third call of `step` failing: the failure, once every
    file is checked to hold its bytes and no temporary file is left."""
    paths = _files(tmp_path, 4)
    before = {p: p.read_bytes() for p in paths}
    fail_on_call(monkeypatch, replacing, step, 3, error)
    failure = replacing.apply_file_changes(_changes(paths))
    assert failure is not None
    assert {p: p.read_bytes() for p in paths} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [p.name for p in paths]
    return failure


def test_failed_third_temp_write_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    error = OSError(28, "No space left on device")
    failure = _third_call_failing(tmp_path, monkeypatch, "write_temp", error)
    assert "left as it was" in failure.message
    assert not failure.changed_on_disk and failure.unrestored == ()


def test_failed_third_replace_restores_the_first_two(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    error = OSError(5, "Input/output error")
    failure = _third_call_failing(tmp_path, monkeypatch, "replace", error)
    assert not failure.changed_on_disk
    assert "Input/output error" in failure.message


def test_a_file_changed_since_planning_stops_everything(tmp_path: Path) -> None:
    paths = _files(tmp_path, 3)
    changes = _changes(paths)
    paths[2].write_bytes(b"edited meanwhile\n")
    failure = replacing.apply_file_changes(changes)
    assert failure == ReplaceFailure(
        f"{paths[2]} changed on disk; nothing was written", changed_on_disk=True
    )
    assert paths[0].read_bytes() == b"file 0 {{a}}\r\n"


def test_a_file_that_grew_or_vanished_stops_everything(tmp_path: Path) -> None:
    paths = _files(tmp_path, 3)
    changes = _changes(paths)
    paths[1].write_bytes(paths[1].read_bytes() + b"more")
    failure = replacing.apply_file_changes(changes)
    assert failure is not None and failure.changed_on_disk
    paths[1].write_bytes(changes[1].original)
    paths[2].unlink()
    failure = replacing.apply_file_changes(changes)
    assert failure is not None and not failure.changed_on_disk
    assert failure.message == f"cannot read {paths[2]}: it no longer exists"
    assert not paths[2].exists()
    assert paths[0].read_bytes() == b"file 0 {{a}}\r\n"


def test_a_fifo_in_place_of_a_file_is_not_opened(tmp_path: Path) -> None:
    paths = _files(tmp_path, 2)
    changes = _changes(paths)
    paths[1].unlink()
    os.mkfifo(paths[1])
    failure = replacing.apply_file_changes(changes)
    assert failure is not None
    assert failure.message == f"cannot read {paths[1]}: not a regular file (a FIFO)"
