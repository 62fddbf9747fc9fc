"""The text report of `mfls check`: one `path:line:column: severity code message` line per
finding, written in pieces. (Made in this process: forked copies making the lines of later
findings took as long, paying in copied memory what they saved in work.)"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from mfls.cli.check_documents import Finding
from mfls.cli.output import shown, write_stdout

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


def write_text(findings: Sequence[Finding]) -> None:
    """The lines of `findings` on standard output, in order."""
    for chunk in text_chunks(findings):
        write_stdout(chunk)
