"""Keystroke -> publishDiagnostics in marker-dense lessons, against a real server process.

    python3 tests/bench/bench_keystroke.py [--edits 200] [--sizes 1000000 100000]
        [--peer PATH] [--rounds 4] [--profile] [--profile-server FILE]

Each size is a course of three lessons: `01-intro.md` binds the keys most references
read, `02-big.md` is the edited lesson (long plain paragraphs, a marker every ~170
bytes, about 1,700 diagnostics per MB: unbound references, near misses of keys bound
elsewhere, reads before the question is asked, legacy bindings, empty markers and
interactions), and `03-later.md` binds what `02-big.md` reads too early.
`mfls.diagnosticDelay` is 0, so a figure is the server's own work: from sending
`didChange` (one character typed into, or deleted from, a reference key in the middle of
the lesson, so every keystroke changes the diagnostics) to receiving the publish of that
version. `--peer PATH` runs the same against the mfls checkout at PATH (e.g. the code
before a change), the two taking turns (`--rounds`); ratios are peer / this checkout.
The client is a minimal one (`Client`): a frame is timed when its last byte arrives,
before it is parsed. "CPU ms" is the server's CPU time per keystroke (Linux), which a
busy machine does not inflate as it does the latencies.
`--profile` runs the edits in process under cProfile instead and prints the top entries.

Targets (issue 13): p95 <= 50 ms at 1 MB (~1,700 diagnostics), <= 20 ms at 100 KB.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_check import WORDS  # the dense corpus's words

ROOT = str(Path(__file__).resolve().parents[2])

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


class Client:
    """A minimal LSP client over the server's stdio: frames are timed as they arrive,
    before the client parses them (an editor's JSON parser is native code; pygls's client
    would add its own cattrs time to every figure)."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.next_id = 0
        self.answers: dict[int, asyncio.Future[Any]] = {}
        self.published: dict[int, tuple[float, int]] = {}  # version -> (arrival, count)
        self.indexed = asyncio.Event()
        self.reader = asyncio.ensure_future(self._read())

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    async def request(self, method: str, params: Any) -> Any:
        self.next_id += 1
        answer = self.answers[self.next_id] = asyncio.get_running_loop().create_future()
        self.send({"id": self.next_id, "method": method, "params": params})
        return await answer

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    async def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = 0
            while True:
                line = await stream.readline()
                if not line:
                    return
                if not line.strip():
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            body = await stream.readexactly(length)
            arrived = time.perf_counter()
            self._handle(json.loads(body), arrived)

    def _handle(self, message: dict[str, Any], arrived: float) -> None:
        method = message.get("method")
        if method is None:
            answer = self.answers.pop(message["id"], None)
            if answer is not None and not answer.done():
                answer.set_result(message.get("result"))
        elif "id" in message:  # a request of the server
            result: Any = None
            if method == "workspace/configuration":
                result = [{"diagnosticDelay": 0} for _ in message["params"]["items"]]
            self.send({"id": message["id"], "result": result})
        elif method == "textDocument/publishDiagnostics":
            params = message["params"]
            if params.get("version") is not None:
                self.published.setdefault(params["version"], (arrived, len(params["diagnostics"])))
        elif method == "$/progress" and message["params"]["value"].get("kind") == "end":
            self.indexed.set()

    async def wait_for(self, version: int, limit: float = 30) -> float:
        deadline = time.perf_counter() + limit
        while version not in self.published:
            if time.perf_counter() > deadline:
                raise SystemExit(f"no publishDiagnostics for version {version}")
            await asyncio.sleep(0.0002)
        return self.published[version][0]


def imported_from(checkout: str) -> str:
    """Where a server started as `keystrokes` starts it imports mfls from."""
    import subprocess

    with tempfile.TemporaryDirectory() as name:
        found = subprocess.run(
            [sys.executable, "-c", "import mfls; print(mfls.__file__)"],
            env=dict(os.environ, PYTHONPATH=checkout),
            cwd=name,
            capture_output=True,
            text=True,
            check=True,
        )
    return str(Path(found.stdout.strip()).parents[1])


def cpu_seconds(pid: int) -> float:
    """CPU time a process has used (Linux; NaN elsewhere): independent of the load."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def capabilities() -> dict[str, Any]:
    """VS Code's client capabilities, without pull diagnostics (so the server pushes)."""
    from pygls.protocol import default_converter
    from pytest_lsp import client_capabilities

    found: dict[str, Any] = default_converter().unstructure(
        client_capabilities("visual-studio-code")
    )
    found.get("textDocument", {}).pop("diagnostic", None)
    return found


async def keystrokes(
    checkout: str, size: int, edits: int, profile_to: str | None = None
) -> tuple[list[float], int, float]:
    """Latencies (ms) of `edits` keystrokes, how many diagnostics the lesson has, and the
    server's CPU seconds over the keystrokes; `profile_to` runs the server under
    cProfile, writing its statistics there."""
    from mfls.workspace.uris import path_to_uri

    env = dict(os.environ, PYTHONPATH=checkout)
    with tempfile.TemporaryDirectory() as name:
        path, text, line = course(Path(name), size)
        profiling = ["-m", "cProfile", "-o", profile_to] if profile_to else []
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            *profiling,
            "-m",
            "mfls",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=env,
            cwd=name,  # `-m` puts the working directory first on sys.path
            limit=2**26,
        )
        client = Client(process)
        await client.request(
            "initialize",
            {
                "processId": os.getpid(),
                "capabilities": capabilities(),
                "workspaceFolders": [{"uri": path_to_uri(name), "name": "course"}],
                "initializationOptions": {"mfls": {"diagnosticDelay": 0}},
            },
        )
        client.notify("initialized", {})
        await client.indexed.wait()
        uri = path_to_uri(str(path))
        client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}},
        )
        await client.wait_for(1)
        latencies = []
        column = len(EDITED)
        cpu = cpu_seconds(process.pid)
        for n in range(edits):
            version = n + 2
            at = {"line": line, "character": column}
            end = {"line": line, "character": column + (n % 2)}
            change = {"range": {"start": at, "end": end}, "text": "" if n % 2 else "x"}
            sent = time.perf_counter()
            client.notify(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [change],
                },
            )
            latencies.append((await client.wait_for(version) - sent) * 1000)
        cpu = cpu_seconds(process.pid) - cpu
        await client.request("shutdown", None)
        client.notify("exit", None)
        await process.wait()
        client.reader.cancel()
    return latencies, client.published[1][1], cpu


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
        server.state.set_buffer(uri, OpenBuffer(uri, 1, LineIndex(text)))
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
                    server.state,
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
    parser.add_argument("--rounds", type=int, default=4, help="turns taken with the peer")
    parser.add_argument("--profile", action="store_true", help="in process, under cProfile")
    parser.add_argument("--profile-server", metavar="FILE", help="the server under cProfile")
    args = parser.parse_args()
    if args.profile:
        for size in args.sizes:
            profile(size, args.edits)
        return
    header = ["lesson", "diagnostics", "p50 ms", "p95 ms", "target p95", "CPU ms"]
    if args.peer:
        header += ["peer p50 ms", "peer p95 ms", "peer CPU ms", "p50 ratio", "p95 ratio"]
    for checkout in (ROOT, args.peer) if args.peer else (ROOT,):
        where = imported_from(checkout)
        if Path(where).resolve() != Path(checkout).resolve():
            raise SystemExit(f"a server for {checkout} would run the mfls of {where}")
    print(row(header))
    print(row(["---"] * len(header)))
    for size in args.sizes:
        ours: list[float] = []
        theirs: list[float] = []
        count = 0
        cpu = [0.0, 0.0]
        for _ in range(args.rounds):  # the two take turns, so a change of load hits both
            each = args.edits // args.rounds
            found, count, used = await keystrokes(ROOT, size, each, args.profile_server)
            ours += found
            cpu[0] += used
            if args.peer:
                found, _, used = await keystrokes(args.peer, size, each)
                theirs += found
                cpu[1] += used
        cells = [
            f"{size / 1000:,.0f} kB",
            f"{count:,}",
            f"{statistics.median(ours):.1f}",
            f"{percentile(ours, 0.95):.1f}",
            "50" if size >= 500_000 else "20",
            f"{cpu[0] * 1000 / len(ours):.1f}",
        ]
        if args.peer:
            p50 = statistics.median(theirs)
            p95 = percentile(theirs, 0.95)
            cells += [
                f"{p50:.1f}",
                f"{p95:.1f}",
                f"{cpu[1] * 1000 / len(theirs):.1f}",
                f"{p50 / statistics.median(ours):.1f}x",
                f"{p95 / percentile(ours, 0.95):.1f}x",
            ]
        print(row(cells))
        sys.stdout.flush()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"\n(python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {args.edits} edits per "
        f"size and checkout, load average {load:.1f} at the end)"
    )


if __name__ == "__main__":
    asyncio.run(main())
