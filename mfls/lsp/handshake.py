"""Who may open a WebSocket to `mfls serve --ws`: the `Origin` allow-list and the token.

Any page the author visits can open a socket to localhost, so both are checked at the
opening handshake, before a server exists for the connection:
- `Origin`, when the client sends one (a browser always does; command-line clients do
  not), must match an allowed origin. `http://localhost:*` allows any port (or none).
  The default allows pages served from this machine (`DEFAULT_ORIGINS`); a hosted
  editor's origin is added with `--allow-origin`. `null` (a file or a sandboxed page)
  is refused unless allowed by name.
- the token, printed at start, must be the `token` query parameter of the URL; a
  browser's WebSocket can always carry one, where it cannot set a header.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Sequence
from http import HTTPStatus
from urllib.parse import parse_qs, urlsplit

DEFAULT_ORIGINS = ("http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*")


def new_token() -> str:
    return secrets.token_urlsafe(32)


def origin_allowed(origin: str, allowed: Sequence[str]) -> bool:
    """Whether the `Origin` header `origin` matches one of `allowed` (case-insensitive;
    a pattern ending in `:*` matches its scheme and host with any port or none)."""
    origin = origin.strip().lower()
    for pattern in allowed:
        pattern = pattern.strip().lower().rstrip("/")
        if pattern.endswith(":*"):
            base = pattern[:-2]
            if origin == base:
                return True
            port = origin[len(base) + 1 :] if origin.startswith(base + ":") else ""
            if port.isdigit():
                return True
        elif origin == pattern:
            return True
    return False


def refusal(
    path: str, origin: str | None, token: str, allowed: Sequence[str]
) -> tuple[HTTPStatus, str] | None:
    """Why the handshake for `path` (the request target) from `origin` is refused: the
    HTTP status and its text; None when it may go on."""
    if origin is not None and not origin_allowed(origin, allowed):
        return HTTPStatus.FORBIDDEN, f"Origin {origin!r} is not allowed (see --allow-origin)\n"
    given = parse_qs(urlsplit(path).query).get("token", [])
    if not given:
        return HTTPStatus.UNAUTHORIZED, "a token is required: ?token=... as printed at start\n"
    if len(given) > 1 or not hmac.compare_digest(given[0].encode(), token.encode()):
        return HTTPStatus.FORBIDDEN, "wrong token\n"
    return None
