"""`mfls.lsp.playground`, what the playground's Web Worker asks of mfls's Python, on a
course held in memory (`MemoryDisk`): the one lesson path rule, a course replaced by a
folder or an AI-Shifu export (nothing written outside it), and packed back as `mfls pack`
does; and the warm-up the worker snapshots, which leaves no server behind."""

from __future__ import annotations

import builtins
import gc
import json
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from mfls.disk import DiskProblem
from mfls.disk.memory import MemoryDisk
from mfls.exports.ai_shifu import read_export
from mfls.exports.layout import unpack
from mfls.lsp import playground
from mfls.lsp.playground import ROOT, CourseFolder, lesson_path, safe_path
from mfls.lsp.sync import SyncServer
from mfls.lsp.workspace_edits import wire_converter
from tests.ai_shifu_exports import shared_exports


class MemoryWriter:
    """Writes into a `MemoryDisk` as `RealWriter` writes the file system: the tree
    replaced whole, one file replaced (its folder must exist)."""

    def __init__(self, disk: MemoryDisk) -> None:
        self.disk = disk

    def write_tree(self, root: str, files: Mapping[str, bytes]) -> DiskProblem | None:
        self.disk.remove(root)
        for path, data in files.items():
            self.disk.put(f"{root}/{path}", data)
        return None

    def write_file(self, path: str, data: bytes, root: str) -> DiskProblem | None:
        if not path.startswith(f"{root}/"):
            return DiskProblem(path, f"refusing a path outside {root}")
        if not self.disk.is_directory(path.rsplit("/", 1)[0]):
            return DiskProblem(path, "No such file or directory")
        self.disk.put(path, data)
        return None


def course(files: Mapping[str, str | bytes] | None = None) -> tuple[CourseFolder, MemoryDisk]:
    disk = MemoryDisk({f"{ROOT}/{path}": data for path, data in (files or {}).items()})
    return CourseFolder(ROOT, disk, MemoryWriter(disk)), disk


def everything(disk: MemoryDisk) -> list[str]:
    listing, _problems = disk.walk("/")
    return sorted(listing.files)


@pytest.mark.parametrize(
    ("name", "path"),
    [
        ("intro.md", "lessons/intro.md"),
        ("  intro.md\n", "lessons/intro.md"),
        ("/intro.md", "lessons/intro.md"),
        ("//lessons/02-next.md", "lessons/02-next.md"),
        ("extra/notes.md", "extra/notes.md"),
        ("", None),
        ("   ", None),
        ("/", None),
        ("..", None),
        ("../escape.md", None),
        ("lessons/../../escape.md", None),
        ("lessons//a.md", None),
        ("./a.md", None),
        ("lessons/a.md/", None),
        ("a\\..\\..\\x.md", None),
        ("lessons\\a.md", None),
        ("C:x.md", None),
        ("lessons/C:x.md", None),
        ("a\0.md", None),
        ("a\nb.md", None),
        ("lessons/a\x7f.md", None),
        ("x" * 253 + ".md", None),
        ("x" * 252 + ".md", "lessons/" + "x" * 252 + ".md"),
        ("é" * 126 + ".md", "lessons/" + "é" * 126 + ".md"),
        ("é" * 127 + ".md", None),
        (".mfls/ai-shifu-export.json", None),
        ("lessons/.mfls/a.md", "lessons/.mfls/a.md"),
    ],
)
def test_lesson_path_is_the_one_rule_for_a_named_lesson(name: str, path: str | None) -> None:
    assert lesson_path(name) == path


def test_safe_path_refuses_every_part_that_leaves_the_course() -> None:
    assert safe_path("lessons/a.md") and safe_path(".mfls/ai-shifu-export.json")
    assert not any(safe_path(p) for p in ("", "/a.md", "a/../../b", "a/./b", "a//b", "a/"))


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("a/../b", "an empty, . or .. part in 'a/../b'"),
        ("a\\b.md", "a backslash or colon in 'a\\\\b.md' (a folder or drive on Windows)"),
        ("C:x.md", "a backslash or colon in 'C:x.md' (a folder or drive on Windows)"),
        ("a\0b", "a control character in 'a\\x00b'"),
        ("y" * 256, f"a name over 255 bytes in {'y' * 256!r}"),
    ],
)
def test_path_problem_says_why_a_path_is_refused(path: str, reason: str) -> None:
    assert playground.path_problem(path) == reason


def test_the_page_never_writes_mfls_own_records() -> None:
    assert playground.page_path("lessons/a.md")
    assert not playground.page_path(".mfls/ai-shifu-export.json")
    folder, disk = course({"lessons/a.md": "A\n", ".mfls/rename-records.jsonl": "kept\n"})
    refused = folder.pack({".mfls/rename-records.jsonl": "planted\n", "lessons/a.md": "B\n"})
    assert refused.keys() == {"refused"}  # no manifest: nothing to pack, the edits written
    assert disk.read_bytes(f"{ROOT}/.mfls/rename-records.jsonl")[0] == b"kept\n"
    assert disk.read_bytes(f"{ROOT}/lessons/a.md")[0] == b"B\n"


def test_an_edit_is_not_written_through_a_link_out_of_the_course(tmp_path: Path) -> None:
    """On a real disk: `lessons -> ../outside` must not carry the page's edit out."""
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "course"
    root.mkdir()
    (root / "lessons").symlink_to(outside)
    folder = CourseFolder(str(root))
    assert folder.pack({"lessons/a.md": "escaped\n"}) == {
        "refused": f"lessons/a.md: refusing a path that a link leads outside {root}"
    }
    assert list(outside.iterdir()) == []


def test_a_folder_replaces_the_course_and_nothing_lands_outside_it() -> None:
    folder, disk = course({"mfcourse.toml": "host = 'generic'\n", "lessons/old.md": "Old\n"})
    result = folder.replace(
        {
            "mfcourse.toml": b'host = "ai-shifu"\n',
            "lessons/01.md": b"Hi {{ name }}\n",
            "lessons/bad.md": b"\xff\xfe not UTF-8",
            "notes.txt": b"kept",
            ".mfls/ai-shifu-export.json": b"{}",
            "../outside.md": b"x",
            "lessons/../../etc/passwd": b"x",
            "/absolute.md": b"x",
        },
        "My course",
    )
    assert result == {
        "old": ["lessons/old.md", "mfcourse.toml"],
        "new": ["lessons/01.md", "lessons/bad.md", "mfcourse.toml", "notes.txt"],
        "texts": {"mfcourse.toml": 'host = "ai-shifu"\n', "lessons/01.md": "Hi {{ name }}\n"},
        "kept": {
            "lessons/bad.md": b"\xff\xfe not UTF-8",
            "notes.txt": b"kept",
            ".mfls/ai-shifu-export.json": b"{}",
        },
        "title": "My course",
        "left_out": ["../outside.md", "/absolute.md", "lessons/../../etc/passwd"],
    }
    assert everything(disk) == [
        f"{ROOT}/lessons/01.md",
        f"{ROOT}/lessons/bad.md",
        f"{ROOT}/mfcourse.toml",
        f"{ROOT}/notes.txt",
    ]
    assert disk.read_bytes(f"{ROOT}/.mfls/ai-shifu-export.json")[0] == b"{}"


def test_a_shared_course_never_writes_mfls_own_records_nor_windows_paths() -> None:
    """A share link is anyone's text: its `.mfls/` files and the paths a Windows unzipper
    would read as folders or drives are left out, and said so."""
    folder, disk = course({"lessons/old.md": "Old\n"})
    result = folder.replace(
        {
            "lessons/01.md": b"Hi\n",
            ".mfls/ai-shifu-export.json": b"{}",
            "a\\..\\..\\x.md": b"x",
            "C:x.md": b"x",
        },
        None,
        shared=True,
    )
    assert result["left_out"] == [".mfls/ai-shifu-export.json", "C:x.md", "a\\..\\..\\x.md"]
    assert result["texts"] == {"lessons/01.md": "Hi\n"} and result["kept"] == {}
    assert everything(disk) == [f"{ROOT}/lessons/01.md"]
    assert disk.read_bytes(f"{ROOT}/.mfls/ai-shifu-export.json")[0] is None


def test_a_tree_that_cannot_be_written_is_refused() -> None:
    class Full(MemoryWriter):
        def write_tree(self, root: str, files: Mapping[str, bytes]) -> DiskProblem | None:
            return DiskProblem(root, "No space left on device")

    disk = MemoryDisk({f"{ROOT}/lessons/a.md": "A\n"})
    folder = CourseFolder(ROOT, disk, Full(disk))
    assert folder.replace({"lessons/b.md": b"B\n"}, None) == {
        "refused": "/course: No space left on device"
    }
    assert everything(disk) == [f"{ROOT}/lessons/a.md"]


def test_bytes_that_are_no_export_are_refused_and_the_course_stays() -> None:
    folder, disk = course({"lessons/a.md": "A\n"})
    assert folder.open_export(b"[1, 2", "broken.json") == {
        "refused": "broken.json is not a usable AI-Shifu export: " + read_export(b"[1, 2").message  # type: ignore[union-attr]
    }
    assert everything(disk) == [f"{ROOT}/lessons/a.md"]


def test_a_folder_without_a_manifest_is_not_packed() -> None:
    folder, _disk = course({"lessons/a.md": "A\n"})
    refused = folder.pack({})
    assert refused.keys() == {"refused"}
    assert str(refused["refused"]).startswith("no .mfls/ai-shifu-export.json (")


def real_export() -> Path:
    found = shared_exports()
    exports = sorted(found.glob("*.json")) if found else []
    if not exports:
        pytest.skip("no real AI-Shifu export (set MFLS_AI_SHIFU_EXPORTS)")
    return exports[0]


def test_a_real_export_opens_as_mfls_unpack_lays_it_out_and_packs_back_byte_for_byte() -> None:
    export = real_export()
    data = export.read_bytes()
    folder, _disk = course({"lessons/old.md": "Old\n"})
    opened = folder.open_export(data, export.name)
    parsed = read_export(data)
    unpacked = unpack(parsed, data, export.name)  # type: ignore[arg-type]
    assert opened["title"] == json.loads(data)["shifu"]["title"]
    assert opened["old"] == ["lessons/old.md"]
    assert {**opened["texts"], **opened["kept"]}.keys() == unpacked.files.keys()
    assert all(unpacked.files[p] == t.encode() for p, t in opened["texts"].items())
    assert folder.pack({}) == {"bytes": data}

    lesson = next(p for p in opened["texts"] if p.endswith(".md"))
    edited = opened["texts"][lesson] + "\nEdited in the playground.\n"
    packed = folder.pack({lesson: edited, "../outside.md": "x"})
    assert packed["bytes"] != data
    again, _ = course({})
    reopened = again.open_export(packed["bytes"], export.name)
    assert reopened["texts"][lesson] == edited


def servers() -> int:
    gc.collect()
    return sum(isinstance(o, SyncServer) for o in gc.get_objects())


def test_the_warm_up_leaves_no_server_and_no_course_behind() -> None:
    made = Path(tempfile.gettempdir())
    folders = set(made.glob("mfls-warm-up-*"))
    before = servers()
    playground.warm_up()
    assert servers() == before
    assert set(made.glob("mfls-warm-up-*")) == folders


def test_serve_answers_initialize() -> None:
    server = playground.serve()
    message = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
    (answer,) = [m for m in map(json.loads, server.handle(json.dumps(message))) if m.get("id") == 1]
    assert answer["result"]["serverInfo"]["name"] == "mfls"
    assert playground.version().startswith("mfls ")


def test_every_server_of_the_process_shares_the_converters_the_warm_up_made() -> None:
    """lsprotocol's converters are generated on a type's first use (a few hundred ms of
    `initialize` in the browser): the snapshot keeps the warm-up's only if the page's
    server uses the same converter."""
    first, second = playground.serve(), playground.serve()
    assert wire_converter() is wire_converter()
    assert first.server.protocol._converter is second.server.protocol._converter is wire_converter()


def test_after_the_warm_up_the_pages_initialize_makes_no_converter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What the snapshot saves a second visit: the converters the page's `initialize`
    needs (structuring its capabilities, unstructuring the server's) were made by the
    warm-up, none is compiled again."""
    playground.warm_up()
    server = playground.serve()
    compiled: list[str] = []
    original = builtins.compile

    def counting(source: Any, name: Any, *rest: Any, **named: Any) -> Any:
        compiled.append(str(name))
        return original(source, name, *rest, **named)

    monkeypatch.setattr(builtins, "compile", counting)
    params = {"capabilities": playground.PAGE_CAPABILITIES, "locale": "en"}
    message = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}
    sent = [json.loads(text) for text in server.handle(json.dumps(message))]
    monkeypatch.undo()
    assert [m["result"]["serverInfo"]["name"] for m in sent if m.get("id") == 1] == ["mfls"]
    assert [name for name in compiled if "cattrs" in name] == []
