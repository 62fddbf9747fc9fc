"""MUTATE handlers are functions of the `ServerState` and an injected `Plumbing`: called
here with a plumbing that records what they ask, on an in-memory course."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from lsprotocol import types as t

from mfls.lsp.handlers import documents
from mfls.lsp.state import ServerState
from tests.kit.course import course

COURSE = 'lessons = ["a.md"]\n'


class RecordingPlumbing:
    """The part of `Plumbing` the document handlers use; background work is kept, not
    run, until the test runs it."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, str | None]] = []
        self.background: list[Callable[[], None]] = []

    def diagnostics_changed(self, uri: str | None = None) -> None:
        self.asked.append(("diagnostics_changed", uri))

    def clear_published(self, uri: str) -> None:
        self.asked.append(("clear_published", uri))

    def settle_heap(self) -> None:
        self.asked.append(("settle_heap", None))

    def in_background(self, work: Callable[[], None], uri: str) -> None:
        self.asked.append(("in_background", uri))
        self.background.append(work)


def test_did_close_leaves_the_disk_read_to_the_background() -> None:
    kit = course("a.md", "?[{{ disk }} A]\n", config=COURSE)
    state, plumbing = ServerState(kit.workspace), RecordingPlumbing()
    # A push client that wants no diagnostics of closed documents: they are cleared.
    state.settings = dataclasses.replace(state.settings, closed_documents=False)
    a = kit.uri("a.md")
    item = t.TextDocumentItem(uri=a, language_id="markdown", version=2, text="?[{{ mine }} A]\n")
    documents.did_open(state, plumbing, t.DidOpenTextDocumentParams(text_document=item))
    assert plumbing.asked == [("settle_heap", None), ("diagnostics_changed", a)]
    plumbing.asked.clear()
    closing = t.DidCloseTextDocumentParams(text_document=t.TextDocumentIdentifier(uri=a))
    documents.did_close(state, plumbing, closing)
    assert a not in state.buffers
    assert plumbing.asked == [("clear_published", a), ("in_background", a)]
    assert set(kit.snapshot.courses["/course"].bindings) == {"mine"}  # not read yet
    [reread] = plumbing.background
    reread()
    entry = kit.snapshot.entry(a)
    assert entry is not None and entry[1].text == "?[{{ disk }} A]\n"
    assert set(kit.snapshot.courses["/course"].bindings) == {"disk"}
