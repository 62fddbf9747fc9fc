"""Load: 1,000 `didChange` notifications sent as fast as possible, interleaved with
requests. Every request is answered, and the final diagnostics match the final text."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable
from typing import Any

from lsprotocol import types as t
from robust_session import PROBE, expected_diagnostics, line_starts, position, verify

from tests.kit.lsp_client import TIMEOUT, Session, push_capabilities
from tests.kit.lsp_client import session as lsp_session

URI = "file:///robustness/load.md"
TAIL = "\n\n" + PROBE + "\n"
START = "# Load\n\n?[{{ colour }} Red | Blue]\n\nUse {{ colour }} here." + TAIL
CHANGES = 1000
PIECES = ["a", " ", "{{", "}}", "{{ colour }}", "{{ size }}", "?[", "]", "|", "\n", "\r\n", "é"]


def random_edit(rng: random.Random, text: str) -> tuple[int, int, str]:
    """A typing-like edit `(start, end, new_text)` before the probe's own paragraph."""
    guard = text.rindex(TAIL)
    start = rng.randrange(0, guard + 1)
    end = min(guard, start + rng.choice([0, 0, 0, 1, 2, 5]))
    return start, end, rng.choice(PIECES) if rng.random() < 0.8 else ""


def lsp_change(text: str, start: int, end: int, new: str) -> t.TextDocumentContentChangePartial:
    starts = line_starts(text)
    (sl, sc), (el, ec) = position(text, starts, start), position(text, starts, end)
    return t.TextDocumentContentChangePartial(
        range=t.Range(
            start=t.Position(line=sl, character=sc), end=t.Position(line=el, character=ec)
        ),
        text=new,
    )


def snap(text: str, offset: int) -> int:
    """Never split a CRLF: an edit there is one the editor cannot express either."""
    if 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n":
        return offset - 1
    return offset


def requests_at(session: Session, text: str, k: int) -> list[Awaitable[Any]]:
    doc = t.TextDocumentIdentifier(uri=URI)
    starts = line_starts(text)
    line, char = position(text, starts, (k * 7919) % (len(text) + 1))
    where = t.Position(line=line, character=char)
    client = session.client
    return [
        client.text_document_hover_async(t.HoverParams(text_document=doc, position=where)),
        client.text_document_completion_async(
            t.CompletionParams(text_document=doc, position=where)
        ),
        client.text_document_semantic_tokens_full_async(t.SemanticTokensParams(text_document=doc)),
        client.text_document_document_symbol_async(t.DocumentSymbolParams(text_document=doc)),
    ]


async def test_a_thousand_changes_interleaved_with_requests() -> None:
    rng = random.Random(20261129)
    async with lsp_session(
        caps=push_capabilities(), initialization_options={"diagnosticDelay": 0}
    ) as session:
        session.open(URI, START)
        text = START
        pending: list[Awaitable[Any]] = []
        began = time.monotonic()
        for k in range(CHANGES):
            start, end, new = random_edit(rng, text)
            start, end = snap(text, start), snap(text, end)
            session.change(URI, [lsp_change(text, start, end, new)])
            text = text[:start] + new + text[end:]
            if k % 10 == 0:
                pending.extend(requests_at(session, text, k))
        answers = await asyncio.wait_for(asyncio.gather(*pending), TIMEOUT * 4)
        elapsed = time.monotonic() - began
        assert len(answers) == len(pending) == 4 * CHANGES // 10
        assert elapsed < TIMEOUT * 4
        assert await session.settled_pushes(URI) == expected_diagnostics(URI, text)
        last = [p for p in session.published if p.uri == URI][-1]
        assert last.version is not None and last.version <= CHANGES + 1
        await verify(session, URI, text)
