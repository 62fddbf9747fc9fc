"""The safety promises of docs/robustness.md, each against the real server process.

The audited server runs with `audit/sitecustomize.py` on PYTHONPATH: a `sys.addaudithook`
hook logs every file opened, folder listed, socket call, process started and source
compiled, and the tests read that log after shutdown.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from lsprotocol import types as t
from robust_session import PROBE, verify

from mfls.features import code_actions as ca
from tests.kit.lsp_client import indexing_ended as ended
from tests.kit.lsp_client import session as lsp_session
from tests.kit.lsp_client import uri_of
from tests.kit.waiting import wait_until

AUDIT = Path(__file__).parent / "audit"
TOKEN = "PWNED_5c1e"
HOSTILE = f"""# Lesson

?[{{{{ colour }}}} Red | Blue]

```python
import os; os.system("touch {TOKEN}_py")
```

<script>require('child_process').exec('touch {TOKEN}_js')</script>

Use {{{{ colour }}}} and {{{{ __import__('os').system('touch {TOKEN}_key') }}}}.
$(touch {TOKEN}_sh) `touch {TOKEN}_tick` <img src="http://127.0.0.1:9/{TOKEN}">
[link](http://127.0.0.1:9/{TOKEN}) <http://127.0.0.1:9/{TOKEN}> {PROBE}
"""
NETWORK_EVENTS = (
    "socket.connect",
    "socket.bind",
    "socket.getaddrinfo",
    "socket.gethostbyname",
    "socket.gethostbyaddr",
    "socket.sendto",
    "socket.sendmsg",
    "urllib.Request",
)
PROCESS_EVENTS = (
    "subprocess.Popen",
    "os.system",
    "os.exec",
    "os.posix_spawn",
    "os.spawn",
    "os.fork",
    "pty.spawn",
)


def layout(tmp_path: Path) -> tuple[Path, Path, Path]:
    """workspace/ with courses A and B and a symlink out; outside/ with a secret lesson."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("{{ colour }} {{ secret key }}\n", encoding="utf-8")
    workspace = tmp_path / "workspace"
    a, b = workspace / "A", workspace / "B"
    for course in (a, b):
        course.mkdir(parents=True)
        (course / "mfcourse.toml").write_text(f'name = "{course.name}"\n', encoding="utf-8")
    (a / "one.md").write_text("?[%{{ colour }} Red | Blue]\n\nUse {{colour}}.\n", "utf-8")
    (a / "two.md").write_text("Again {{ colour }}.\n", encoding="utf-8")
    (a / "escape.md").symlink_to(outside / "secret.md")
    (a / "elsewhere").symlink_to(outside)
    (b / "three.md").write_text("?[%{{ colour }} X | Y]\n\n{{colour}}\n", encoding="utf-8")
    (workspace / "loose.md").write_text("{{ colour }}\n", encoding="utf-8")
    return workspace, a, outside


def audit_env(log: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(AUDIT), *sys.path])
    env["MFLS_AUDIT_LOG"] = str(log)
    return env


def read_audit(log: Path) -> list[dict[str, str]]:
    return [json.loads(line) for line in log.read_text(encoding="ascii").splitlines()]


def inside(path: str, root: Path) -> bool:
    real = os.path.realpath(path)
    return real == str(root) or real.startswith(str(root) + os.sep)


async def exercise(session: Any, uri: str, text: str) -> None:
    """Every feature once, on the hostile lesson."""
    client = session.client
    doc = t.TextDocumentIdentifier(uri=uri)
    end = t.Position(line=text.count("\n"), character=0)
    for line in range(text.count("\n")):
        where = t.Position(line=line, character=8)
        await client.text_document_hover_async(t.HoverParams(text_document=doc, position=where))
        await client.text_document_completion_async(
            t.CompletionParams(text_document=doc, position=where)
        )
        await client.text_document_definition_async(
            t.DefinitionParams(text_document=doc, position=where)
        )
    await client.text_document_document_symbol_async(t.DocumentSymbolParams(text_document=doc))
    await client.workspace_symbol_async(t.WorkspaceSymbolParams(query=""))
    await client.text_document_code_action_async(
        t.CodeActionParams(
            text_document=doc,
            range=t.Range(start=t.Position(line=0, character=0), end=end),
            context=t.CodeActionContext(diagnostics=[]),
        )
    )
    await client.text_document_rename_async(
        t.RenameParams(
            text_document=doc, position=t.Position(line=2, character=5), new_name="color"
        )
    )


async def test_no_reads_outside_the_workspace_no_network_no_execution(tmp_path: Path) -> None:
    workspace, a, outside = layout(tmp_path)
    log = tmp_path / "audit.jsonl"
    lesson = a / "hostile.md"
    lesson.write_text(HOSTILE, encoding="utf-8")
    async with lsp_session(folders=[workspace], server_env=audit_env(log)) as session:
        await wait_until(ended(session))
        uri = uri_of(lesson)
        session.open(uri, HOSTILE)
        await exercise(session, uri, HOSTILE)
        # The editor reports changes outside the workspace and through the symlink out.
        session.client.workspace_did_change_watched_files(
            t.DidChangeWatchedFilesParams(
                changes=[
                    t.FileEvent(uri=uri_of(outside / "secret.md"), type=kind)
                    for kind in (t.FileChangeType.Created, t.FileChangeType.Changed)
                ]
                + [
                    t.FileEvent(uri=uri_of(a / "escape.md"), type=t.FileChangeType.Changed),
                    t.FileEvent(
                        uri=uri_of(a / "elsewhere" / "secret.md"), type=t.FileChangeType.Created
                    ),
                ]
            )
        )
        await wait_until(ended(session, 2))
        await verify(session, uri, HOSTILE, [workspace])
    events = read_audit(log)
    assert any(e["event"] == "os.scandir" and inside(e["arg"], workspace) for e in events), (
        "the audit hook saw no listing of the workspace: it did not run"
    )
    touched = [e for e in events if e["event"] in ("open", "os.scandir", "os.listdir")]
    assert [e for e in touched if inside(e["arg"], outside)] == []
    documents = [e["arg"] for e in touched if e["arg"].endswith((".md", ".toml"))]
    assert documents and all(inside(p, workspace) for p in documents), documents
    assert [e for e in events if e["event"].startswith(NETWORK_EVENTS)] == []
    assert [e for e in events if e["event"].startswith(PROCESS_EVENTS)] == []
    assert [e for e in events if e["event"] == "compile" and TOKEN in e["arg"]] == []
    assert not list(tmp_path.rglob(f"{TOKEN}*")) and not list(Path.cwd().glob(f"{TOKEN}*"))


def edited_uris(edit: t.WorkspaceEdit | None) -> set[str]:
    if edit is None:
        return set()
    found = set(edit.changes or {})
    for change in edit.document_changes or []:
        if isinstance(change, t.TextDocumentEdit):
            found.add(change.text_document.uri)
        elif isinstance(change, (t.CreateFile, t.DeleteFile)):
            found.add(change.uri)
        elif isinstance(change, t.RenameFile):
            found.update({change.old_uri, change.new_uri})
    return found


async def test_rename_and_code_actions_edit_only_documents_of_the_course(tmp_path: Path) -> None:
    workspace, a, _ = layout(tmp_path)
    course_a = {uri_of(a / "one.md"), uri_of(a / "two.md")}
    stray = tmp_path / "stray.md"  # outside every workspace folder, open in the editor
    stray.write_text("?[%{{ colour }} P | Q]\n", encoding="utf-8")
    async with lsp_session(folders=[workspace]) as session:
        await wait_until(ended(session))
        uri = uri_of(a / "one.md")
        text = (a / "one.md").read_text(encoding="utf-8")
        session.open(uri, text)
        session.open(uri_of(stray), stray.read_text(encoding="utf-8"))
        edit = await session.client.text_document_rename_async(
            t.RenameParams(
                text_document=t.TextDocumentIdentifier(uri=uri),
                position=t.Position(line=2, character=6),
                new_name="color",
            )
        )
        assert edited_uris(edit) == course_a
        actions = await session.client.text_document_code_action_async(
            t.CodeActionParams(
                text_document=t.TextDocumentIdentifier(uri=uri),
                range=t.Range(
                    start=t.Position(line=0, character=0), end=t.Position(line=3, character=0)
                ),
                context=t.CodeActionContext(
                    diagnostics=[],
                    only=[
                        t.CodeActionKind.QuickFix,
                        ca.CONVERT_LEGACY_COURSE,
                        ca.PAD_MARKERS_COURSE,
                        ca.CONVERT_LEGACY,
                        ca.PAD_MARKERS,
                        ca.MERGE,
                    ],
                ),
            )
        )
        kinds = {action.kind for action in actions or [] if isinstance(action, t.CodeAction)}
        assert ca.CONVERT_LEGACY_COURSE in kinds and ca.PAD_MARKERS_COURSE in kinds
        for action in actions or []:
            assert isinstance(action, t.CodeAction)
            assert edited_uris(action.edit) <= course_a, action.title
        await verify(session, uri, text, [workspace], check_hover=False)
