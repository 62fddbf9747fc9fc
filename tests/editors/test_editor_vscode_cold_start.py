"""Cold start in real VS Code (code-server 4.x in headless chromium, the packaged mfls
extension), a pull client: the first problems the Problems panel shows for the opened
lessons are `mfls check`'s, on a course of 3 and of 1,000 lessons unpacked from an AI-Shifu
export. The server's indexing starts `INDEX_DELAY` seconds late (the test hook
`MFLS_TEST_INDEX_DELAY`), so VS Code's first `textDocument/diagnostic` comes before the course
is indexed: the server must hold it (the course gate), not answer it from the lesson alone."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from editor_harness import (
    code_server_profile,
    code_server_tools,
    isolated_env,
    run_browser_driver,
    serving_code_server,
)
from test_editor_cold_start import INDEX_DELAY, opened_lessons

from mfls.lsp.course_gate import INDEX_DELAY_ENV
from tests.kit.cold_course import Problem, checked, unpacked_course

DRIVER = Path(__file__).with_name("vscode_cold_start.cjs")
WAIT_MS = 30_000


Row = tuple[int, int, str, str, str]


def shown_problems(rows: list[dict[str, object]]) -> list[Row]:
    """The Problems panel's rows of one lesson as (line, column, severity, code, message)."""
    return sorted(
        (
            int(str(r["line"])),
            int(str(r["column"])),
            str(r["severity"]),
            str(r["code"]),
            str(r["message"]),
        )
        for r in rows
    )


def as_rows(problems: list[Problem]) -> list[Row]:
    return sorted(
        (p.line, p.column, p.severity, p.code, " ".join(p.message.split())) for p in problems
    )


@pytest.mark.parametrize("lessons", [3, 1000], ids=["3 lessons", "1000 lessons"])
def test_code_server_shows_mfls_checks_problems_first(
    lessons: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    tools = code_server_tools()

    tmp_path = tmp_path_factory.mktemp("vscold")  # short: chromium's socket path is bounded
    root, files = unpacked_course(tmp_path, lessons)
    expected = checked(root)
    opened = opened_lessons(files)
    env = isolated_env(tmp_path / "home", {INDEX_DELAY_ENV: INDEX_DELAY})
    settings = {
        # The server of this checkout, started by the extension.
        "mfls.server.path": sys.executable,
        "mfls.server.args": ["-m", "mfls", "serve"],
        "problems.autoReveal": False,
    }
    profile = code_server_profile(tools.code_server, tmp_path, [tools.vsix], settings, env)
    log = tmp_path / "code-server.log"
    with serving_code_server(profile.args, root, env=env, cwd=tmp_path, log=log) as url:
        extra = {
            "MFLS_OPEN": json.dumps([str(path.relative_to(root)) for path in opened]),
            "MFLS_EXPECTED_COUNTS": json.dumps(
                {path.name: len(expected.get(path, [])) for path in opened}
            ),
        }
        data, _ = run_browser_driver(tools, DRIVER, url, root, tmp_path, env, extra, WAIT_MS, 180)
    print("\n".join(data["log"]))
    assert not data["errors"], f"{data['errors']} (screenshots and logs in {tmp_path})"
    for path in opened:
        want = as_rows(expected.get(path, []))
        sets = [shown_problems(rows) for rows in data["shown"].get(path.name, [])]
        if not want:
            assert not sets, f"{path.name}: problems shown where mfls check has none: {sets}"
            continue
        assert sets, f"{path.name}: no problems shown (screenshots in {tmp_path}/screenshots)"
        assert sets[0] == want, f"{path.name}: the first problems shown ({tmp_path})"
        for later in sets[1:]:
            assert later == want, f"{path.name}: a later set shown ({tmp_path})"
