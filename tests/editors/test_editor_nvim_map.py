"""`:MflsKeys` and `:MflsMap` in Debian's Neovim (0.7.2 in CI), headless, with the editors/nvim
plugin against the real server on a copy of the example course."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from editor_harness import (
    copy_course,
    driver_env,
    nvim_command,
    require_executable,
    run_driver,
)

DRIVER = Path(__file__).with_name("nvim_map_e2e.lua")
WAIT_MS = 20_000


@pytest.fixture(scope="module")
def nvim_map(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    nvim = require_executable("nvim")
    work = tmp_path_factory.mktemp("nvim-map")
    course = copy_course(work)
    _ai_shifu_course_folder(course / "ai-course")
    results, opened = work / "results.json", work / "opened.html"
    extra = {"MFLS_COURSE": str(course), "MFLS_OPENED": str(opened)}
    env = driver_env(work / "home", results, extra, WAIT_MS)
    found, _ = run_driver(nvim_command(nvim, DRIVER), results, env=env, cwd=course, timeout=180)
    return found, opened


def _ai_shifu_course_folder(folder: Path) -> None:
    """A course folder as the AI-Shifu course tool writes it: since its last pull,
    lesson-01 was edited and lesson-03 renamed away."""
    texts = {"lesson-01.md": "?[%{{ ai_goal }}...Goal]\n", "lesson-02.md": "Aim {{ ai_goal }}\n"}
    (folder / "lessons").mkdir(parents=True)
    for name, text in texts.items():
        (folder / "lessons" / name).write_text(text)
    (folder / "lessons" / "renamed.md").write_text("Bye\n")
    pulled = {**texts, "lesson-01.md": "?[%{{ ai_goal }}...Your goal]\n", "lesson-03.md": "Bye\n"}
    lessons = [
        {
            "file": f"lessons/{name}",
            "outline_bid": name,
            "name": name.upper(),
            "is_chapter": False,
            "content_sha256": hashlib.sha256(text.encode()).hexdigest(),
        }
        for name, text in pulled.items()
    ]
    (folder / ".shifu-sync.json").write_text(json.dumps({"lessons": lessons}))


def _check(found: dict[str, Any], name: str) -> None:
    checks = {c["name"]: c for c in found["checks"]}
    assert "main" not in checks, checks["main"]["detail"]
    assert name in checks, sorted(checks)
    assert checks[name]["ok"], checks[name]["detail"]


def test_mflskeys_shows_the_key_table(nvim_map: tuple[dict[str, Any], Path]) -> None:
    found, _ = nvim_map
    _check(found, "keys")
    lines = found["keys"]
    assert found["keys_buftype"] == "nofile"
    assert found["keys_current"]
    summary = "4 lessons · 1 reference document · 16 questions · 9 problems"
    assert lines[0] == f"Course keys: Learning to program ({summary})"
    rows = {re.split(r"\s+\|", line)[0].rstrip(): line for line in lines[3:]}
    assert len(rows) == 16
    late = rows["Which project will you build?"]
    assert re.search(r"\| 04-project.md:5 \| 2 in 2 \| read-before-asked$", late), late
    typo = rows["What would you like to lern?"]
    assert typo.endswith('near-miss (did you mean "What would you like to learn?"?)'), typo
    assert rows["sys_favourite_color (host)"].endswith("reserved-key-binding")
    assert next(iter(rows)) == "What would you like to learn?"


def test_mflsmap_json_lists_every_key(nvim_map: tuple[dict[str, Any], Path]) -> None:
    found, _ = nvim_map
    _check(found, "json")
    rows = [json.loads(line) for line in found["json"]]
    assert len(rows) == 16
    learn = rows[0]
    assert learn["key"] == "What would you like to learn?"
    assert learn["asked"][0]["choices"] == ["Python", "JavaScript"]
    assert (learn["reads"], learn["readLessons"]) == (4, 3)


def test_mflsmap_opens_the_html_map(nvim_map: tuple[dict[str, Any], Path]) -> None:
    found, opened = nvim_map
    _check(found, "html")
    page = opened.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "Which project will you build?" in page
    assert "Learning to program" in page


def test_mflskeys_header_lists_lessons_changed_since_last_pull(
    nvim_map: tuple[dict[str, Any], Path],
) -> None:
    found, _ = nvim_map
    _check(found, "sync")
    lines = found["sync"]
    assert lines[1] == "Changed since last pull: lessons/lesson-01.md"
    assert lines[2].startswith("Gone since last pull: lessons/lesson-03.md (the course tool's")
