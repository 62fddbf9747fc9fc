"""`ServerState.snapshot()`: a frozen view of one moment, converting positions in exactly
its own texts (an open buffer as it was, a closed document as its index held it)."""

from __future__ import annotations

import dataclasses

import pytest
from lsprotocol import types as t

from mfls.features import rename as rn
from mfls.lsp.capabilities import Capabilities
from mfls.lsp.state import ServerState
from mfls.text.line_index import Encoding
from tests.kit.course import Course, course

OPEN_TEXT = "😀 {{ topic }}\r\nsecond {{ topic }}\n"
CLOSED_TEXT = "# B\n\n😀😀 ?[{{ topic }} A | B]\n"


def at(line: int, character: int) -> t.Position:
    return t.Position(line=line, character=character)


def opened(encoding: Encoding = Encoding.UTF16) -> tuple[Course, ServerState, str]:
    """A course of `a.md` (opened with OPEN_TEXT) and `b.md` (closed)."""
    kit = course("a.md", "# A\n", "b.md", CLOSED_TEXT)
    state = ServerState(kit.workspace)
    state.caps = dataclasses.replace(Capabilities(), encoding=encoding)
    uri = kit.uri("a.md")
    kit.workspace.open(uri, OPEN_TEXT, 3, "file:///course/%61.md")
    return kit, state, uri


@pytest.mark.parametrize(
    ("encoding", "character"), [(Encoding.UTF16, 3), (Encoding.UTF8, 5), (Encoding.UTF32, 2)]
)
def test_an_open_buffer_converts_in_the_negotiated_encoding(
    encoding: Encoding, character: int
) -> None:
    _, state, uri = opened(encoding)
    snap = state.snapshot()
    cursor = snap.cursor("file:///course/%61.md", at(0, character))
    assert cursor is not None
    assert (cursor.uri, cursor.index.text, cursor.offset) == (uri, OPEN_TEXT, 2)
    assert snap.client_uri(uri) == "file:///course/%61.md"
    second = snap.cursor(uri, at(1, 0))
    assert second is not None and second.offset == OPEN_TEXT.index("second")
    whole_marker = t.Range(start=at(0, character), end=at(0, character + len("{{ topic }}")))
    assert snap.convert.range_in(uri, 2, 13) == whole_marker


def test_a_closed_document_converts_in_its_indexed_text() -> None:
    kit, state, _ = opened()
    snap = state.snapshot()
    closed = kit.uri("b.md")
    cursor = snap.cursor(closed, at(2, 5))  # two astral characters and a space: 5 units
    assert cursor is not None
    assert (cursor.index.text, cursor.offset) == (CLOSED_TEXT, CLOSED_TEXT.index("?["))
    assert snap.client_uri(closed) == closed
    assert snap.buffers.get(closed) is None
    assert snap.cursor(kit.uri("elsewhere.md"), at(0, 0)) is None


def test_a_snapshot_taken_before_an_edit_keeps_converting_in_the_old_text() -> None:
    kit, state, uri = opened()
    before = state.snapshot()
    kit.workspace.change(uri, [(0, 0, "new line\n")], 4)
    after = state.snapshot()

    old = before.cursor(uri, at(1, 0))
    new = after.cursor(uri, at(1, 0))
    assert old is not None and new is not None
    assert old.index.text == OPEN_TEXT and old.offset == OPEN_TEXT.index("second")
    assert new.index.text == "new line\n" + OPEN_TEXT and new.offset == len("new line\n")
    assert before.buffers[uri].version == 3 and after.buffers[uri].version == 4
    assert before.workspace is not after.workspace
    assert before.convert.range_in(uri, 0, 1) == t.Range(start=at(0, 0), end=at(0, 2))
    assert after.convert.range_in(uri, 0, 1) == t.Range(start=at(0, 0), end=at(0, 1))


def test_a_closed_document_reopened_with_another_text_leaves_old_snapshots_alone() -> None:
    kit, state, _ = opened()
    closed = kit.uri("b.md")
    before = state.snapshot()
    assert before.index(closed) is not None  # its index is made (and cached) now
    kit.workspace.open(closed, "other\n", 1)
    old = before.index(closed)
    assert old is not None and old.text == CLOSED_TEXT
    new = state.snapshot().index(closed)
    assert new is not None and new.text == "other\n"
    assert state.workspace.is_open(closed)
    state.workspace.close(closed)
    assert not state.workspace.is_open(closed)
    assert closed not in state.snapshot().buffers and closed not in before.buffers


def test_a_snapshot_is_frozen_and_shares_what_the_state_holds() -> None:
    _, state, uri = opened()
    snap = state.snapshot()
    assert snap.buffers is state.buffers  # taken in O(1): nothing is copied
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.language = "zh"  # type: ignore[misc]  # the point: it cannot be changed
    with pytest.raises(TypeError):
        snap.buffers[uri] = snap.buffers[uri]  # type: ignore[index]  # read-only mapping
    state.settings = dataclasses.replace(state.settings, locale="zh")
    assert snap.language == "en" and state.snapshot().language == "zh"


def test_a_rename_edit_is_stale_against_a_snapshot_whose_buffer_differs() -> None:
    kit, state, uri = opened()
    before = state.snapshot()
    change = rn.rename_key(before.workspace.courses[kit.root], "topic", "subject")
    assert isinstance(change, rn.WorkspaceChange)
    assert isinstance(before.edits().edit(change), t.WorkspaceEdit)
    state.workspace.change(uri, [(len(OPEN_TEXT), len(OPEN_TEXT), "x")], 4)
    stale = state.snapshot().edits().edit(change)
    assert not isinstance(stale, t.WorkspaceEdit) and stale.stale
