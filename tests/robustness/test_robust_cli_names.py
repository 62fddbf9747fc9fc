"""Odd file names through `mfls check`, `scan` and `rename`: no traceback, and every
printed path escaped, so no name forges an output line or reaches the terminal raw."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.kit.cli import mfls_bytes as mfls

FORGED = "a\nforged.md:1:1: error x.md"
ESCAPES = "\x1b[2J\x1b]0;owned\x07\rred\x9b.md"
NOT_UTF8 = os.fsdecode(b"bad\xff\xfe.md")
NAMES = (FORGED, ESCAPES, NOT_UTF8)
LESSON = "Empty {{ }} and {{ topic }}.\n"


def assert_clean(output: bytes, lines: int | None = None) -> None:
    """No traceback, no raw control byte or undecodable byte, no forged line."""
    assert b"Traceback" not in output
    assert not any(b < 0x20 and b not in (0x0A,) for b in output), output
    text = output.decode("utf-8")  # valid UTF-8: undecodable bytes were escaped
    assert not any(0x80 <= ord(ch) <= 0x9F for ch in text)
    assert not any(line.startswith("forged.md") for line in text.splitlines())
    if lines is not None:
        assert len(text.splitlines()) == lines, text


@pytest.fixture
def course(tmp_path: Path) -> Path:
    root = tmp_path / "course"
    root.mkdir()
    (root / "mfcourse.toml").write_text("")
    (root / "plain.md").write_text("?[{{ topic }} A | B]\n")
    for name in NAMES:
        (root / name).write_bytes(LESSON.encode())
    return root


def test_check_escapes_every_path(course: Path) -> None:
    done = mfls("check", ".", cwd=course)
    assert done.returncode == 1  # the empty markers are errors
    # Two findings (empty marker + its own line) per odd file at most: one line each.
    assert_clean(done.stdout)
    assert_clean(done.stderr)
    out = done.stdout.decode()
    assert "a\\nforged.md:1:1: error x.md:1:7: error marker-empty" in out
    assert "\\x1b[2J" in out and "\\r" in out and "\\x9b" in out
    assert "bad\\xff\\xfe.md:1:7" in out


@pytest.mark.parametrize("name", NAMES)
def test_check_and_scan_of_a_named_odd_file(course: Path, name: str) -> None:
    raw = os.fsencode(name)
    checked = mfls("check", raw, cwd=course)
    assert checked.returncode == 1
    assert_clean(checked.stdout, lines=2)  # the empty marker, and topic read before asked
    assert_clean(checked.stderr)
    scanned = mfls("scan", raw, cwd=course)
    assert scanned.returncode == 0
    assert_clean(scanned.stdout)
    assert_clean(scanned.stderr)
    missing = mfls("scan", os.fsencode(name + ".gone"), cwd=course)
    assert missing.returncode == 2
    assert_clean(missing.stderr, lines=1)
    missing = mfls("check", os.fsencode(name + ".gone"), cwd=course)
    assert missing.returncode == 2
    assert_clean(missing.stderr, lines=1)


def test_rename_dry_run_and_real_run_escape_every_path(course: Path) -> None:
    dry = mfls("rename", "--course", ".", "--dry-run", "topic", "subject", cwd=course)
    assert dry.returncode == 0, dry.stderr
    assert_clean(dry.stdout)
    assert_clean(dry.stderr)
    assert b"a\\nforged.md:1:1: error x.md" in dry.stdout
    done = mfls("rename", "--course", ".", "topic", "subject", cwd=course)
    assert done.returncode == 0, done.stderr
    assert_clean(done.stdout, lines=1 + 1 + len(NAMES))
    assert_clean(done.stderr)
    for name in NAMES:
        assert (course / name).read_text() == LESSON.replace("topic", "subject")


def test_a_refusal_naming_an_odd_path_is_escaped(course: Path) -> None:
    (course / "z\x1b[31m\n.md").write_bytes(b"Not \xff UTF-8 {{ topic }}\n")
    done = mfls("rename", "--course", ".", "topic", "subject", cwd=course)
    assert done.returncode == 1
    assert_clean(done.stderr)
    refusal = [line for line in done.stderr.splitlines() if line.startswith(b"mfls rename:")]
    assert len(refusal) == 1 and b"z\\x1b[31m\\n.md (not valid UTF-8" in refusal[0]
