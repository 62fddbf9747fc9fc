"""Checking that a real `python -m mfls` process holds exactly the final text.

The clients are the kit's (`tests.kit.lsp_client`: pytest-lsp's `Session` and the
byte-level `RawServer`); both answer the three questions `Probe` asks. `verify` compares
the answers with what `scan(final_text)` and a fresh in-process workspace say.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Sequence
from pathlib import Path
from typing import Any, Protocol

from mfls.features import diagnostics as diagnostics_feature
from mfls.features.semantic_tokens import document_tokens
from mfls.syntax.scanner import scan
from mfls.workspace.hosts import HostProfile
from mfls.workspace.index import WorkspaceSnapshot
from mfls.workspace.workspace import Workspace
from tests.kit.lsp_client import Span

PROBE_KEY = "probe"
PROBE = "{{ " + PROBE_KEY + " }}"

_LINE_END = re.compile(r"\r\n|\r|\n")


# ----- positions, computed here independently of the server's own code ---------------


def line_starts(text: str) -> list[int]:
    return [0, *(m.end() for m in _LINE_END.finditer(text))]


def utf16_len(text: str) -> int:
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def position(text: str, starts: list[int], offset: int) -> tuple[int, int]:
    line = max(k for k, s in enumerate(starts) if s <= offset) if offset else 0
    return line, utf16_len(text[starts[line] : offset])


def line_content_end(text: str, starts: list[int], line: int) -> int:
    if line + 1 < len(starts):
        end = starts[line + 1]
        return end - 2 if text[end - 2 : end] == "\r\n" else end - 1
    return len(text)


Token = tuple[int, int, int, int, int]  # (line, char, length, type, modifiers)


def span(text: str, starts: list[int], start: int, end: int) -> Span:
    return (*position(text, starts, start), *position(text, starts, end))


def expected_tokens(text: str, host: HostProfile | None = None) -> list[Token]:
    """Semantic tokens of `scan(text)`, split at line ends, in absolute UTF-16 positions."""
    starts = line_starts(text)
    found: list[Token] = []
    pieces = document_tokens(scan(text), None if host is None else host.provides)
    for token in sorted(pieces, key=lambda x: (x.start, x.start + x.length)):
        end = token.start + token.length
        first = position(text, starts, token.start)[0]
        last = position(text, starts, end)[0]
        for line in range(first, last + 1):
            a = max(token.start, starts[line])
            b = min(end, line_content_end(text, starts, line))
            if b <= a:
                continue
            char = utf16_len(text[starts[line] : a])
            found.append((line, char, utf16_len(text[a:b]), token.type, token.modifiers))
    return found


def decode_tokens(data: Sequence[int]) -> list[Token]:
    found: list[Token] = []
    line = char = 0
    for k in range(0, len(data), 5):
        dl, dc, length, kind, mods = data[k : k + 5]
        line += dl
        char = char + dc if dl == 0 else dc
        found.append((line, char, length, kind, mods))
    return found


def fresh_snapshot(uri: str, text: str, folders: Sequence[Path] = ()) -> WorkspaceSnapshot:
    """The snapshot of a freshly started workspace with `text` opened at `uri`."""
    workspace = Workspace()
    if folders:
        workspace.set_folders([str(f) for f in folders])
        workspace.index_all()
    workspace.open(uri, text, 1)
    return workspace.snapshot


def expected_diagnostics(
    uri: str, text: str, folders: Sequence[Path] = ()
) -> list[tuple[str, Span]]:
    """Diagnostics a freshly started workspace gives `text` opened at `uri`."""
    starts = line_starts(text)
    found = diagnostics_feature.document_diagnostics(fresh_snapshot(uri, text, folders), uri)
    return sorted((d.code, span(text, starts, d.start, d.end)) for d in found)


# ----- what is asked of a client ----------------------------------------------------


class Probe(Protocol):
    def alive(self) -> bool: ...

    async def tokens(self, uri: str) -> list[int]: ...

    async def hover(self, uri: str, line: int, character: int) -> tuple[str, Span] | None: ...

    async def diagnostics(self, uri: str) -> list[tuple[str, Span]]: ...


async def verify(
    probe: Probe, uri: str, text: str, folders: Sequence[Path] = (), *, check_hover: bool = True
) -> None:
    """The server is up, hovers the probe marker, and holds exactly `text` for `uri`."""
    assert probe.alive(), "the server process has exited"
    starts = line_starts(text)
    if check_hover:
        at = text.rindex(PROBE) + PROBE.index(PROBE_KEY)
        line, char = position(text, starts, at)
        answer = await probe.hover(uri, line, char)
        assert answer is not None, "no hover on the probe marker"
        markdown, where = answer
        assert PROBE_KEY in markdown
        marker_start = text.rindex(PROBE)
        assert where == span(text, starts, marker_start, marker_start + len(PROBE))
    entry = fresh_snapshot(uri, text, folders).entry(uri)
    host = entry[0].host if entry is not None else None
    got = decode_tokens(await probe.tokens(uri))
    assert got == expected_tokens(text, host), "semantic tokens differ from scan(final text)"
    assert await probe.diagnostics(uri) == expected_diagnostics(uri, text, folders)
    assert probe.alive(), "the server process has exited"


async def each(items: Sequence[Awaitable[Any]]) -> list[Any]:
    return list(await asyncio.gather(*items))
