"""The editor's rename record, end to end against `python -m mfls`: written only once
the client has applied the rename's edit to every document it touches."""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path

from lsprotocol import types as t
from rename_support import caps_of, editor, uri, wait_until, write_files

from mfls import __version__

TOML = 'name = "Editor course"\n'
L1 = "?[{{ topic }} Python | Go]\n\nYou chose {{ topic }}.\n"
L2 = "More on {{ topic }}.\n"


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


async def test_the_record_is_written_once_the_client_applied_the_edit_everywhere(
    tmp_path: Path,
) -> None:
    course = tmp_path / "course"
    write_files(course, {"mfcourse.toml": TOML, "l1.md": L1, "lessons/l2.md": L2})
    location = course / ".mfls" / "renames.jsonl"
    async with editor(caps_of("visual-studio-code"), course) as ed:
        doc = ed.open(course / "l1.md")
        edit = await ed.client.text_document_rename_async(
            t.RenameParams(
                text_document=t.TextDocumentIdentifier(uri=doc),
                position=ed.position(doc, L1.index("topic")),
                new_name=" subject ",
            )
        )
        assert edit is not None
        texts = ed.applied(edit)
        closed = uri(course / "lessons" / "l2.md")
        assert set(texts) == {doc, closed}
        await asyncio.sleep(0.3)
        assert not location.exists(), "a proposed edit is not a rename yet"

        # The editor applies the edit: the open buffer changes, the closed file is saved.
        ed.client.text_document_did_change(
            t.DidChangeTextDocumentParams(
                text_document=t.VersionedTextDocumentIdentifier(uri=doc, version=2),
                content_changes=[t.TextDocumentContentChangeWholeDocument(text=texts[doc])],
            )
        )
        await asyncio.sleep(0.3)
        assert not location.exists(), "one document of two is not the whole rename"
        (course / "lessons" / "l2.md").write_text(texts[closed], "utf-8")
        ed.client.workspace_did_change_watched_files(
            t.DidChangeWatchedFilesParams(
                changes=[t.FileEvent(uri=closed, type=t.FileChangeType.Changed)]
            )
        )
        await wait_until(location.exists)
        ed.client.text_document_did_save(
            t.DidSaveTextDocumentParams(text_document=t.TextDocumentIdentifier(uri=doc))
        )
        await asyncio.sleep(0.3)
    lines = location.read_text("utf-8").splitlines()
    assert len(lines) == 1, "one rename, one record"
    record = json.loads(lines[0])
    assert record["schema"] == "mfls-rename-record" and record["version"] == 1
    assert record["action"] == "rename" and record["applied"] == "observed"
    assert (record["old_key"], record["new_key"]) == ("topic", "subject")
    assert record["course"] == {"root": str(course), "name": "Editor course"}
    assert record["tool"] == {"name": "mfls server", "version": __version__}
    assert str(record["time"]).endswith("Z") and len(str(record["id"])) == 36
    assert sorted(record["files"], key=lambda f: f["path"]) == [
        {"path": "l1.md", "sha256_before": sha(L1), "sha256_after": sha(texts[doc])},
        {"path": "lessons/l2.md", "sha256_before": sha(L2), "sha256_after": sha(texts[closed])},
    ]
