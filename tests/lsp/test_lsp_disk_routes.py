"""DISK routes run on the worker thread with the server's `Files`, against a snapshot
taken when the request came; their effects (a rename to watch, the documents an edit
basis read again) are applied on the loop,
and an open buffer changed meanwhile makes the answer stale. In the synchronous mode
they run inline."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterable
from typing import Any

import pytest
from lsprotocol import types as t

from mfls.features.refusal import Refusal
from mfls.lsp import routes
from mfls.lsp.files import DiskFiles
from mfls.lsp.server import MflsServer
from mfls.lsp.state import ServerState
from mfls.workspace.workspace import EditBasis
from tests.kit import course as course_kit

LESSON_1 = "# A\n\n?[{{ topic }} Python | JavaScript]\n\nUse {{ topic }}.\n"
LESSON_2 = "# B\n\nMore about {{ topic }}.\n"
RENAME = next(r for r in routes.ROUTES if r.method == t.TEXT_DOCUMENT_RENAME)


class RecordingFiles(DiskFiles):
    """`DiskFiles` that notes the thread each edit basis is read on, and runs `during`
    there first."""

    def __init__(self, kit: course_kit.Course) -> None:
        super().__init__(kit.workspace)
        self.kit = kit
        self.threads: list[str] = []
        self.during: Any = None

    def edit_basis(self, course_id: str, uris: Iterable[str]) -> EditBasis:
        self.threads.append(threading.current_thread().name)
        if self.during is not None:
            self.during()
        return super().edit_basis(course_id, uris)


def served(inline: bool) -> tuple[MflsServer, RecordingFiles, str]:
    """A server on an in-memory course of two lessons, the first open."""
    kit = course_kit.course("01.md", LESSON_1, "02.md", LESSON_2)
    server = routes.create_server(inline=inline)
    server.state = ServerState(kit.workspace)
    files = RecordingFiles(kit)
    server.files = files
    uri = kit.uri("01.md")
    kit.workspace.open(uri, LESSON_1, 1)
    return server, files, uri


def rename_params(uri: str) -> t.RenameParams:
    return t.RenameParams(
        text_document=t.TextDocumentIdentifier(uri=uri),
        position=t.Position(line=4, character=8),
        new_name="subject",
    )


def edited_uris(edit: t.WorkspaceEdit) -> set[str]:
    assert edit.document_changes is None and edit.changes is not None
    return set(edit.changes)


async def test_a_rename_runs_on_the_worker_and_its_record_is_watched_from_the_loop() -> None:
    server, files, uri = served(inline=False)
    server.worker.loop = asyncio.get_running_loop()
    try:
        answer = await routes.bound(server, RENAME)(rename_params(uri))
    finally:
        server.stop_worker()
    assert isinstance(answer, t.WorkspaceEdit)
    assert edited_uris(answer) == {uri, uri.replace("01.md", "02.md")}
    assert len(files.threads) == 1 and files.threads[0].startswith("mfls-index")
    [waiting] = server.state.pending_renames.waiting
    assert (waiting.record.old_key, waiting.record.new_key) == ("topic", "subject")


async def _renamed_while_the_buffer_is_edited(
    server: MflsServer, files: RecordingFiles, uri: str
) -> object:
    """The answer to a rename during which the lesson's buffer is edited on the loop."""
    loop = server.worker.loop = asyncio.get_running_loop()
    edited = threading.Event()

    def edit_the_buffer() -> None:
        server.state.workspace.change(uri, [(len(LESSON_1), len(LESSON_1), "x")], 2)
        edited.set()

    def meanwhile() -> None:
        loop.call_soon_threadsafe(edit_the_buffer)
        assert edited.wait(5)

    files.during = meanwhile
    try:
        return await routes.bound(server, RENAME)(rename_params(uri))
    finally:
        server.stop_worker()


async def test_a_buffer_edited_while_the_worker_renames_makes_the_answer_stale() -> None:
    server, files, uri = served(inline=False)
    answer = await _renamed_while_the_buffer_is_edited(server, files, uri)
    assert isinstance(answer, Refusal) and answer.stale and uri in answer.message
    assert server.state.pending_renames.waiting == ()


async def test_a_rename_refused_while_a_buffer_is_edited_is_still_the_refusal() -> None:
    """A refusal (here: a member of the course cannot be read) is the answer even when a
    buffer changed meanwhile: an editor drops a stale error silently."""
    server, files, uri = served(inline=False)
    files.kit.disk.put(files.kit.path("02.md"), b"\xff {{ topic }}\n")
    answer = await _renamed_while_the_buffer_is_edited(server, files, uri)
    assert isinstance(answer, Refusal) and not answer.stale
    assert "02.md" in answer.message and "UTF-8" in answer.message


def test_in_the_synchronous_mode_a_rename_runs_inline() -> None:
    server, files, uri = served(inline=True)
    answer = routes.bound(server, RENAME)(rename_params(uri))
    assert isinstance(answer, t.WorkspaceEdit)
    assert edited_uris(answer) == {uri, uri.replace("01.md", "02.md")}
    assert files.threads == [threading.current_thread().name]
    assert len(server.state.pending_renames.waiting) == 1


async def test_the_documents_a_rename_read_again_reach_the_index_on_the_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The worker reads 02.md again (it changed on disk) and changes nothing; the loop
    indexes the new text when it applies the answer's effects."""
    server, files, uri = served(inline=False)
    server.worker.loop = asyncio.get_running_loop()
    second = uri.replace("01.md", "02.md")
    files.kit.disk.put(files.kit.path("02.md"), "# B\n\nMoved: {{ topic }}.\n")
    live: list[Any] = []
    read_again = files.edit_basis

    def recorded(course_id: str, uris: Iterable[str]) -> EditBasis:
        basis = read_again(course_id, uris)
        live.append(server.courses.snapshot)  # on the worker, after the basis is read
        return basis

    monkeypatch.setattr(files, "edit_basis", recorded)
    before = server.courses.snapshot
    try:
        answer = await routes.bound(server, RENAME)(rename_params(uri))
    finally:
        server.stop_worker()
    assert isinstance(answer, t.WorkspaceEdit)
    assert live == [before] and before.entry(second)[1].text == LESSON_2  # type: ignore[index]
    now = server.courses.snapshot.entry(second)
    assert now is not None and now[1].text == "# B\n\nMoved: {{ topic }}.\n"
