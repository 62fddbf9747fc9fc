"""The text report of `mfls check`: one `path:line:column: severity code message` line per
finding, written in pieces; on a big report the lines of its later findings are made by
forked copies of this process (`workspace.forking`), written in order after this one's."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from mfls.cli.check_documents import Finding
from mfls.cli.output import shown, write_stdout, write_stdout_bytes
from mfls.workspace.forking import even_runs, shared_out
from mfls.workspace.parallel import fork_workers

CHUNK_LINES: Final = 4096
FORK_MIN_LINES: Final = 40_000
"""Below this many findings every line is made in this process: a forked copy's lines
come back as bytes through a pipe, which pays only on many lines."""


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


def write_text(findings: Sequence[Finding], jobs: int | None) -> None:
    """The lines of `findings` on standard output, in order; up to `jobs` processes (None:
    as many as pay) make those of a run of findings each."""
    workers = fork_workers(len(findings), FORK_MIN_LINES, jobs, len(findings))
    parts = even_runs(findings, [1] * len(findings), workers) if workers > 1 else [findings]
    shared_out(parts, _write, _encoded, write_stdout_bytes)


def _write(findings: Sequence[Finding]) -> None:
    for chunk in text_chunks(findings):
        write_stdout(chunk)


def _encoded(findings: Sequence[Finding]) -> bytes:
    return "".join(text_chunks(findings)).encode("utf-8", errors="surrogatepass")
