"""Debian's Emacs 28 with eglot (elpa-eglot), in batch mode, against the real server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from editor_harness import (
    Check,
    checks_of,
    copy_course,
    emacs_command,
    isolated_env,
    missing,
    passed,
    require_executable,
    run_bounded,
    run_driver,
    server_command,
)

DRIVER = Path(__file__).with_name("emacs_e2e.el")

Session = tuple[dict[str, Check], Path]


@pytest.fixture(scope="module")
def emacs_session(tmp_path_factory: pytest.TempPathFactory) -> Session:
    emacs = require_executable("emacs")
    work = tmp_path_factory.mktemp("emacs")
    course = copy_course(work)
    results = work / "results.json"
    env = isolated_env(
        work / "home",
        {
            "MFLS_COURSE": str(course),
            "MFLS_SERVER_CMD": json.dumps(server_command()),
            "MFLS_RESULTS": str(results),
            "MFLS_WAIT_S": "20",
        },
    )
    probe = run_bounded(
        [emacs, "--batch", "--eval", "(progn (require 'eglot) (require 'markdown-mode))"],
        env=env,
        cwd=work,
        timeout=60,
    )
    if probe.returncode != 0:
        missing(f"eglot or markdown-mode is not installed for Emacs: {probe.stderr[-300:]}")
    command = emacs_command(emacs, DRIVER)
    data, finished = run_driver(command, results, env=env, cwd=course, timeout=180)
    checks = checks_of(data)
    for check in checks.values():
        if not check.ok:
            check.detail += f"\n--- emacs stderr (tail) ---\n{finished.stderr[-3000:]}"
    return checks, course


def _passed(session: Session, name: str) -> Check:
    return passed(session[0], name)


def test_eglot_attaches_with_course_root(emacs_session: Session) -> None:
    _passed(emacs_session, "attach")


def test_diagnostic_for_empty_marker(emacs_session: Session) -> None:
    _passed(emacs_session, "diagnostics")


def test_hover_shows_exact_key(emacs_session: Session) -> None:
    _passed(emacs_session, "hover")


def test_definition_jumps_to_binding_in_other_lesson(emacs_session: Session) -> None:
    _passed(emacs_session, "definition")


def test_completion_offers_course_key(emacs_session: Session) -> None:
    _passed(emacs_session, "completion")


def test_rename_updates_two_files(emacs_session: Session) -> None:
    # eglot-rename applies the edit at once; the stored-answers warning reaches eglot.
    checks, course = emacs_session
    rename = checks.get("rename")
    if rename is not None and rename.detail.startswith("skipped:"):
        pytest.skip(rename.detail)
    _passed(emacs_session, "rename")
    for lesson in ("02-first-program.md", "03-practice.md"):
        text = (course / "lessons" / lesson).read_text(encoding="utf-8")
        assert "{{ How was your first program? }}" in text, f"{lesson} was not renamed"
        assert "How did the first program go?" not in text, f"{lesson} still holds the old key"
