"""Neovim 0.11 the 0.11 way, in a real terminal: tmux runs the current Neovim (0.11.4) with
only editors/README.md's two lines as init.lua (the plugin's folder on the runtimepath and
`vim.lsp.enable("mfls")`, each other option at its default) and `mfls` on PATH; the test
types what a person types and reads the screen and the files on disk.

One session walks the steps in order: the problems shown on opening a lesson are those of
`mfls check`, then hover, completion and rename, as the README's Neovim steps give them,
then the inlay hints once `vim.lsp.inlay_hint.enable()` is typed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from editor_harness import current_nvim
from tmux_nvim import ENABLE, Terminal

from tests.kit.cli import mfls

PRACTICE = "lessons/03-practice.md"
"""The lesson with a problem of each severity but hint."""
PROJECT = "lessons/04-project.md"
ASKED_HERE = "asked here"
"""A code lens, shown once the server has attached and indexed."""
SIGNS = {"error": "E", "warning": "W", "information": "I", "hint": "H"}
"""Neovim 0.11's default sign text per severity of `mfls check`."""
LIST_SEVERITY = {"error": "error", "warning": "warning", "information": "info", "hint": "hint"}
"""The word Neovim's location list gives each severity of `mfls check`."""


@pytest.fixture(scope="module")
def nvim(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Terminal]:
    work = tmp_path_factory.mktemp("nvim-enable")
    terminal = Terminal(work, current_nvim(), PRACTICE, call=ENABLE)
    try:
        terminal.wait_for_text(ASKED_HERE)
        yield terminal
    finally:
        terminal.close()


def checked_problems(course: Path, lesson: str) -> list[dict[str, object]]:
    """`mfls check --format json` on the course: the problems of `lesson`."""
    done = mfls("check", "--format", "json", ".", cwd=course)
    problems = json.loads(done.stdout)["diagnostics"]
    return [p for p in problems if p["path"] == lesson]


def test_problems_on_open_are_those_of_mfls_check(nvim: Terminal) -> None:
    expected = checked_problems(nvim.course, PRACTICE)
    assert len({p["line"] for p in expected}) >= 3, expected  # the lesson still has problems
    # The sign column: one sign on each line with a problem, of its severity.
    lines = len((nvim.course / PRACTICE).read_text(encoding="utf-8").splitlines())
    wanted = {p["line"]: SIGNS[str(p["severity"])] for p in expected}

    def signs(screen: str) -> dict[int, str]:
        rows = screen.splitlines()[:lines]
        return {number: row[0] for number, row in enumerate(rows, start=1) if row[:1].strip()}

    nvim.wait_for(f"the signs {wanted}", lambda screen: signs(screen) == wanted)
    # The location list, alone in the window: each problem with its place and message.
    nvim.command("lua vim.diagnostic.setloclist()")
    nvim.wait_for_text("[Location List]")
    nvim.command("only")
    shown = nvim.wait_for("the list alone", lambda s: "Deliberate mistakes" not in s)
    # Long entries wrap (capture-pane drops the space a row ends on): compared without spaces.
    flat = re.sub(r"\s", "", shown)
    assert flat.count(f"{PRACTICE}|") == len(expected), shown
    for p in expected:
        place = f"{p['line']} col {p['column']}-{p['endColumn']}"
        entry = f"{PRACTICE}|{place} {LIST_SEVERITY[str(p['severity'])]}| {p['message']}"
        assert re.sub(r"\s", "", entry) in flat, f"{entry}\nnot in:\n{shown}"
    nvim.command(f"edit {PROJECT}")
    nvim.wait_for_text(ASKED_HERE)


def test_k_shows_the_hover(nvim: Terminal) -> None:
    key = "What would you like to learn?"
    nvim.command("7")  # "Use {{ Which project will you build? }} and {{ What would ..."
    nvim.press("5", "0", "|")
    before = nvim.screen().count(key)
    nvim.press("K")
    screen = nvim.wait_for("the hover", lambda shown: shown.count(key) > before)
    assert "01-welcome.md" in screen, screen  # where the key is asked
    nvim.press("Escape")


def test_completion_with_the_default_completeopt(nvim: Terminal) -> None:
    nvim.press("Escape", "G", "o")
    nvim.type("Recall {{ Wh")
    shown = "What would you like to learn?"
    before = nvim.screen().count(shown)
    nvim.press("C-x", "C-o")
    nvim.wait_for(f"the menu with {shown!r}", lambda screen: screen.count(shown) > before)
    nvim.press("C-n", "C-y", "Escape")
    nvim.command("w")
    nvim.wait_for_text("written")
    last = (nvim.course / PROJECT).read_text(encoding="utf-8").splitlines()[-1]
    assert last == "Recall {{ Which project will you build? }}"


def test_rename_reaches_both_lessons_on_disk(nvim: Terminal) -> None:
    old, new = "Which project will you build?", "Which project will you make?"
    nvim.command("5")  # "?[{{ Which project will you build? }} A website | ..."
    nvim.press("6", "|")
    nvim.command("lua vim.lsp.buf.rename()")
    nvim.wait_for_text("New Name: ")
    nvim.press("C-u")
    nvim.type(new)
    nvim.press("Enter")
    nvim.wait_for_text("Stored answers stay under the old key")
    nvim.press("Enter")
    nvim.command("wa")
    nvim.wait_for("the lessons written", lambda _: new in (nvim.course / PRACTICE).read_text())
    project = (nvim.course / PROJECT).read_text(encoding="utf-8")
    practice = (nvim.course / PRACTICE).read_text(encoding="utf-8")
    # The binding as the course's target spells one (features/binding_spelling.py); reads padded.
    binding = project.splitlines()[4]
    assert binding.startswith("?[") and new in binding and "A website" in binding, project
    reads = project.splitlines()[5:]
    assert sum(line.count(f"{{{{ {new} }}}}") for line in reads) == 2, project
    assert old not in project, project
    assert f"later lesson asks: {{{{ {new} }}}}." in practice and old not in practice, practice


def test_inlay_hints_once_enabled_as_neovim_asks(nvim: Terminal) -> None:
    """Neovim draws no inlay hint until the user enables them; then, beside a read, where
    the key is asked and its choices, and beside an interaction, how many lessons read it."""
    nvim.command(f"edit {PROJECT}")
    nvim.command("1")
    read = "{{ What would you like to learn? }}"
    asked = "asked in 01-welcome.md: Python, JavaScript; free input"

    def flat(screen: str) -> str:  # a long line wraps: compared without spaces
        return re.sub(r"\s", "", screen)

    shown = nvim.wait_for_text(read)
    assert flat(asked) not in flat(shown), shown
    nvim.command("lua vim.lsp.inlay_hint.enable()")
    shown = nvim.wait_for(f"{asked!r} after the read", lambda s: flat(read + asked) in flat(s))
    assert flat("...Something else] read in 2 lessons") in flat(shown), shown
    nvim.command("lua vim.lsp.inlay_hint.enable(false)")
    nvim.wait_for("the hints gone", lambda s: flat(asked) not in flat(s))
