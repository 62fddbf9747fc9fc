"""Keystroke -> publishDiagnostics in marker-dense lessons, against a real server process.

    python3 tests/bench/bench_keystroke.py [--edits 200] [--sizes 1000000 100000]
        [--peer PATH] [--profile]

Each size is a course of three lessons: `01-intro.md` binds the keys most references
read, `02-big.md` is the edited lesson (long plain paragraphs, a marker every ~170
bytes, about 1,700 diagnostics per MB: unbound references, near misses of keys bound
elsewhere, reads before the question is asked, legacy bindings, empty markers and
interactions), and `03-later.md` binds what `02-big.md` reads too early.
`mfls.diagnosticDelay` is 0, so a figure is the server's own work: from sending
`didChange` (one character typed into, or deleted from, a reference key in the middle of
the lesson, so every keystroke changes the diagnostics) to receiving the publish of that
version. `--peer PATH` runs the same against the mfls checkout at PATH (e.g. the code
before a change), the two taking turns; ratios are peer / this checkout.
`--profile` runs the edits in process under cProfile instead and prints the top entries.

Targets (issue 13): p95 <= 50 ms at 1 MB (~1,700 diagnostics), <= 20 ms at 100 KB.
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

ROOT = str(Path(__file__).resolve().parents[2])
sys.path.insert(0, ROOT)

WORDS = [
    "the",
    "learner",
    "reads",
    "a",
    "short",
    "example",
    "and",
    "then",
    "tries",
    "it",
    "with",
    "their",
    "own",
    "data",
    "while",
    "the",
    "tutor",
    "explains",
    "why",
    "each",
    "step",
    "matters",
    "and",
    "what",
    "to",
    "look",
    "for",
    "next",
    "time",
]
EDITED = "Edited here: {{ edited key"


def intro() -> str:
    parts = ["# Intro\n\n?[{{ topic }} Python | JavaScript | ...Another topic]\n\n"]
    for n in range(50):
        parts.append(f"?[{{{{ level {n} }}}} Easy | Medium | Hard]\n\n")
    for n in range(200):
        parts.append(f"?[{{{{ learning goal number {n} }}}} Yes | No | ...Other]\n\n")
    return "".join(parts)


def later() -> str:
    return "".join(f"?[{{{{ answer later {n} }}}} A | B]\n\n" for n in range(30))


def section(n: int) -> str:
    """About 1,200 characters with one or two diagnostics (1.7 on average)."""
    words = [WORDS[(n + k) % len(WORDS)] for k in range(170)]
    markers = [
        "{{ topic }}",
        f"{{{{ level {n % 50} }}}}",
        f"{{{{ unbound idea {n} }}}}",  # unbound-reference (or a near miss of another)
        f"{{{{ learning goal numbr {n % 200} }}}}",  # near-miss
        f"{{{{ learning goal number {(n * 7) % 200} }}}}",
        "{{ topic }}",
    ]
    if n % 4 == 0:
        markers[2] = "{{ topic }}"
    if n % 2:
        markers[3] = f"{{{{ learning goal number {n % 200} }}}}"
    if n % 4 == 1:
        markers[4] = f"{{{{ answer later {n % 30} }}}}"  # read-before-asked
    for i, marker in enumerate(markers):
        words.insert(20 + i * 25, marker)
    text = f"## Section {n}\n\n" + " ".join(words) + ".\n\n"
    if n % 10 == 0:
        text += f"?[%{{{{ legacy answer {n} }}}} A | B]\n\n"  # legacy-binding
    if n % 20 == 5:
        text += "An empty marker {{ }} here.\n\n"  # marker-empty
    if n % 25 == 7:
        text += f"?[{{{{ nothing asked {n} }}}}]\n\n"  # empty-interaction
    return text


def big_lesson(size: int) -> tuple[str, int]:
    """The edited lesson, about `size` characters, and the line of the edited marker."""
    parts = ["# A long lesson\n\n"]
    length = len(parts[0])
    n = 0
    line = -1
    while length < size:
        if line < 0 and length >= size // 2:
            line = sum(p.count("\n") for p in parts)
            parts.append(f"{EDITED} }}}} and more text.\n\n")
        parts.append(section(n))
        length += len(parts[-1])
        n += 1
    return "".join(parts), line


def course(folder: Path, size: int) -> tuple[Path, str, int]:
    (folder / "01-intro.md").write_text(intro(), encoding="utf-8")
    (folder / "03-later.md").write_text(later(), encoding="utf-8")
    text, line = big_lesson(size)
    path = folder / "02-big.md"
    path.write_text(text, encoding="utf-8")
    return path, text, line


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def keystrokes(checkout: str, size: int, edits: int) -> tuple[list[float], int]:
    """Latencies (ms) of `edits` keystrokes, and how many diagnostics the lesson has."""
    from lsprotocol import types as t
    from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

    from mfls.workspace.uris import path_to_uri

    env = dict(os.environ, PYTHONPATH=checkout)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        path, text, line = course(folder, size)
        config = ClientServerConfig(server_command=[sys.executable, "-m", "mfls"], server_env=env)
        client = await config.start()
        assert isinstance(client, LanguageClient)

        @client.feature(t.CLIENT_REGISTER_CAPABILITY)
        def register(params: t.RegistrationParams) -> None:
            return None

        arrived: dict[int, float] = {}
        counts: dict[int, int] = {}
        client.protocol.fm._features.pop(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, None)

        @client.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: t.PublishDiagnosticsParams) -> None:
            if params.version is not None:
                arrived.setdefault(params.version, time.perf_counter())
                counts[params.version] = len(params.diagnostics)

        await client.initialize_session(
            t.InitializeParams(
                capabilities=client_capabilities("visual-studio-code"),
                workspace_folders=[t.WorkspaceFolder(uri=path_to_uri(name), name="course")],
                initialization_options={"mfls": {"diagnosticDelay": 0}},
            )
        )
        while not any(
            isinstance(v, t.WorkDoneProgressEnd)
            for reports in client.progress_reports.values()
            for v in reports
        ):
            await asyncio.sleep(0.005)
        uri = path_to_uri(str(path))
        client.text_document_did_open(
            t.DidOpenTextDocumentParams(
                text_document=t.TextDocumentItem(
                    uri=uri, language_id="markdown", version=1, text=text
                )
            )
        )
        while 1 not in arrived:
            await asyncio.sleep(0.001)
        latencies = []
        column = len(EDITED)
        for n in range(edits):
            version = n + 2
            at = t.Position(line=line, character=column)
            end = t.Position(line=line, character=column + (n % 2))
            change = t.TextDocumentContentChangePartial(
                range=t.Range(start=at, end=end), text="" if n % 2 else "x"
            )
            sent = time.perf_counter()
            client.text_document_did_change(
                t.DidChangeTextDocumentParams(
                    text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=[change],
                )
            )
            deadline = sent + 20
            while version not in arrived and time.perf_counter() < deadline:
                await asyncio.sleep(0.0002)
            if version not in arrived:
                raise SystemExit(f"no publishDiagnostics for version {version}")
            latencies.append((arrived[version] - sent) * 1000)
        await client.shutdown_session()
        await client.stop()
    return latencies, counts[1]


def profile(size: int, edits: int) -> None:
    """The server's keystroke path in process (no transport), under cProfile."""
    import cProfile
    import pstats

    from lsprotocol import types as t

    from mfls.lsp.documents import OpenBuffer
    from mfls.lsp.handlers import documents
    from mfls.lsp.server import MflsServer
    from mfls.text.line_index import LineIndex
    from mfls.workspace.uris import path_to_uri

    class Sink:
        def write(self, data: bytes) -> None:
            pass

    with tempfile.TemporaryDirectory() as name:
        path, text, line = course(Path(name), size)
        server = MflsServer()
        server.protocol.set_writer(Sink())
        server.courses.set_folders([name])
        server.courses.index_all()
        uri = path_to_uri(str(path))
        server.texts.open[uri] = OpenBuffer(uri, 1, LineIndex(text))
        server.courses.open(uri, text, 1)
        server.publish(uri)
        column = len(EDITED)

        def run() -> None:
            for n in range(edits):
                at = t.Position(line=line, character=column)
                end = t.Position(line=line, character=column + (n % 2))
                change = t.TextDocumentContentChangePartial(
                    range=t.Range(start=at, end=end), text="" if n % 2 else "x"
                )
                documents.did_change(
                    server,
                    t.DidChangeTextDocumentParams(
                        text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=n + 2),
                        content_changes=[change],
                    ),
                )
                server.publish(uri)

        began = time.perf_counter()
        profiler = cProfile.Profile()
        profiler.runcall(run)
        print(f"{size:,} characters: {(time.perf_counter() - began) * 1000 / edits:.1f} ms/edit")
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(35)


def row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=200)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000_000, 100_000])
    parser.add_argument("--peer", help="another mfls checkout, run the same way")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    if args.profile:
        for size in args.sizes:
            profile(size, args.edits)
        return
    header = ["lesson", "diagnostics", "p50 ms", "p95 ms", "target p95"]
    if args.peer:
        header += ["peer p50 ms", "peer p95 ms", "p50 ratio", "p95 ratio"]
    print(row(header))
    print(row(["---"] * len(header)))
    for size in args.sizes:
        ours, count = await keystrokes(ROOT, size, args.edits)
        cells = [
            f"{size / 1000:,.0f} kB",
            f"{count:,}",
            f"{statistics.median(ours):.1f}",
            f"{percentile(ours, 0.95):.1f}",
            "50" if size >= 500_000 else "20",
        ]
        if args.peer:
            theirs, _ = await keystrokes(args.peer, size, args.edits)
            p50 = statistics.median(theirs)
            p95 = percentile(theirs, 0.95)
            cells += [
                f"{p50:.1f}",
                f"{p95:.1f}",
                f"{p50 / statistics.median(ours):.1f}x",
                f"{p95 / percentile(ours, 0.95):.1f}x",
            ]
        print(row(cells))
        sys.stdout.flush()
    print(f"\n(python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {args.edits} edits)")


if __name__ == "__main__":
    asyncio.run(main())
