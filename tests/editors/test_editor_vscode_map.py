"""The course map and course key table in real VS Code (code-server 4.x, headless chromium),
with the packaged mfls extension: the commands "MarkdownFlow: Show Course Map" and
"MarkdownFlow: Show Course Keys" run from the command palette, their web views read."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from editor_harness import (
    EDITORS,
    Check,
    code_server_profile,
    copy_course,
    isolated_env,
    read_checks,
    require_executable,
    require_path,
    run_bounded,
    serving_code_server,
)

DRIVER = Path(__file__).with_name("vscode_map_e2e.cjs")
HARNESS = EDITORS / "code-server"
WAIT_MS = 30_000


@pytest.fixture(scope="module")
def map_checks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict[str, Check], str]]:
    node = require_executable("node")
    chromium = require_executable("chromium")
    code_server = require_path(
        HARNESS / "node_modules" / ".bin" / "code-server",
        "code-server (npm ci in editors/code-server)",
    )
    require_path(HARNESS / "node_modules" / "playwright-core", "playwright-core")
    vsix = require_path(EDITORS / "vscode" / "mfls.vsix", "the extension package (npm run package)")

    work = tmp_path_factory.mktemp("vscode-map")
    course = copy_course(work)
    env = isolated_env(work / "home")
    settings = {
        "mfls.server.path": sys.executable,
        "mfls.server.args": ["-m", "mfls", "serve"],
        "mfls.trace.server": "messages",
        "files.autoSave": "off",
    }
    profile = code_server_profile(str(code_server), work, [vsix], settings, env)
    user_data, log = profile.user_data, work / "code-server.log"
    with serving_code_server(profile.args, course, env=env, cwd=work, log=log) as url:
        results, shots = work / "results.json", work / "screenshots"
        shots.mkdir()
        driver_env = dict(env)
        driver_env.update(
            {
                "MFLS_NODE_MODULES": str(HARNESS / "node_modules"),
                "MFLS_URL": url,
                "MFLS_COURSE": str(course),
                "MFLS_RESULTS": str(results),
                "MFLS_SHOTS": str(shots),
                "MFLS_WAIT_MS": str(WAIT_MS),
                "MFLS_CHROMIUM": chromium,
            }
        )
        finished = run_bounded([node, str(DRIVER)], env=driver_env, cwd=work, timeout=300)
        if not results.exists():
            pytest.fail(f"the driver wrote no results:\n{finished.stdout}\n{finished.stderr}")
        checks = read_checks(results)
    for check in checks.values():
        if not check.ok:
            check.detail += f"\n(screenshots and logs in {work})"
    traces = sorted((user_data / "logs").rglob("*MarkdownFlow Trace.log"))
    trace = "\n".join(path.read_text(encoding="utf-8", errors="replace") for path in traces)
    yield checks, trace


def _passed(found: tuple[dict[str, Check], str], name: str) -> Check:
    checks = found[0]
    assert "main" not in checks, checks["main"].detail
    check = checks.get(name)
    assert check is not None, f"the driver recorded no {name!r} check: {sorted(checks)}"
    assert check.ok, f"{name}: {check.detail}"
    return check


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
