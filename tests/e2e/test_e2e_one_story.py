"""One story in every view: the status item's figures (`mfls.courseInfo`), the key table
(`mfls.courseKeys`, and Neovim's `:MflsKeys` header made from it), the map page
(`mfls.courseMap`), `mfls map --format json` and `mfls check` count the same lessons,
reference documents, questions and problems in the same words, name every lesson by its
file, and give a legacy learner-profile binding the one verdict `legacy-profile-key`.

Run on the example course, on an AI-Shifu export built here in the platform's shape and
unpacked with `mfls unpack` (legacy profile bindings, headings that are not the lesson
titles, a course prompt, an unclosed fixed output), and on every `*.json` export of the real
AI-Shifu exports where they are (`MFLS_AI_SHIFU_EXPORTS`, or `shared/data/ai-shifu` beside
an ancestor of the checkout, as in CI).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest
from lsprotocol import types as t

from tests.ai_shifu_exports import shared_exports
from tests.kit.cli import mfls
from tests.kit.exports import dumps, export, item, node
from tests.kit.lsp_client import capabilities, session, uri_of
from tests.kit.map_page import page_data

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "course"
PLUGIN = REPO / "editors" / "nvim"

BUILT = export(
    [
        item(
            "c1",
            "Why choose it",
            "# A heading that is not the title\n\n"
            "?[%{{sys_user_nickname}}...What should I call you?]\n\n"
            "?[%{{sys_user_background}}...Your background]\n\n"
            "?[{{ level }} Beginner | Expert]\n",
            parent="ch",
            position="0101",
        ),
        item(
            "c2",
            "How to create",
            "Hi {{ sys_user_nickname }}, at {{ level }} ({{ levl }}).\n\n---\n\n"
            "!===\nAs written, never closed\n",
            parent="ch",
            position="0102",
        ),
        item("ch", "Quick start", "", position="01"),
    ],
    [node("ch", [node("c1"), node("c2")])],
    title="Built course",
    prompt="Speak like {{ level }} people.\n",
)


def _exports() -> list[tuple[str, Path | None]]:
    found: list[tuple[str, Path | None]] = [("example", None), ("built-export", None)]
    folder = shared_exports()
    if folder is not None:
        found += [(path.stem, path) for path in sorted(folder.glob("*.json"))]
    return found


def _course(tmp_path: Path, name: str, source: Path | None) -> Path:
    target = tmp_path / "course"
    if name == "example":
        shutil.copytree(EXAMPLE, target)
        return target
    exported = tmp_path / "export.json"
    if source is None:
        exported.write_bytes(dumps(BUILT))
    else:
        shutil.copy(source, exported)
    done = mfls("unpack", str(exported), str(target), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return target


def _file_name(uri: str) -> str:
    return os.path.basename(unquote(urlparse(uri).path))


def _nvim_header(answer: dict[str, Any], work: Path) -> str | None:
    """The first line Neovim's `:MflsKeys` shows for `answer` (None: no Neovim here)."""
    nvim = shutil.which("nvim")
    if nvim is None:
        return None
    given, out = work / "answer.json", work / "header.txt"
    given.write_text(json.dumps(answer, ensure_ascii=False), encoding="utf-8")
    script = (
        f"vim.opt.runtimepath:prepend({json.dumps(str(PLUGIN))}) "
        f"local answer = vim.fn.json_decode(vim.fn.readfile({json.dumps(str(given))})) "
        "local lines = require('mfls.course_map').key_lines(answer) "
        f"vim.fn.writefile({{lines[1]}}, {json.dumps(str(out))})"
    )
    done = subprocess.run(
        [nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"lua {script}", "-c", "qa!"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "HOME": str(work)},
    )
    assert out.exists(), done.stderr
    return out.read_text(encoding="utf-8").rstrip("\n")


@pytest.mark.parametrize(("name", "source"), _exports(), ids=[n for n, _ in _exports()])
async def test_every_view_tells_one_story(tmp_path: Path, name: str, source: Path | None) -> None:
    course = _course(tmp_path, name, source)
    mapped = mfls("map", "--format", "json", str(course), cwd=tmp_path)
    assert mapped.returncode == 0, mapped.stderr
    data = json.loads(mapped.stdout)
    figures = data["figures"]
    checked = mfls("check", "--format", "json", str(course), cwd=tmp_path)
    severities = Counter(d["severity"] for d in json.loads(checked.stdout)["diagnostics"])
    kinds = Counter(lesson["kind"] for lesson in data["lessons"])
    expected = {
        "lessons": kinds["lesson"],
        "references": kinds["reference"],
        "questions": len(data["keys"]),
        "errors": severities["error"],
        "warnings": severities["warning"],
        "information": severities["information"],
    }
    assert {k: figures[k] for k in expected} == expected
    assert figures["problems"] == figures["errors"] + figures["warnings"] + figures["information"]
    summary = figures["summary"]
    assert summary == (
        f"{expected['lessons']} lesson{'s' * (expected['lessons'] != 1)} · "
        f"{expected['references']} reference document{'s' * (expected['references'] != 1)} · "
        f"{expected['questions']} question{'s' * (expected['questions'] != 1)} · "
        f"{figures['problems']} problem{'s' * (figures['problems'] != 1)}"
    )
    names = [lesson["title"] for lesson in data["lessons"]]
    assert names == [_file_name(lesson["uri"]) for lesson in data["lessons"]]

    lesson = next(x["uri"] for x in data["lessons"] if x["kind"] == "lesson")
    async with session(capabilities("visual-studio-code"), [course]) as s:
        await s.indexed()

        async def command(command: str, uri: str) -> Any:
            return await s.client.workspace_execute_command_async(
                t.ExecuteCommandParams(command=command, arguments=[uri])
            )

        info = await command("mfls.courseInfo", lesson)
        keys = await command("mfls.courseKeys", uri_of(course / "mfcourse.toml"))
        page = page_data((await command("mfls.courseMap", lesson))["html"])

    assert {k: info[k] for k in figures} == figures
    assert keys["figures"] == figures
    assert page["summary"] == summary
    assert f"{summary}." in keys["markdown"]
    assert len(keys["rows"]) == len(page["keys"]) == figures["questions"]
    assert [row["key"] for row in keys["rows"]] == [lane["key"] for lane in data["keys"]]
    assert [x[0] for x in page["lessons"]] == names
    for row in keys["rows"]:
        for asked in row["asked"]:
            assert asked["lesson"] == _file_name(asked["uri"])
        lane = next(lane for lane in data["keys"] if lane["key"] == row["key"])
        assert row["problems"] == lane["problems"]
    header = _nvim_header(keys, tmp_path)
    if header is not None:
        assert header == f"Course keys: {info['name']} ({summary})"

    # A legacy learner-profile binding: the same verdict in the map, the table and check.
    findings = json.loads(checked.stdout)["diagnostics"]
    for lane in data["keys"]:
        legacy = [p for p in lane["places"] if p["kind"] == "legacy-profile"]
        codes = [p["code"] for p in lane["problems"]]
        assert ("legacy-profile-key" in codes) == bool(legacy)
        for place in legacy:
            where = Path(data["lessons"][place["lesson"]]["path"]).resolve()
            assert any(
                f["code"] == "legacy-profile-key"
                and (tmp_path / f["path"]).resolve() == where
                and (f["line"], f["column"]) == (place["line"], place["column"])
                for f in findings
            ), (lane["key"], place)
    if name == "built-export":
        nickname = next(lane for lane in data["keys"] if lane["key"] == "sys_user_nickname")
        assert nickname["problems"] == [{"code": "legacy-profile-key", "count": 1}]
        assert "reserved-key-binding" not in json.dumps(data["keys"])
        # The course prompt runs before every lesson, so it comes first (as in the export).
        lessons = [n for n, x in zip(names, data["lessons"], strict=True) if x["kind"] == "lesson"]
        assert names[0] == "course.md"
        assert lessons[:2] == ["01-Why choose it.md", "02-How to create.md"]
