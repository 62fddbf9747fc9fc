"""Every output path of `mfls map -o`, `mfls pack` and `mfls unpack` is held to one rule,
run as a user runs them: a regular file only (a link to one written through), never a
device, FIFO or socket, `-` for standard output, and never an input of the command or a
file of the course it reads. A refusal is exit 2 with every file as it was, byte for byte.

No test opens a FIFO or writes a device: a FIFO left unopened cannot block, and the
character device is one made in the test's folder (or `/dev/null` only where this
process could not replace it)."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest

from tests.kit.cli import mfls_bytes as mfls
from tests.kit.exports import dumps, export, item, node

LESSON = "c/01-Basics/02-Use.md"
MANIFEST = "c/.mfls/ai-shifu-export.json"


def course() -> dict[str, Any]:
    items = [
        item("c", "Basics", ""),
        item("a", "Ask", "?[%{{ name }}...Your name]\n", parent="c"),
        item("u", "Use", "Hi {{name}} and {{nmae}}\n", parent="c"),
    ]
    return export(items, [node("c", [node("a"), node("u")])], prompt="You teach {{name}}.")


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """course.json, its unpacked folder c, and a copy of the export in w/x.json."""
    (tmp_path / "course.json").write_bytes(dumps(course()))
    done = mfls("unpack", "course.json", "c", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / LESSON).is_file() and (tmp_path / MANIFEST).is_file()
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "x.json").write_bytes(dumps(course()))
    return tmp_path


def snapshot(root: Path) -> dict[str, tuple[str, object]]:
    """Every entry under `root`: its kind and its bytes (a file) or target (a link)."""
    found: dict[str, tuple[str, object]] = {}
    for folder, folders, files in os.walk(root):
        for name in folders + files:
            path = Path(folder) / name
            mode = path.lstat().st_mode
            key = str(path.relative_to(root))
            if stat.S_ISLNK(mode):
                found[key] = ("link", os.readlink(path))
            elif stat.S_ISREG(mode):
                found[key] = ("file", path.read_bytes())
            else:
                found[key] = (oct(stat.S_IFMT(mode)), None)
    return found


def writing(command: str, output: str) -> tuple[str, ...]:
    if command == "map":
        return ("map", "c", "--format", "json", "-o", output)
    return ("pack", "c", output)


def refused(work: Path, *args: str, words: str = "") -> None:
    before = snapshot(work)
    done = mfls(*args, cwd=work)
    message = done.stderr.decode()
    assert done.returncode == 2, message
    assert "nothing was written" in message and words in message, message
    assert "Traceback" not in message
    assert snapshot(work) == before


@pytest.mark.parametrize("command", ["map", "pack"])
def test_a_link_to_a_regular_file_is_written_through(work: Path, command: str) -> None:
    (work / "far").mkdir()
    target = work / "far" / "out.json"
    target.write_bytes(b"old")
    (work / "out.json").symlink_to("far/out.json")
    done = mfls(*writing(command, "out.json"), cwd=work)
    assert done.returncode == 0, done.stderr
    assert os.readlink(work / "out.json") == "far/out.json"
    shown = mfls(*writing(command, "-"), cwd=work)
    assert shown.returncode == 0 and shown.stdout.startswith(b"{")
    assert target.read_bytes() == shown.stdout
    assert sorted(p.name for p in (work / "far").iterdir()) == ["out.json"]


@pytest.mark.parametrize("command", ["map", "pack"])
@pytest.mark.parametrize("through_link", [False, True], ids=["fifo", "link-to-fifo"])
def test_a_fifo_or_a_link_to_one_is_refused(work: Path, command: str, through_link: bool) -> None:
    os.mkfifo(work / "pipe")
    name = "pipe"
    if through_link:
        (work / "out.json").symlink_to("pipe")
        name = "out.json"
    refused(work, *writing(command, name), words="FIFO")
    assert stat.S_ISFIFO((work / "pipe").lstat().st_mode)


def character_device(work: Path) -> Path:
    """A character device like `/dev/null`: made here when this process may, else the
    real `/dev/null` where this process cannot replace it (else the test is skipped)."""
    made = work / "null"
    try:
        os.mknod(made, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        if os.access("/dev", os.W_OK):
            pytest.skip("cannot make a device, and /dev/null could be replaced")
        return Path("/dev/null")
    return made


@pytest.mark.parametrize("command", ["map", "pack"])
@pytest.mark.parametrize("through_link", [False, True], ids=["device", "link-to-device"])
def test_a_character_device_or_a_link_to_one_is_refused(
    work: Path, command: str, through_link: bool
) -> None:
    device = character_device(work)
    name = str(device)
    if through_link:
        (work / "out.json").symlink_to(device)
        name = "out.json"
    refused(work, *writing(command, name), words="character device")
    assert stat.S_ISCHR(device.lstat().st_mode)


def test_dash_is_standard_output_for_map_and_pack(work: Path) -> None:
    before = snapshot(work)
    packed = mfls("pack", "c", "-", cwd=work)
    assert packed.returncode == 0, packed.stderr
    assert packed.stdout == (work / "course.json").read_bytes()
    drawn = mfls("map", "c", "-o", "-", cwd=work)
    assert drawn.returncode == 0, drawn.stderr
    assert drawn.stdout == mfls("map", "c", cwd=work).stdout
    assert drawn.stdout.startswith(b"<!DOCTYPE html>")
    assert snapshot(work) == before  # no file named "-"


SELF_OVERWRITES = {
    "map-export-onto-itself": ("map", "course.json", "-o", "course.json"),
    "map-export-onto-a-hard-link": ("map", "course.json", "-o", "hard.json"),
    "map-export-onto-a-link-to-it": ("map", "course.json", "-o", "soft.json"),
    "map-onto-a-lesson": ("map", "c", "-o", LESSON),
    "map-into-the-course": ("map", "c", "-o", "c/map.html"),
    "map-of-a-lesson-into-its-course": ("map", LESSON, "-o", "c/01-Basics/map.svg"),
    "pack-onto-a-lesson": ("pack", "c", LESSON),
    "pack-onto-the-manifest": ("pack", "c", MANIFEST),
    "pack-onto-a-link-to-a-lesson": ("pack", "c", "into.json"),
    "pack-onto-a-hard-link-to-a-lesson": ("pack", "c", "lesson-copy.json"),
    "unpack-over-the-folder-of-the-export": ("unpack", "w/x.json", "w", "--force"),
    "unpack-over-a-folder-above-the-export": ("unpack", "w/x.json", ".", "--force"),
}


@pytest.mark.parametrize("args", SELF_OVERWRITES.values(), ids=SELF_OVERWRITES.keys())
def test_an_output_onto_an_input_or_into_the_course_is_refused(
    work: Path, args: tuple[str, ...]
) -> None:
    os.link(work / "course.json", work / "hard.json")
    (work / "soft.json").symlink_to("course.json")
    (work / "into.json").symlink_to(LESSON)
    os.link(work / LESSON, work / "lesson-copy.json")
    refused(work, *args, words="which this command reads")


def test_after_a_refused_pack_the_folder_still_packs(work: Path) -> None:
    refused(work, "pack", "c", MANIFEST)
    again = mfls("pack", "c", "back.json", cwd=work)
    assert again.returncode == 0, again.stderr
    assert (work / "back.json").read_bytes() == (work / "course.json").read_bytes()
