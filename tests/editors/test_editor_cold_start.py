"""Cold start in real editors: the first problems an editor shows for a lesson are `mfls
check`'s, on a course of 3 and of 1,000 lessons unpacked from an AI-Shifu export, the
server started by the editor with nothing indexed. Neovim 0.11 pulls diagnostics (its
first `textDocument/diagnostic` comes before the course is indexed), Debian's Neovim
0.7.2 and Emacs's eglot are pushed them. The server's indexing starts `INDEX_DELAY`
seconds late (the test hook `MFLS_TEST_INDEX_DELAY`), as on a slow machine: whether an
editor's first request comes before the course is indexed no longer depends on luck."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from editor_harness import (
    current_nvim,
    driver_env,
    emacs_command,
    isolated_env,
    missing,
    nvim_command,
    require_executable,
    run_bounded,
    run_driver,
    server_command,
    system_nvim,
)

from mfls.lsp.course_gate import INDEX_DELAY_ENV
from mfls.workspace.uris import uri_to_path
from tests.kit.cold_course import SEVERITY_NAMES, Problem, as_problems, checked, unpacked_course

NVIM_DRIVER = Path(__file__).with_name("nvim_cold_start.lua")
EMACS_DRIVER = Path(__file__).with_name("emacs_cold_start.el")
WAIT_MS = 30_000
INDEX_DELAY = "1.0"

Course = tuple[Path, list[Path], dict[Path, list[Problem]]]


@pytest.fixture(scope="module", params=[3, 1000], ids=["3 lessons", "1000 lessons"])
def course(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Course:
    root, files = unpacked_course(tmp_path_factory.mktemp("cold"), request.param)
    return root, files, checked(root)


def opened_lessons(files: list[Path]) -> list[Path]:
    """The first lesson, and an odd one near the middle: it reads a key another lesson
    asks and leaves a fixed output open."""
    return [files[0], files[len(files) // 2 | 1]]


def shown_problems(items: list[dict[str, Any]]) -> list[Problem]:
    """What the Neovim driver recorded, as `Problem`s."""
    return sorted(
        Problem(
            int(d["line"]),
            int(d["column"]),
            SEVERITY_NAMES[int(d["severity"])],
            str(d["code"]),
            str(d["message"]),
        )
        for d in items
    )


def assert_first_shown_is_checks(
    shown: dict[Path, list[list[Problem]]], opened: list[Path], course: Course
) -> None:
    expected = course[2]
    for path in opened:
        sets = shown.get(path)
        assert sets, f"{path.name}: no diagnostics shown; shown: {sorted(shown)[:5]}"
        assert sets[0] == expected[path], f"{path.name}: the first set shown"
        for later in sets[1:]:
            assert later == expected[path], f"{path.name}: a later set shown"


@pytest.mark.parametrize("which", ["debian", "current"], ids=["nvim 0.7 push", "nvim 0.11 pull"])
def test_neovim_shows_mfls_checks_problems_first(
    which: str, course: Course, tmp_path: Path
) -> None:
    nvim = system_nvim() if which == "debian" else current_nvim()
    root, files, _ = course
    opened = opened_lessons(files)
    results = tmp_path / "results.json"
    extra = {"MFLS_OPEN": json.dumps([str(path) for path in opened]), INDEX_DELAY_ENV: INDEX_DELAY}
    env = driver_env(tmp_path / "home", results, extra, WAIT_MS)
    command = nvim_command(nvim, NVIM_DRIVER)
    data, _ = run_driver(command, results, env=env, cwd=root, timeout=180)
    assert not data["errors"], f"{data['errors']} (nvim {data['nvim']})"
    shown = {
        Path(name): [shown_problems(items) for items in sets]
        for name, sets in data["shown"].items()
    }
    assert_first_shown_is_checks(shown, opened, course)


def test_emacs_eglot_shows_mfls_checks_problems_first(course: Course, tmp_path: Path) -> None:
    emacs = require_executable("emacs")
    root, files, _ = course
    opened = opened_lessons(files)
    results = tmp_path / "results.json"
    env = isolated_env(
        tmp_path / "home",
        {
            "MFLS_SERVER_CMD": json.dumps(server_command()),
            "MFLS_OPEN": json.dumps([str(path) for path in opened]),
            "MFLS_RESULTS": str(results),
            "MFLS_WAIT_S": str(WAIT_MS // 1000),
            INDEX_DELAY_ENV: INDEX_DELAY,
        },
    )
    probe = run_bounded(
        [emacs, "--batch", "--eval", "(progn (require 'eglot) (require 'markdown-mode))"],
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    if probe.returncode != 0:
        missing(f"eglot or markdown-mode is not installed for Emacs: {probe.stderr[-300:]}")
    command = emacs_command(emacs, EMACS_DRIVER)
    data, finished = run_driver(command, results, env=env, cwd=root, timeout=180)
    assert not data["errors"], f"{data['errors']}\n{finished.stderr[-3000:]}"
    shown: dict[Path, list[list[Problem]]] = {}
    for uri, lists in data["shown"].items():
        path = Path(uri_to_path(uri) or uri)
        if path in opened:
            text = path.read_text(encoding="utf-8")
            shown[path] = [as_problems(text, items) for items in lists]
    assert_first_shown_is_checks(shown, opened, course)
