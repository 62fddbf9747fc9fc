"""`mfls serve [--stdio | --tcp HOST:PORT | --ws HOST:PORT --root DIR]`: the language server.

The only command that loads the LSP front end (pygls, lsprotocol), and only once it runs.
"""

from __future__ import annotations

import argparse
import gc
import logging
import sys

from mfls import disk
from mfls.cli.output import configure_stderr


def parse_host_port(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit() or not host:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {value!r}")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    number = int(port)
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"port out of range: {number}")
    return host, number


def positive(value: str) -> int:
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number above 0, got {value!r}")
    return int(value)


def configure(parser: argparse.ArgumentParser) -> None:
    transport = parser.add_mutually_exclusive_group()
    transport.add_argument(
        "--tcp",
        type=parse_host_port,
        metavar="HOST:PORT",
        help="serve over TCP instead of standard input and output",
    )
    transport.add_argument(
        "--ws",
        type=parse_host_port,
        metavar="HOST:PORT",
        help="serve over WebSocket, for editors in a web page (needs --root; port 0 picks "
        "one); prints the URL with the token every connection must give",
    )
    transport.add_argument(
        "--stdio",
        action="store_true",
        help="serve over standard input and output (the default; accepted for LSP clients)",
    )
    parser.add_argument(
        "--root",
        metavar="DIR",
        help="with --ws: the course root, the only folder served (whatever the client asks)",
    )
    parser.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="with --ws: a web page origin allowed to connect, e.g. https://shifu.example "
        "(repeatable; http://localhost:* matches any port); pages on localhost are allowed",
    )
    parser.add_argument(
        "--max-message-bytes",
        type=int,
        default=None,
        metavar="N",
        help="refuse (unread) any message longer than N bytes (default 64 MiB)",
    )
    parser.add_argument(
        "--max-unsent-bytes",
        type=positive,
        default=None,
        metavar="N",
        help="with --ws: the byte budget of what a client leaves unread (answers, "
        "notifications, pongs); past it its connection is closed (1008). Default 8 MiB; "
        "one message larger than it still goes to a client that reads",
    )
    parser.add_argument(
        "--max-connections",
        type=positive,
        default=None,
        metavar="N",
        help="with --ws: connections served at once, more are refused (HTTP 503; default "
        "16). Whatever the clients do, the server's memory (RSS) stays within what serving "
        "N connections takes plus N x (the byte budget + the largest answer) + 12 MiB",
    )


def _import_front_end() -> None:
    """Import the LSP front end with the garbage collector paused, then freeze what it
    made: the import makes some 100,000 objects that live to the end (classes, functions,
    lsprotocol's attrs classes), and the collector's passes over them were an eighth of
    the import (about 50 ms of the first problem's wait in an editor)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        import mfls.lsp.routes
        import mfls.lsp.wire  # noqa: F401
    finally:
        gc.freeze()
        if collecting:
            gc.enable()


def run(args: argparse.Namespace) -> int:
    _import_front_end()
    from mfls.lsp import wire
    from mfls.lsp.routes import create_server

    configure_stderr(logging.WARNING)
    if getattr(args, "ws", None) is not None:
        return run_websocket(args)
    socket_only = ("root", "allow_origin", "max_unsent_bytes", "max_connections")
    if any(getattr(args, name, None) for name in socket_only):
        print(
            "mfls serve: --root, --allow-origin, --max-unsent-bytes and --max-connections "
            "go with --ws",
            file=sys.stderr,
        )
        return 2
    server = create_server()
    limit: int = getattr(args, "max_message_bytes", None) or wire.MAX_MESSAGE_BYTES
    tcp: tuple[str, int] | None = getattr(args, "tcp", None)
    if tcp is not None:
        wire.serve_tcp(server, *tcp, max_message_bytes=limit)
        return 0
    protocol_out = sys.stdout.buffer
    # The protocol owns stdout: anything printed by mistake goes to stderr instead.
    sys.stdout = sys.stderr
    wire.serve_stdio(server, sys.stdin.buffer, protocol_out, limit)
    return 0


LOOPBACK = ("127.0.0.1", "localhost", "::1")


def run_websocket(args: argparse.Namespace) -> int:
    from mfls.lsp import handshake, websocket, wire

    host, port = args.ws
    root: str | None = args.root
    if not root:
        print("mfls serve --ws: --root DIR is required (the course served)", file=sys.stderr)
        return 2
    if not disk.is_directory(root):
        print(f"mfls serve --ws: --root {root}: not a folder", file=sys.stderr)
        return 2
    try:
        websocket.require_websockets()
    except websocket.MissingWebsockets as missing:
        print(f"mfls serve --ws: {missing}", file=sys.stderr)
        return 2
    if host not in LOOPBACK:
        print(
            f"mfls serve --ws: warning: listening on {host}, not only on this machine; "
            "anyone who can reach it and has the token can read the course",
            file=sys.stderr,
        )
    token = handshake.new_token()
    origins = [*handshake.DEFAULT_ORIGINS, *args.allow_origin]

    def announce(url: str) -> None:
        print(f"mfls: serving {disk.real_path(root)} at {url}", flush=True)

    limit: int = args.max_message_bytes or wire.MAX_MESSAGE_BYTES
    return websocket.serve_websocket(
        root,
        host,
        port,
        token,
        origins,
        limit,
        announce,
        max_unsent_bytes=args.max_unsent_bytes or websocket.MAX_UNSENT_BYTES,
        max_connections=args.max_connections or websocket.MAX_CONNECTIONS,
    )
