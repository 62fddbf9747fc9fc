"""Neovim in a real terminal, as a person uses it: tmux runs `nvim` with only the README's
configuration lines as the user's init.lua and `mfls` on PATH; the test types with
`send-keys` and reads the screen with `capture-pane` and the files on disk.

Each session has its own tmux server (a socket in the test's folder), HOME and XDG
folders and copy of the example course; closing it kills the tmux server, which hangs up
Neovim, whose server then sees its input close.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from editor_harness import (
    EDITORS,
    REPO,
    copy_course,
    current_nvim,
    isolated_env,
    require_executable,
    system_nvim,
)

WIDTH, HEIGHT = 120, 40
WAIT_S = 30.0
"""How long a step may take to show on screen (the first one starts the server)."""


NVIMS: dict[str, Callable[[], str]] = {"0.7": system_nvim, "0.11": current_nvim}
"""The supported Neovims: Debian's (0.7.2) and the current one of the test dependencies."""


SETUP = 'require("mfls").setup()'
"""The plugin's own setup (Neovim 0.7 and later)."""
ENABLE = 'vim.lsp.enable("mfls")'
"""Neovim 0.11's way: the plugin's lsp/mfls.lua, enabled."""


def readme_init_lines(call: str = SETUP) -> list[str]:
    """The init.lua lines editors/README.md gives for Neovim without a plugin manager, those
    that end with `call`, with this checkout in place of /path/to/mfls."""
    text = (EDITORS / "README.md").read_text(encoding="utf-8")
    for section in text.split("\n## Neovim")[1:]:
        section = section.split("\n## ", 1)[0]
        for block in re.findall(r"```lua\n(.*?)```", section, flags=re.DOTALL):
            if "runtimepath" in block and block.rstrip().endswith(call):
                return block.replace("/path/to/mfls", str(REPO)).splitlines()
    raise AssertionError(f"editors/README.md gives no init.lua lines for Neovim ending {call}")


def _holds_mfls(folder: str) -> bool:
    candidate = Path(folder) / "mfls"
    return candidate.is_file() and os.access(candidate, os.X_OK)


class Terminal:
    """One Neovim in one tmux pane."""

    def __init__(
        self, work: Path, nvim: str, lesson: str, *, server: bool = True, call: str = SETUP
    ) -> None:
        """`nvim lesson` in the example course, with the README's init.lua lines ending with
        `call`; without `server`, no `mfls` on PATH."""
        self.tmux = require_executable("tmux")
        self.work = work
        self.course = copy_course(work)
        home = work / "home"
        config = home / ".config" / "nvim"
        config.mkdir(parents=True)
        init = "\n".join(readme_init_lines(call)) + "\n"
        (config / "init.lua").write_text(init, encoding="utf-8")
        # `mfls` on PATH, as `pipx install` puts it, running this checkout's server; the
        # folders of any other `mfls` are left out.
        bin_dir = work / "bin"
        bin_dir.mkdir()
        if server:
            launcher = bin_dir / "mfls"
            launcher.write_text(
                f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m mfls "$@"\n', encoding="utf-8"
            )
            launcher.chmod(0o755)
        env = isolated_env(home)
        folders = [f for f in env.get("PATH", "").split(os.pathsep) if f and not _holds_mfls(f)]
        env["PATH"] = os.pathsep.join([str(bin_dir), *folders])
        env.pop("NVIM", None)
        env.pop("TMUX", None)
        self.socket = work / "tmux.sock"
        size = ["-x", str(WIDTH), "-y", str(HEIGHT)]
        self._tmux(
            "new-session", "-d", "-s", "nvim", *size, "-c", str(self.course), nvim, lesson, env=env
        )

    def _tmux(self, *args: str, env: dict[str, str] | None = None) -> str:
        done = subprocess.run(
            [self.tmux, "-S", str(self.socket), *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        if done.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)}: {done.stderr}")
        return done.stdout

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", "nvim")

    def press(self, *keys: str) -> None:
        """Keys by tmux's names (`C-x`, `Escape`, `Enter`), one after another."""
        for key in keys:
            self._tmux("send-keys", "-t", "nvim", key)
            time.sleep(0.05)

    def type(self, text: str) -> None:
        self._tmux("send-keys", "-t", "nvim", "-l", text)
        time.sleep(0.05)

    def command(self, text: str) -> None:
        """An Ex command, typed from normal mode."""
        self.press("Escape")
        self.type(":" + text)
        self.press("Enter")

    def wait_for(self, what: str, test: Callable[[str], bool], timeout: float = WAIT_S) -> str:
        """The screen once `test` holds for it; fails with the last screen after `timeout`."""
        deadline = time.monotonic() + timeout
        while True:
            shown = self.screen()
            if test(shown):
                return shown
            if time.monotonic() >= deadline:
                pytest.fail(f"{what} did not show within {timeout:.0f} s; the screen:\n{shown}")
            time.sleep(0.1)

    def wait_for_text(self, text: str, timeout: float = WAIT_S) -> str:
        return self.wait_for(repr(text), lambda shown: text in shown, timeout)

    def close(self) -> None:
        subprocess.run(
            [self.tmux, "-S", str(self.socket), "kill-server"],
            capture_output=True,
            timeout=30,
            check=False,
        )
