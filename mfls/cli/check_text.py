"""The text report of `mfls check`: one `path:line:column: severity code message` line per
finding, written in pieces, and the runs of lines forked copies made with the findings
of their documents (`check_documents`), written as they came."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final, NamedTuple

from mfls.cli.check_finding import Finding
from mfls.cli.output import shown, write_stdout, write_stdout_bytes

CHUNK_LINES: Final = 4096


def _one_line(message: str) -> str:
    return shown(" ".join(message.split()))


def _where(path: str, lesson: str | None, part: str | None) -> str:
    where = shown(path)
    if lesson is not None:
        where += f"#{_one_line(lesson)}" + ("" if part == "content" else f" [{part}]")
    return where


def text_chunks(findings: Sequence[Finding]) -> Iterator[str]:
    """The lines of `findings` in pieces of up to CHUNK_LINES lines, so a big report is
    never held whole; places and messages, which repeat, made once each."""
    places: dict[tuple[str, str | None, str | None], str] = {}
    messages: dict[str, str] = {}
    lines = []
    for path, line, column, _, _, severity, code, message, lesson, _, part in findings:
        at = (path, lesson, part)
        where = places.get(at)
        if where is None:
            where = places[at] = _where(*at)
        said = messages.get(message)
        if said is None:
            said = messages[message] = _one_line(message)
        lines.append(f"{where}:{line}:{column}: {severity} {code} {said}\n")
        if len(lines) == CHUNK_LINES:
            yield "".join(lines)
            lines = []
    if lines:
        yield "".join(lines)


def text_pieces(
    findings: Sequence[Finding], written: Sequence[tuple[int, Written]]
) -> Iterator[str]:
    """The lines of `findings` in pieces, in order, with the runs of lines `written`
    elsewhere, each before the finding at its index."""
    for piece in _pieces(findings, written):
        yield piece if isinstance(piece, str) else piece.decode("utf-8", "surrogatepass")


def write_text(findings: Sequence[Finding], written: Sequence[tuple[int, Written]]) -> None:
    """`text_pieces` on standard output, the runs written elsewhere as they came."""
    for piece in _pieces(findings, written):
        if isinstance(piece, str):
            write_stdout(piece)
        else:
            write_stdout_bytes(piece)


def _pieces(
    findings: Sequence[Finding], written: Sequence[tuple[int, Written]]
) -> Iterator[str | bytes]:
    done = 0
    for at, lines in written:
        yield from text_chunks(findings[done:at])
        yield lines.data
        done = at
    yield from text_chunks(findings[done:])


class Written(NamedTuple):
    """The text report's lines of a run of findings, made by a forked copy: UTF-8 bytes
    written as they are, and whether any of those findings is an error."""

    data: bytes
    errors: bool
