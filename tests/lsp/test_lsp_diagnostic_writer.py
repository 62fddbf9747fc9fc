"""`DiagnosticWriter`'s JSON texts are what pygls writes for `to_proto.diagnostic`'s
lsprotocol objects (through cattrs), byte for byte, in every encoding; so are the whole
publish notification and the pull report built from them."""

from __future__ import annotations

import json
from typing import Any

import pytest
from lsprotocol import types as t

from mfls.features.diagnostics import DEPRECATED, Diagnostic, document_diagnostics
from mfls.lsp import to_proto
from mfls.lsp.documents import OpenBuffer, Texts
from mfls.lsp.routes import create_server
from mfls.text.line_index import Encoding, LineIndex
from mfls.workspace.workspace import Workspace

TEXT = '😀 {{ 𝒳 }}\r\nline 二 "quoted" \\ back\n𝄞 end\rlast'
URI = "file:///c/a.md"
CLIENT_URI = "file:///c/A%20b.md"
CLOSED = "file:///c/b.md"
CLOSED_TEXT = "# B\n\n𝒳 {{ k }}\r\n"
GONE = "file:///c/gone.md"
WIRE = to_proto.wire_converter()

LESSON = """# Lesson

?[{{ topic }} Python | JavaScript]
?[%{{ old form }} A | B]
?[{{ asks nothing }}]

Read {{ Topic }} and {{ topc }} and {{ unbound one }} and {{ later }}, {{}} and {{ sys_x }}.
Then {{ a\x01b }} and {{ broken
line }} and {{ unclosed

?[{{ later }} Yes | No]
`code {{ topic }}` and 😀 {{ 𝒳 }} before {{ 𝒳𝒳 }}.
"""


def sent(value: Any) -> str:
    """What pygls writes for `value` (the server's wire converter, then `json.dumps`)."""
    return json.dumps(WIRE.unstructure(value))


def converter(encoding: Encoding, text: str = TEXT) -> to_proto.Converter:
    texts = Texts(lambda uri: CLOSED_TEXT if uri == CLOSED else None)
    texts.open[URI] = OpenBuffer(CLIENT_URI, 7, LineIndex(text))
    return to_proto.Converter(texts, encoding)


def varied() -> list[Diagnostic]:
    messages = ["m", '“quoted” "x" \\ \t\n end', "astral 😀𝒳", "lone \ud800 surrogate", ""]
    found = []
    for n, message in enumerate(messages):
        for severity in ("error", "warning", "information", "hint", "loud"):
            found.append(Diagnostic(f"code-{n}", severity, n, n + 3, message))
    places = [
        (URI, 16, 17, "here, in the open document"),
        (CLOSED, 5, 6, "there, in a closed one"),
        (GONE, 0, 1, "left out: no longer known"),
        (URI, -4, 999, "clamped"),
        (URI, 11, 12, "between CR and LF"),
    ]
    for size in range(len(places) + 1):
        found.append(Diagnostic("near-miss", "warning", 2, 9, "with places", tuple(places[:size])))
    for tags in ((), (DEPRECATED,), ("unnecessary",), ("unnecessary", DEPRECATED, "no-such")):
        found.append(Diagnostic("legacy-binding", "hint", 0, 1, "tagged", (), tags))
    found.append(Diagnostic("both", "error", 3, 40, "both", tuple(places[:2]), (DEPRECATED,)))
    for start, end in ((-5, 0), (0, 0), (10, 11), (11, 12), (12, 13), (len(TEXT), 10**6)):
        found.append(Diagnostic("edges", "error", start, end, "edges"))
    return found


def lesson_diagnostics() -> list[Diagnostic]:
    workspace = Workspace()
    workspace.open(URI, LESSON, 1)
    found = document_diagnostics(workspace.snapshot, URI)
    assert len({d.code for d in found}) >= 7, found
    return found


@pytest.mark.parametrize("encoding", list(Encoding))
def test_texts_are_the_converted_diagnostics_as_pygls_writes_them(encoding: Encoding) -> None:
    for text, items in ((TEXT, varied()), (LESSON, lesson_diagnostics())):
        convert = converter(encoding, text)
        writer = to_proto.DiagnosticWriter(convert)
        index = LineIndex(text)
        expected = [sent(to_proto.diagnostic(convert, index, item)) for item in items]
        assert writer.texts(index, items) == expected
        assert writer.texts(index, items) == expected  # again, from what it remembers


def test_remembered_texts_follow_moved_ranges_and_edited_places() -> None:
    convert = converter(Encoding.UTF16)
    writer = to_proto.DiagnosticWriter(convert)
    items = varied()
    writer.texts(LineIndex(TEXT), items)
    edited = LineIndex(TEXT).edited(0, 0, "ab\n")
    buffers = convert.texts.open
    assert isinstance(buffers, dict)
    buffers[URI] = OpenBuffer(buffers[URI].client_uri, buffers[URI].version, edited)
    moved = [
        Diagnostic(d.code, d.severity, d.start + 3, d.end + 3, d.message, d.related, d.tags)
        for d in items
    ]
    expected = [sent(to_proto.diagnostic(convert, edited, item)) for item in moved]
    assert writer.texts(edited, moved) == expected
    buffers[URI] = OpenBuffer("file:///c/renamed.md", buffers[URI].version, edited)
    assert writer.texts(edited, moved) == [
        sent(to_proto.diagnostic(convert, edited, item)) for item in moved
    ]


@pytest.mark.parametrize("version", [None, 0, 12])
def test_the_publish_notification_is_pygls_own(version: int | None) -> None:
    convert = converter(Encoding.UTF16)
    items = varied()
    index = LineIndex(TEXT)
    texts = to_proto.DiagnosticWriter(convert).texts(index, items)
    notification = t.PublishDiagnosticsNotification(
        params=t.PublishDiagnosticsParams(
            uri=CLIENT_URI,
            diagnostics=[to_proto.diagnostic(convert, index, item) for item in items],
            version=version,
        ),
        method=t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,
        jsonrpc="2.0",
    )
    assert to_proto.publish_diagnostics_text(CLIENT_URI, texts, version) == sent(notification)
    assert to_proto.publish_diagnostics_text(CLIENT_URI, [], version) == sent(
        t.PublishDiagnosticsNotification(
            params=t.PublishDiagnosticsParams(uri=CLIENT_URI, diagnostics=[], version=version),
            method=t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,
            jsonrpc="2.0",
        )
    )


def test_the_pull_report_is_pygls_own_and_sent_as_it_is() -> None:
    convert = converter(Encoding.UTF8)
    items = varied()
    index = LineIndex(TEXT)
    texts = to_proto.DiagnosticWriter(convert).texts(index, items)
    report = t.RelatedFullDocumentDiagnosticReport(
        items=[to_proto.diagnostic(convert, index, item) for item in items], result_id="r1"
    )
    assert to_proto.full_report_text(texts, "r1") == sent(report)

    written: list[bytes] = []

    class Sink:
        def write(self, data: bytes) -> None:
            written.append(data)

    protocol = create_server().protocol
    protocol.set_writer(Sink())
    protocol._send_response(5, to_proto.full_report_text(texts, "r1"))
    protocol._send_response(6, report)
    header, body = written[0].split(b"\r\n\r\n", 1)
    assert header.startswith(b"Content-Length: %d\r\n" % len(body))
    assert json.loads(body) == {"id": 5, "result": json.loads(sent(report)), "jsonrpc": "2.0"}
    assert json.loads(written[1].split(b"\r\n\r\n", 1)[1]) == {
        "id": 6,
        "result": json.loads(sent(report)),
        "jsonrpc": "2.0",
    }
