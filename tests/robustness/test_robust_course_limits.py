"""A course over a limit of mfls (the document count, a file's size) is an error, never
a silent drop: `mfls check` exits 2 naming the limit, for a folder and for an export;
the server shows one error message and an error diagnostic on the course file.

The limits are scaled down through the environment (`MFLS_MAX_DOCUMENTS`,
`MFLS_MAX_FILE_BYTES`), read once when mfls starts, as test_robust_files.py scales them
down in process."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from lsprotocol import types as t

from mfls.workspace.workspace import Workspace
from tests.kit.cli import mfls
from tests.kit.lsp_client import indexing_ended as ended
from tests.kit.lsp_client import session as lsp_session
from tests.kit.lsp_client import uri_of
from tests.kit.waiting import wait_until

LIMITED = {"MFLS_MAX_DOCUMENTS": "8", "MFLS_MAX_FILE_BYTES": "2000"}
COURSE_FILE = 'name = "limits"\nhost = "ai-shifu"\nlessons = ["**/*.md"]\n'


def lesson(n: int) -> str:
    return f"# Lesson {n}\n\n?[%{{{{answer_{n}}}}} A | B]\n\nYou chose {{{{ answer_{n} }}}}.\n"


def course(root: Path, lessons: int, big: int | None = None) -> Path:
    root.mkdir()
    (root / "mfcourse.toml").write_text(COURSE_FILE, encoding="utf-8")
    for n in range(lessons):
        text = lesson(n) + ("padding " * 300 if n == big else "")
        (root / f"l{n:02d}.md").write_text(text, encoding="utf-8")
    return root


def export(path: Path, lessons: int, big: int | None = None) -> Path:
    items = [
        {
            "outline_item_bid": f"b{n}",
            "title": f"Lesson {n}",
            "type": 401,
            "hidden": 0,
            "parent_bid": "",
            "position": f"{n + 1:02d}",
            "llm_system_prompt": "",
            "content": lesson(n) + ("padding " * 300 if n == big else ""),
        }
        for n in range(lessons)
    ]
    structure = [
        {"bid": f"b{n}", "id": n, "type": "outline", "children": []} for n in range(lessons)
    ]
    data = {
        "version": "1.0",
        "shifu": {"shifu_bid": "s", "title": "Limits", "llm_system_prompt": ""},
        "outline_items": items,
        "structure": {"bid": "s", "id": 0, "type": "shifu", "children": structure},
    }
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return path


def check(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return mfls("check", "--jobs", "1", *args, cwd=cwd, env={**os.environ, **LIMITED})


def test_a_course_at_the_document_limit_checks_clean(tmp_path: Path) -> None:
    course(tmp_path / "c", 8)
    export(tmp_path / "c.json", 8)
    for target in ("c", "c.json"):
        done = check(target, cwd=tmp_path)
        assert (done.returncode, done.stdout) == (0, ""), done.stderr


def test_a_folder_over_the_document_limit_exits_2_with_an_error_on_its_course_file(
    tmp_path: Path,
) -> None:
    course(tmp_path / "c", 9)
    done = check("c", cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    [said] = [line for line in done.stderr.splitlines() if line.startswith("mfls check:")]
    assert said.startswith("mfls check: c/mfcourse.toml: The course is over the document limit")
    assert "up to 8 files" in said
    [finding] = [line for line in done.stdout.splitlines() if "mfcourse.toml" in line]
    assert finding.startswith("c/mfcourse.toml:1:1: error course-file-invalid The course is over")


def test_an_export_over_the_document_limit_exits_2(tmp_path: Path) -> None:
    """At the limit, `check EXPORT` used to leave a lesson out and exit 0."""
    export(tmp_path / "big.json", 9)
    done = check("big.json", cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "mfls check: big.json: The course is over the document limit" in done.stderr
    assert "/ai-shifu-export" not in done.stderr.replace("skipped /ai-shifu-export", "")


def test_a_lesson_over_the_size_limit_exits_2_in_a_folder_and_in_an_export(
    tmp_path: Path,
) -> None:
    course(tmp_path / "c", 3, big=1)
    export(tmp_path / "c.json", 3, big=1)
    folder = check("c", cwd=tmp_path)
    assert folder.returncode == 2, folder.stdout + folder.stderr
    assert "mfls check: c/mfcourse.toml: A file of the course is over the size limit" in (
        folder.stderr
    )
    assert "`l01.md` is larger than 2000 bytes" in folder.stderr
    exported = check("c.json", cwd=tmp_path)
    assert exported.returncode == 2, exported.stdout + exported.stderr
    assert "mfls check: c.json#Lesson 1: A file of the course is over the size limit" in (
        exported.stderr
    )


def test_the_limit_error_lasts_as_long_as_the_course_is_over_it(tmp_path: Path) -> None:
    root = course(tmp_path / "c", 9)
    workspace = Workspace(max_documents=8)
    workspace.set_folders([str(root)])
    workspace.index_all()

    def over() -> list[str]:
        return [p.id for p in workspace.snapshot.courses[str(root)].problems]

    assert over() == ["config.document-limit"]
    (root / "l00.md").unlink()
    workspace.files_changed([(str(root / "l00.md"), "deleted")])
    assert over() == []
    assert len(workspace.snapshot.courses[str(root)].docs) == 8
    (root / "l99.md").write_text(lesson(99), encoding="utf-8")
    workspace.files_changed([(str(root / "l99.md"), "created")])
    assert over() == ["config.document-limit"]


async def test_the_server_shows_one_error_and_a_diagnostic_on_the_course_file(
    tmp_path: Path,
) -> None:
    root = course(tmp_path / "c", 9)
    course_file = uri_of(root / "mfcourse.toml")
    async with lsp_session(folders=[root], server_env={**os.environ, **LIMITED}) as session:
        await wait_until(ended(session))
        report = await session.client.text_document_diagnostic_async(
            t.DocumentDiagnosticParams(text_document=t.TextDocumentIdentifier(uri=course_file))
        )
        [item] = report.items
        assert (item.code, item.severity) == ("course-file-invalid", t.DiagnosticSeverity.Error)
        assert item.message.startswith("The course is over the document limit")
        lesson_uri = uri_of(root / "l00.md")
        session.client.workspace_did_change_watched_files(
            t.DidChangeWatchedFilesParams(
                changes=[t.FileEvent(uri=lesson_uri, type=t.FileChangeType.Changed)]
            )
        )
        await wait_until(ended(session, 2))
        limits = [m for m in session.messages if "document limit" in m.message]
        assert len(limits) == 1, session.messages
        assert limits[0].type == t.MessageType.Error
        assert limits[0].message.startswith(f"mfls: {root / 'mfcourse.toml'}: The course is over")


def test_a_course_file_over_the_size_limit_exits_2(tmp_path: Path) -> None:
    root = course(tmp_path / "c", 2)
    (root / "mfcourse.toml").write_text(COURSE_FILE + "# padding\n" * 300, encoding="utf-8")
    done = check("c", cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "`mfcourse.toml` is larger than 2000 bytes" in done.stderr
