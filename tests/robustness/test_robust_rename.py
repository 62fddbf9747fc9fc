"""Rename never writes text a UTF-8 file cannot hold, and never half-writes a course."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from robust_session import PROBE, verify

from tests.kit.lsp_client import raw_session, uri_of

FILES = {
    "a.md": "?[{{ colour }} A | B]\n\nUse {{ colour }}.\n",
    "b.md": "More {{ colour }}.\n",
}


def course(tmp_path: Path) -> Path:
    root = tmp_path / "course"
    root.mkdir()
    for name, text in FILES.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_cli_rename_to_a_name_that_is_not_unicode_text_is_refused_cleanly(tmp_path: Path) -> None:
    """Invalid UTF-8 in argv reaches Python as lone surrogates (surrogateescape)."""
    root = course(tmp_path)
    command = [sys.executable.encode(), b"-m", b"mfls", b"rename", b"--course"]
    run = subprocess.run(
        [*command, os.fsencode(root), b"colour", b"x\xffy"],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert run.returncode != 0
    assert b"Traceback" not in run.stderr, run.stderr.decode("utf-8", "replace")
    for name, text in FILES.items():
        assert (root / name).read_text(encoding="utf-8") == text


async def test_lsp_rename_to_a_lone_surrogate_is_refused(tmp_path: Path) -> None:
    root = course(tmp_path)
    uri = uri_of(root / "a.md")
    text = FILES["a.md"] + PROBE + "\n"
    async with raw_session() as server:
        server.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}},
        )
        answer = await server.request(
            "textDocument/rename",
            {
                "textDocument": {"uri": uri},
                "position": {"line": 2, "character": 7},
                "newName": "x\udc00y",
            },
        )
        assert "error" in answer, f"a rename to a lone surrogate was answered {answer}"
        await verify(server, uri, text)
