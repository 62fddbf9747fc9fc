"""Publishing rounds: one open document per turn of the event loop, the edited one
first; a keystroke arriving during a round stops it, and the next round publishes
every document again."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path

from lsprotocol import types as t

from mfls.lsp.handlers import documents
from mfls.lsp.routes import create_server
from mfls.workspace.uris import path_to_uri


class Sink:
    def __init__(self) -> None:
        self.sent: list[dict[str, object]] = []

    def write(self, data: bytes) -> None:
        self.sent.append(json.loads(data.split(b"\r\n\r\n", 1)[1]))


def published(sink: Sink) -> list[tuple[str, int, int]]:
    found = []
    for message in sink.sent:
        if message.get("method") == t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS:
            params = message["params"]
            assert isinstance(params, dict)
            uri = params["uri"].rsplit("/", 1)[-1]
            found.append((uri, params.get("version"), len(params["diagnostics"])))
    return found


async def test_a_keystroke_during_a_round_starts_the_next(tmp_path: Path) -> None:
    server = create_server()
    sink = Sink()
    server.protocol.set_writer(sink)
    server.worker.loop = asyncio.get_running_loop()
    server.settings = dataclasses.replace(server.settings, diagnostic_delay=0)
    names = ["a.md", "b.md", "c.md"]
    for name in names:
        text = f"Read {{{{ unbound in {name} }}}}.\n"
        documents.did_open(
            server.state,
            server,
            t.DidOpenTextDocumentParams(
                text_document=t.TextDocumentItem(
                    uri=path_to_uri(str(tmp_path / name)),
                    language_id="markdown",
                    version=1,
                    text=text,
                )
            ),
        )
    await asyncio.sleep(0.05)
    assert sorted(published(sink)) == [(name, 1, 1) for name in names]
    sink.sent.clear()

    def keystroke(name: str, version: int) -> None:
        documents.did_change(
            server.state,
            server,
            t.DidChangeTextDocumentParams(
                text_document=t.VersionedTextDocumentIdentifier(
                    uri=path_to_uri(str(tmp_path / name)), version=version
                ),
                content_changes=[
                    t.TextDocumentContentChangePartial(
                        range=t.Range(
                            start=t.Position(line=0, character=0),
                            end=t.Position(line=0, character=0),
                        ),
                        text="{{ new }} ",
                    )
                ],
            ),
        )

    computed: list[str] = []
    publish = server.publisher.publish

    def recording(uri: str, skip_empty: bool = False) -> None:
        computed.append(uri.rsplit("/", 1)[-1])
        publish(uri, skip_empty)

    server.publisher.publish = recording  # type: ignore[method-assign]  # watching the rounds
    keystroke("c.md", 2)
    while not computed:  # until the timer fires: the round begins with c.md, the edited one
        await asyncio.sleep(0)
    assert computed == ["c.md"]
    keystroke("b.md", 2)  # before the round is done
    await asyncio.sleep(0.05)
    assert computed == ["c.md", "b.md", "a.md", "c.md"]  # not a.md, b.md of the first round
    assert published(sink) == [("c.md", 2, 2), ("b.md", 2, 2)]  # unchanged ones are not sent
