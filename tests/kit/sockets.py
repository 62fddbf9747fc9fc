"""Reading from a bare socket in the tests of the server's TCP and WebSocket modes."""

from __future__ import annotations

import socket


def receive_until(sock: socket.socket, marker: bytes) -> bytes:
    """What `sock` sends until `marker` has come (or the peer closes)."""
    received = b""
    while marker not in received:
        chunk = sock.recv(65536)
        if not chunk:
            break
        received += chunk
    return received
