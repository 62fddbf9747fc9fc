"""Server latency over stdio, against a real `python -m mfls` process. Prints a table.

    python3 tests/bench/bench_server.py [--edits 200] [--completions 200]

1. Keystroke -> publishDiagnostics in a 1 MB lesson. `mfls.diagnosticDelay` is set to
   0, so the figure is the server's own work: from sending `didChange` to receiving
   the publish for that version. Each edit changes one key, so every edit changes
   the diagnostics and is published.
2. Completion in a course with 20,000 keys: from request to response.
3. Cold indexing of that course: from `initialized` to the end of the work-done progress.
4. The same keystroke and completion in process, split by layer, to show where the
   time goes: the LSP layer (position conversion, result conversion), the workspace
   (applying the edit, re-indexing the document) and the features.

Targets (issue 3): p95 keystroke-to-diagnostics <= 50 ms; p95 completion <= 30 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

ROOT = str(Path(__file__).resolve().parents[2])
# Measure this checkout, in process and in the server, whatever `mfls` pip installed.
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH", "")) if p)
SERVER = [sys.executable, "-m", "mfls"]
KEYS_PER_LESSON = 100


def uri_of(path: Path) -> str:
    from mfls.workspace.uris import path_to_uri

    return path_to_uri(str(path))


def big_lesson(size: int) -> tuple[str, int]:
    """A realistic lesson of about `size` characters, and the line of the edited marker."""
    parts = ["# A long lesson\n\n", "?[{{ topic }} Python | JavaScript | ...Another topic]\n\n"]
    n = 0
    while sum(map(len, parts)) < size:
        parts.append(
            f"## Section {n}\n\n"
            f"Use {{{{ topic }}}} to explain idea {n} with an example. Keep it short, "
            f"friendly and concrete; refer to {{{{ level {n % 50} }}}} when it helps.\n\n"
            f"?[{{{{ level {n % 50} }}}} Easy//e | Medium//m | Hard//h]\n\n"
            "```python\nprint('{{ not a marker }}')\n```\n\n"
        )
        n += 1
    text = "".join(parts)
    line = text.count("\n")
    return text + "Edited here: {{ edited key }} and more text.\n", line


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def start(folder: Path, options: dict[str, object]) -> tuple[LanguageClient, float]:
    client = await ClientServerConfig(server_command=SERVER).start()
    assert isinstance(client, LanguageClient)

    @client.feature(t.CLIENT_REGISTER_CAPABILITY)
    def register(params: t.RegistrationParams) -> None:
        return None

    began = time.perf_counter()
    await client.initialize_session(
        t.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            workspace_folders=[t.WorkspaceFolder(uri=uri_of(folder), name=folder.name)],
            initialization_options={"mfls": options},
        )
    )
    while not any(
        isinstance(v, t.WorkDoneProgressEnd)
        for reports in client.progress_reports.values()
        for v in reports
    ):
        await asyncio.sleep(0.005)
    return client, time.perf_counter() - began


async def stop(client: LanguageClient) -> None:
    await client.shutdown_session()
    await client.stop()


async def keystrokes(folder: Path, edits: int) -> list[float]:
    text, line = big_lesson(1_000_000)
    path = folder / "big.md"
    path.write_text(text, encoding="utf-8")
    client, _ = await start(folder, {"diagnosticDelay": 0})
    uri = uri_of(path)
    arrived: dict[int, float] = {}

    client.protocol.fm._features.pop(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, None)

    @client.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(params: t.PublishDiagnosticsParams) -> None:
        if params.version is not None:
            arrived.setdefault(params.version, time.perf_counter())

    client.text_document_did_open(
        t.DidOpenTextDocumentParams(
            text_document=t.TextDocumentItem(uri=uri, language_id="markdown", version=1, text=text)
        )
    )
    while 1 not in arrived:
        await asyncio.sleep(0.001)
    column = len("Edited here: {{ edited key")
    latencies = []
    for n in range(edits):
        version = n + 2
        at = t.Position(line=line, character=column)
        if n % 2 == 0:
            change = t.TextDocumentContentChangePartial(range=t.Range(start=at, end=at), text="x")
        else:
            after = t.Position(line=line, character=column + 1)
            change = t.TextDocumentContentChangePartial(range=t.Range(start=at, end=after), text="")
        sent = time.perf_counter()
        client.text_document_did_change(
            t.DidChangeTextDocumentParams(
                text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[change],
            )
        )
        deadline = sent + 10
        while version not in arrived and time.perf_counter() < deadline:
            await asyncio.sleep(0.0005)
        if version not in arrived:
            raise SystemExit(f"no publishDiagnostics for version {version}")
        latencies.append((arrived[version] - sent) * 1000)
    await stop(client)
    return latencies


async def completions(folder: Path, lessons: int, requests: int) -> tuple[list[float], float, int]:
    for n in range(lessons):
        lines = [f"# Lesson {n}\n"]
        for k in range(KEYS_PER_LESSON):
            lines.append(f"\n?[{{{{ question {n}-{k} about the topic }}}} Yes | No]\n")
        (folder / f"lesson-{n:04d}.md").write_text("".join(lines), encoding="utf-8")
    client, indexing = await start(folder, {})
    path = folder / "lesson-0000.md"
    text = path.read_text(encoding="utf-8") + "\nUse {{ que"
    uri = uri_of(path)
    client.text_document_did_open(
        t.DidOpenTextDocumentParams(
            text_document=t.TextDocumentItem(uri=uri, language_id="markdown", version=1, text=text)
        )
    )
    line = text.count("\n")
    column = len("Use {{ que")
    latencies = []
    items = 0
    for _ in range(requests + 5):
        sent = time.perf_counter()
        result = await client.text_document_completion_async(
            t.CompletionParams(
                text_document=t.TextDocumentIdentifier(uri=uri),
                position=t.Position(line=line, character=column),
            )
        )
        latencies.append((time.perf_counter() - sent) * 1000)
        items = len(result.items) if result else 0
    await stop(client)
    return latencies[5:], indexing, items


def breakdown(lessons: int) -> dict[str, list[float]]:
    """Median-ready samples (ms) of each layer's share, measured in this process."""
    from mfls.features import completion, diagnostics
    from mfls.lsp import to_proto
    from mfls.lsp.documents import Texts
    from mfls.text.line_index import Encoding, LineIndex
    from mfls.workspace.workspace import Workspace

    samples: dict[str, list[float]] = {}

    def timed(name: str, work: Any) -> Any:
        began = time.perf_counter()
        value = work()
        samples.setdefault(name, []).append((time.perf_counter() - began) * 1000)
        return value

    with tempfile.TemporaryDirectory() as folder:
        text, line = big_lesson(1_000_000)
        path = Path(folder) / "big.md"
        path.write_text(text, encoding="utf-8")
        workspace = Workspace()
        workspace.set_folders([folder])
        workspace.index_all()
        uri = uri_of(path)
        workspace.open(uri, text, 1)
        index = LineIndex(text)
        to_lsp = to_proto.Converter(Texts(lambda _: None))
        writer = to_proto.DiagnosticWriter(to_lsp)
        at = index.offset(line, len("Edited here: {{ edited key"), Encoding.UTF16)
        for n in range(40):
            edit = (at, at, "x") if n % 2 == 0 else (at, at + 1, "")
            index = timed("keystroke: LSP layer (line index)", lambda e=edit, x=index: x.edited(*e))
            # The index made above, as did_change passes it: the workspace does not make its own.
            timed(
                "keystroke: workspace change",
                lambda e=edit, v=n, x=index: workspace.change(uri, [e], v, x),
            )
            items = timed(
                "keystroke: features diagnostics",
                lambda: diagnostics.document_diagnostics(workspace.snapshot, uri),
            )
            timed(
                "keystroke: LSP layer (conversion to JSON text)",
                lambda i=items, x=index: writer.texts(x, i),
            )
    with tempfile.TemporaryDirectory() as folder:
        for n in range(lessons):
            body = "".join(
                f"\n?[{{{{ question {n}-{k} about the topic }}}} Yes | No]\n"
                for k in range(KEYS_PER_LESSON)
            )
            (Path(folder) / f"lesson-{n:04d}.md").write_text(f"# L{n}\n{body}", encoding="utf-8")
        workspace = Workspace()
        workspace.set_folders([folder])
        workspace.index_all()
        path = Path(folder) / "lesson-0000.md"
        text = path.read_text(encoding="utf-8") + "\nUse {{ que"
        uri = uri_of(path)
        workspace.open(uri, text, 1)
        index = LineIndex(text)
        completion.complete(workspace.snapshot, uri, len(text), limit=100)
        for _ in range(40):
            result = timed(
                "completion: features",
                lambda: completion.complete(workspace.snapshot, uri, len(text), limit=100),
            )
            timed(
                "completion: LSP layer (conversion)",
                lambda r=result: to_proto.completion_list(to_lsp, uri, len(text), index, r, True),
            )
    return samples


def row(name: str, values: list[float], target: str) -> str:
    return (
        f"| {name} | {len(values)} | {statistics.median(values):.1f} | "
        f"{percentile(values, 0.95):.1f} | {max(values):.1f} | {target} |"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=200)
    parser.add_argument("--completions", type=int, default=200)
    parser.add_argument("--lessons", type=int, default=200, help="lessons of 100 keys each")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as one, tempfile.TemporaryDirectory() as two:
        typing = await keystrokes(Path(one), args.edits)
        completing, indexing, items = await completions(Path(two), args.lessons, args.completions)
        corpus = sum(f.stat().st_size for f in Path(two).iterdir())
    print("| measurement | n | median ms | p95 ms | max ms | target |")
    print("|---|---|---|---|---|---|")
    print(row("keystroke -> publishDiagnostics, 1 MB lesson", typing, "p95 <= 50"))
    print(
        row(
            f"completion, {args.lessons * KEYS_PER_LESSON} keys ({items} items sent)",
            completing,
            "p95 <= 30",
        )
    )
    print(
        f"| cold indexing, {args.lessons} lessons, {corpus / 1e6:.1f} MB | 1 | "
        f"{indexing * 1000:.0f} | | | |"
    )
    print("\nIn process, by layer:\n")
    print("| share | n | median ms | p95 ms |")
    print("|---|---|---|---|")
    for name, values in breakdown(args.lessons).items():
        print(
            f"| {name} | {len(values)} | {statistics.median(values):.1f} | "
            f"{percentile(values, 0.95):.1f} |"
        )
    print(f"\n(python {sys.version.split()[0]}, {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    asyncio.run(main())
