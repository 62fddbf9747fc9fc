"""Exit statuses that mean one thing in every command (`check`, `scan`, `map`, `unpack`,
`pack`): 0 clean, 1 problems found, 2 unusable input, environment or output path.
Run as a user runs them (`python -m mfls`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.kit.cli import mfls
from tests.kit.exports import dumps, export, item, node
from tests.kit.files import write_files

CLEAN = "?[%{{ name }}...Your name]\n\nHi {{ name }}.\n"
WITH_ERROR = "Hi {{}}.\n"


@pytest.fixture
def place(tmp_path: Path) -> Path:
    files = {"course/mfcourse.toml": 'lessons = ["*.md"]\n', "course/a.md": CLEAN}
    write_files(tmp_path, {"clean.md": CLEAN, "error.md": WITH_ERROR, **files})
    (tmp_path / "good.json").write_bytes(dumps(export([item("a", "A", CLEAN)], [node("a")])))
    (tmp_path / "bad.json").write_bytes(dumps(export([item("a", "A", WITH_ERROR)], [node("a")])))
    (tmp_path / "broken.json").write_text('{"version": "1.0", "shifu": 1, "outline_items": []}')
    return tmp_path


CASES = [
    # command, arguments, status
    ("check", ["clean.md"], 0),
    ("check", ["course"], 0),
    ("check", ["good.json"], 0),
    ("check", ["error.md"], 1),
    ("check", ["bad.json"], 1),
    ("check", ["missing.md"], 2),
    ("check", ["broken.json"], 2),
    ("check", ["error.md", "missing.md"], 2),  # unusable input outranks problems found
    ("scan", ["error.md"], 0),  # scan reports what it reads, it finds no problems
    ("scan", ["missing.md"], 2),
    ("scan", ["course"], 2),
    ("map", ["course", "-o", "map.html"], 0),
    ("map", ["good.json", "-o", "map.svg"], 0),
    ("map", ["missing"], 2),
    ("map", ["broken.json"], 2),
    ("map", ["course", "-o", "no/such/folder/map.html"], 2),
    ("unpack", ["good.json", "out"], 0),
    ("unpack", ["broken.json", "out2"], 2),
    ("unpack", ["missing.json", "out3"], 2),
    ("unpack", ["good.json", "course"], 2),  # not empty, no --force
    ("pack", ["course", "x.json"], 2),  # no manifest: not made by unpack
    ("pack", ["missing", "x.json"], 2),
]


@pytest.mark.parametrize(("command", "args", "status"), CASES)
def test_exit_status(place: Path, command: str, args: list[str], status: int) -> None:
    done = mfls(command, *args, cwd=place)
    assert done.returncode == status, done.stderr
    assert "Traceback" not in done.stderr
    if status == 2:
        assert done.stderr.startswith(f"mfls {command}: "), done.stderr


def test_pack_exit_statuses(place: Path) -> None:
    assert mfls("unpack", "good.json", "folder", cwd=place).returncode == 0
    assert mfls("pack", "folder", "back.json", cwd=place).returncode == 0
    assert (place / "back.json").read_bytes() == (place / "good.json").read_bytes()
    done = mfls("pack", "folder", "no/such/folder/x.json", cwd=place)
    assert done.returncode == 2, done.stderr


PRELUDE = "import sys\nfrom mfls.cli import main\nimport mfls.cli.check as command\n"


def test_a_recursion_error_exits_2_not_1(place: Path) -> None:
    """What a deep input once caused in `check` (a RecursionError) is no finding:
    exit 2 with one line, no traceback."""
    code = PRELUDE + (
        "def deep(*args, **kwargs):\n    raise RecursionError('maximum recursion depth')\n"
        "command.check_paths = deep"
    )
    done = mfls("check", "error.md", cwd=place, code=code)
    assert done.returncode == 2, done.stderr
    assert done.stderr == "mfls check: the input is nested too deeply to be read\n"


def test_an_unforeseen_error_exits_2_with_its_traceback(place: Path) -> None:
    code = PRELUDE + (
        "def broken(*args, **kwargs):\n    raise KeyError('surprise')\ncommand.check_paths = broken"
    )
    done = mfls("check", "clean.md", cwd=place, code=code)
    assert done.returncode == 2, done.stderr
    assert "Traceback" in done.stderr and "KeyError: 'surprise'" in done.stderr
    assert done.stderr.endswith(
        "mfls check: internal error (KeyError), a fault of mfls: please report it\n"
    )


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("args", [["check", "error.md"], ["map", "course"], ["scan", "clean.md"]])
def test_standard_output_on_a_full_disk_exits_2(place: Path, args: list[str]) -> None:
    """An output that cannot be written is an unusable output path: exit 2, one line."""
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "mfls", *args],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            cwd=place,
            timeout=120,
        )
    assert done.returncode == 2, done.stderr
    assert done.stderr.endswith(f"mfls {args[0]}: No space left on device\n"), done.stderr
    assert "Traceback" not in done.stderr
