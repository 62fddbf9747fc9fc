"""The keys editors/README.md names, pressed in a real terminal: Neovim 0.7.2 and 0.11.4 in
tmux, with only the README's init.lua lines (each version's default options), the example
course, `mfls` on PATH. What is checked is what a person sees on screen and what `:w`
writes to disk."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from editor_harness import EDITORS, REPO
from tmux_nvim import NVIMS, Terminal

LESSON = "lessons/04-project.md"
ASKED_HERE = "asked here"
"""The code lens on a binding of the lesson: the server has attached and indexed."""


@pytest.fixture(params=sorted(NVIMS))
def nvim(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Terminal]:
    terminal = Terminal(tmp_path, NVIMS[request.param](), LESSON)
    try:
        terminal.wait_for_text(ASKED_HERE)
        yield terminal
    finally:
        terminal.close()


def last_line_on_disk(terminal: Terminal) -> str:
    """Writes the buffer with `:w`, then reads the lesson's last line from the file."""
    terminal.command("w")
    terminal.wait_for_text("written")
    return (terminal.course / LESSON).read_text(encoding="utf-8").splitlines()[-1]


def complete(terminal: Terminal, typed: str, shown: str) -> str:
    """On a new last line: `typed`, then the README's keys, <C-x><C-o>, and once the menu
    shows `shown`, <C-n><C-y>; returns the line written to disk."""
    terminal.press("Escape", "G", "o")
    terminal.type(typed)
    before = terminal.screen().count(shown)
    terminal.press("C-x", "C-o")
    terminal.wait_for(f"the menu with {shown!r}", lambda screen: screen.count(shown) > before)
    terminal.press("C-n", "C-y", "Escape")
    return last_line_on_disk(terminal)


def test_the_readme_names_the_keys_pressed_here() -> None:
    text = (EDITORS / "README.md").read_text(encoding="utf-8")
    assert "`<C-x><C-o><C-n><C-y>` writes the first" in text


def test_readme_keys_write_the_first_item(nvim: Terminal) -> None:
    # The first item after `{{ Wh` is the question bound in this lesson; under 0.7's
    # default completeopt the same keys used to write the second.
    line = complete(nvim, "Recall {{ Wh", "What would you like to learn?")
    assert line == "Recall {{ Which project will you build? }}"


def test_a_single_match_writes_a_closed_marker(nvim: Terminal) -> None:
    line = complete(nvim, "Recall {{ course", "course_title")
    assert line == "Recall {{ course_title }}"


def test_no_match_says_so(nvim: Terminal) -> None:
    nvim.press("G", "o")
    nvim.type("Recall {{ Xyz")
    nvim.press("C-x", "C-o")
    nvim.wait_for_text('mfls: no question of this course starts with "Xyz"')


def test_k_shows_the_hover(nvim: Terminal) -> None:
    key = "Which project will you build?"
    nvim.command("7")  # "Use {{ Which project will you build? }} and ..."
    nvim.press("8", "|")
    before = nvim.screen().count(key)
    nvim.press("K")
    screen = nvim.wait_for("the hover", lambda shown: shown.count(key) > before)
    # Neovim 0.7's own `K` runs `man` ("man.vim: no manual entry for ...").
    assert "manual entry" not in screen and "man.vim" not in screen, screen


def test_commands_from_the_key_table_window(nvim: Terminal) -> None:
    nvim.command("MflsKeys")
    nvim.wait_for_text("Course keys: Learning to program")
    # From the key table's window: the course of the lesson entered last.
    nvim.command("MflsMap json")
    row = '"key": "What would you like to learn?"'  # the first question of the course
    # Neovim wraps the long JSON lines: rows joined, the row of the key shows.
    screen = nvim.wait_for(row, lambda shown: row in "".join(shown.splitlines()))
    assert "mfls://course-keys.json" in screen
    # From the JSON's window, alone on screen.
    nvim.command("only")
    nvim.wait_for("the key table closed", lambda shown: "Course keys:" not in shown)
    nvim.command("MflsKeys")
    screen = nvim.wait_for_text("Course keys: Learning to program")
    nvim.command("messages")
    screen = nvim.wait_for_text(":messages")
    assert "not part of any indexed course" not in screen, screen
    assert "no course is open" not in screen, screen


@pytest.mark.parametrize("version", sorted(NVIMS))
def test_without_mfls_the_plugin_names_the_install_command(version: str, tmp_path: Path) -> None:
    terminal = Terminal(tmp_path, NVIMS[version](), LESSON, server=False)
    try:
        screen = terminal.wait_for_text("mfls: cannot start")
        flat = "".join(screen.splitlines())
        assert f"install the server with `pipx install {REPO}`" in flat, screen
        assert "Error detected" not in screen and "traceback" not in screen, screen
    finally:
        terminal.close()
