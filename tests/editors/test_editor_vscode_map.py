"""The course map and course key table in real VS Code (code-server 4.x, headless chromium),
with the packaged mfls extension: the commands "MarkdownFlow: Show Course Map" and
"MarkdownFlow: Show Course Keys" run from the command palette, their web views read."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from editor_harness import (
    Check,
    checks_of,
    code_server_profile,
    code_server_tools,
    code_server_trace,
    copy_course,
    isolated_env,
    passed,
    run_browser_driver,
    serving_code_server,
)

DRIVER = Path(__file__).with_name("vscode_map_e2e.cjs")
WAIT_MS = 30_000


@pytest.fixture(scope="module")
def map_checks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict[str, Check], str]]:
    tools = code_server_tools()

    work = tmp_path_factory.mktemp("vscode-map")
    course = copy_course(work)
    env = isolated_env(work / "home")
    settings = {
        "mfls.server.path": sys.executable,
        "mfls.server.args": ["-m", "mfls", "serve"],
        "mfls.trace.server": "messages",
        "files.autoSave": "off",
    }
    profile = code_server_profile(tools.code_server, work, [tools.vsix], settings, env)
    user_data, log = profile.user_data, work / "code-server.log"
    with serving_code_server(profile.args, course, env=env, cwd=work, log=log) as url:
        data, _ = run_browser_driver(tools, DRIVER, url, course, work, env, {}, WAIT_MS, 300)
        checks = checks_of(data)
    trace = code_server_trace(checks, work, user_data)
    yield checks, trace


def _passed(found: tuple[dict[str, Check], str], name: str) -> Check:
    return passed(found[0], name)


def test_show_course_map_opens_the_map_beside_the_lesson(map_checks) -> None:  # type: ignore[no-untyped-def]
    _passed(map_checks, "map")
    assert "Sending request 'workspace/executeCommand" in map_checks[1]


def test_the_map_follows_typing(map_checks) -> None:  # type: ignore[no-untyped-def]
    _passed(map_checks, "follows")


def test_show_course_keys_previews_the_key_table(map_checks) -> None:  # type: ignore[no-untyped-def]
    _passed(map_checks, "keys")


def test_the_map_beside_a_lesson_shows_every_cell_and_readable_names(map_checks) -> None:  # type: ignore[no-untyped-def]
    """Issue 22: at the web view's 526 px every cell of the example course is seen, each lane
    name is whole or cut short with its whole name as its title, the details go below."""
    _passed(map_checks, "narrow")


def test_the_map_at_full_width_shows_every_cell_with_the_details_beside(map_checks) -> None:  # type: ignore[no-untyped-def]
    _passed(map_checks, "wide")
