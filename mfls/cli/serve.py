"""`mfls serve [--stdio | --tcp HOST:PORT]`: the language server.

The only command that loads the LSP front end (pygls, lsprotocol), and only once it runs.
"""

from __future__ import annotations

import argparse
import logging
import sys

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


def configure(parser: argparse.ArgumentParser) -> None:
    transport = parser.add_mutually_exclusive_group()
    transport.add_argument(
        "--tcp",
        type=parse_host_port,
        metavar="HOST:PORT",
        help="serve over TCP instead of standard input and output",
    )
    transport.add_argument(
        "--stdio",
        action="store_true",
        help="serve over standard input and output (the default; accepted for LSP clients)",
    )
    parser.add_argument(
        "--max-message-bytes",
        type=int,
        default=None,
        metavar="N",
        help="refuse (unread) any message longer than N bytes (default 64 MiB)",
    )


def run(args: argparse.Namespace) -> int:
    from mfls.lsp import wire
    from mfls.lsp.routes import create_server

    configure_stderr(logging.WARNING)
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
