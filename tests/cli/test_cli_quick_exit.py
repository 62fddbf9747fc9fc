"""`mfls check`, `scan` and `map` end with `os._exit` after flushing: nothing printed is lost,
and the exit status is main's."""

from __future__ import annotations

import subprocess
from pathlib import Path

from mfls.cli.check import check_paths, report_text
from tests.kit.cli import mfls_bytes


def _mfls(*args: str) -> subprocess.CompletedProcess[bytes]:
    return mfls_bytes(*args)


def _course(root: Path, lessons: int) -> None:
    (root / "mfcourse.toml").write_text('name = "big output"\n')
    for n in range(lessons):
        reads = " ".join(f"{{{{ unknown {n} {k} }}}}" for k in range(40))
        (root / f"l{n:03}.md").write_text(f"?[{{{{ q{n} }}}} A | B]\n\n{reads}\n")


def test_every_line_of_a_big_report_reaches_the_pipe(tmp_path: Path) -> None:
    _course(tmp_path, 60)
    done = _mfls("check", "--jobs", "1", str(tmp_path))
    expected = report_text(check_paths([str(tmp_path)]))
    assert len(expected) > 200_000  # several pipe buffers
    assert done.stdout.decode() == expected
    assert done.returncode == 0


def test_the_status_of_main_is_the_exit_status(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("{{ bad\u0001key }}\n")
    done = _mfls("check", str(tmp_path / "a.md"))
    assert done.returncode == 1
    assert b"error" in done.stdout
    missing = _mfls("scan", str(tmp_path / "none.md"))
    assert missing.returncode == 2
    assert b"none.md" in missing.stderr
