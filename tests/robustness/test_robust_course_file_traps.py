"""Course files and named files as traps: a FIFO, a link to `/dev/zero` or out of the
course, a 1 GB sparse lesson named on the command line. Every command ends quickly with
a message (no hang, no MemoryError traceback), and the server keeps answering."""

from __future__ import annotations

import asyncio
import copy
import os
import subprocess
import time
from pathlib import Path

import pytest
from lsprotocol import types as t
from pytest_lsp import client_capabilities
from test_robust_editor_rename import open_doc, server, write

from tests.kit.cli import mfls_bytes

LIMIT_S = 20.0
LESSON = "?[{{ topic }} A | B]\n"
HOST_LESSON = "?[{{ sys_name }} A | B]\n"  # reserved-key-binding only if the link is read


def mfls(*args: str, cwd: Path) -> tuple[subprocess.CompletedProcess[bytes], float]:
    began = time.monotonic()
    done = mfls_bytes(*args, cwd=cwd, timeout=LIMIT_S)
    return done, time.monotonic() - began


def course_with(tmp_path: Path, trap: str) -> Path:
    root = tmp_path / "course"
    write(root, {"a.md": LESSON, "b.md": HOST_LESSON})
    course_file = root / "mfcourse.toml"
    if trap == "fifo":
        os.mkfifo(course_file)
    elif trap == "dev-zero":
        course_file.symlink_to("/dev/zero")
    else:
        secret = tmp_path / "secret.toml"
        secret.write_text('host = "ai-shifu"\n# SECRET-CONTENT\n')
        course_file.symlink_to(secret)
    return root


@pytest.mark.parametrize("trap", ["fifo", "dev-zero", "link-out"])
def test_check_and_rename_dry_run_end_on_a_trapped_course_file(tmp_path: Path, trap: str) -> None:
    root = course_with(tmp_path, trap)
    checked, _ = mfls("check", ".", cwd=root)
    assert b"Traceback" not in checked.stderr and b"MemoryError" not in checked.stderr
    assert b"SECRET-CONTENT" not in checked.stdout + checked.stderr
    assert b"reserved-key-binding" not in checked.stdout
    if trap != "fifo":  # a FIFO is no course file at all; the others are unusable ones
        assert b"course-file-invalid" in checked.stdout
    dry, _ = mfls("rename", "--course", ".", "--dry-run", "topic", "subject", cwd=root)
    assert b"Traceback" not in dry.stderr
    assert dry.returncode in (0, 1)
    assert (root / "a.md").read_text() == LESSON


@pytest.mark.parametrize("trap", ["fifo", "dev-zero", "link-out"])
async def test_the_server_answers_with_a_trapped_course_file(tmp_path: Path, trap: str) -> None:
    root = course_with(tmp_path, trap)
    caps = copy.deepcopy(client_capabilities("visual-studio-code"))
    assert caps.text_document is not None
    caps.text_document.diagnostic = None  # push diagnostics: the course file is read at once
    async with server(root, caps) as client:
        doc = open_doc(client, root / "a.md")
        hover = await asyncio.wait_for(
            client.text_document_hover_async(
                t.HoverParams(
                    text_document=t.TextDocumentIdentifier(uri=doc),
                    position=t.Position(line=0, character=5),
                )
            ),
            10,
        )
        assert hover is not None
        assert not any("SECRET-CONTENT" in m.message for m in client.messages)
        await asyncio.sleep(0.5)
        b_uri = doc.replace("a.md", "b.md")
        codes = {d.code for d in client.diagnostics.get(b_uri, [])}
        assert "reserved-key-binding" not in codes


def test_a_1_gb_sparse_lesson_named_on_the_command_line_is_refused_quickly(
    tmp_path: Path,
) -> None:
    big = tmp_path / "lesson.md"
    with open(big, "wb") as file:
        file.truncate(1 << 30)
    for command in ("check", "scan"):
        done, took = mfls(command, "lesson.md", cwd=tmp_path)
        assert done.returncode == 2, done.stderr
        assert b"limit" in done.stderr and b"Traceback" not in done.stderr
        assert took < 10, (command, took)
