"""A course root a remote client cannot leave: what `mfls.lsp.websocket` checks in every
message before the server sees it.

The root is the one given on the command line, resolved once. Then:
- `initialize` has its `rootUri`, `rootPath` and `workspaceFolders` replaced by the root;
- `workspace/didChangeWorkspaceFolders` is dropped;
- a message naming a `file:` URI (anywhere in its params, or in the result of a
  response) that resolves outside the root, links followed, is refused: a request gets
  an error answer, a notification or a response is dropped.
A body that is no JSON object passes unchanged: the protocol answers it (-32700, -32600).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from mfls import disk
from mfls.workspace.uris import path_to_uri, uri_to_path

OUTSIDE_ROOT = -32602
"""The code of the answer to a request naming a file outside the root (Invalid Params)."""


@dataclass(frozen=True)
class Screened:
    """What becomes of one message: `body` goes to the server (None: nothing does),
    `answer` goes back to the client, `reason` is logged."""

    body: bytes | None
    answer: dict[str, Any] | None = None
    reason: str | None = None


class CourseRoot:
    def __init__(self, root: str) -> None:
        self.path = disk.real_path(root)
        self.uri = path_to_uri(self.path)

    def holds(self, uri: str) -> bool:
        """Whether the `file:` URI `uri` names the root or a file under it."""
        try:
            path = uri_to_path(uri)
        except ValueError:
            return False
        if path is None or not os.path.isabs(path):
            return False
        return disk.inside(disk.real_path(path), self.path)

    def screen(self, body: bytes) -> Screened:
        try:
            message = json.loads(body)
        except (ValueError, RecursionError):
            return Screened(body)
        if not isinstance(message, dict):
            return Screened(body)
        method = message.get("method")
        if method == "initialize" and isinstance(message.get("params"), dict):
            message["params"].update(self._workspace())
            return Screened(json.dumps(message).encode("utf-8"))
        if method == "workspace/didChangeWorkspaceFolders":
            return Screened(None, reason=f"dropped {method}: the course root is fixed")
        named = message.get("params") if "method" in message else message.get("result")
        foreign = next((uri for uri in _file_uris(named) if not self.holds(uri)), None)
        if foreign is None:
            return Screened(body)
        what = method if isinstance(method, str) else "a response"
        reason = f"refused {what}: {foreign!r} is outside the course root {self.path}"
        if isinstance(method, str) and "id" in message:
            error = {"code": OUTSIDE_ROOT, "message": reason}
            return Screened(None, {"jsonrpc": "2.0", "id": message["id"], "error": error}, reason)
        return Screened(None, reason=reason)

    def _workspace(self) -> dict[str, Any]:
        name = os.path.basename(self.path) or self.path
        return {
            "rootUri": self.uri,
            "rootPath": self.path,
            "workspaceFolders": [{"uri": self.uri, "name": name}],
        }


def _file_uris(value: Any) -> Iterator[str]:
    """Every string inside `value` (JSON) that reads as a `file:` URI, but a document's
    contents (the value of a `text` member)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _is_file_uri(item):
                yield item
        elif isinstance(item, dict):
            for key, member in item.items():
                stack.append(key)
                if key != "text":
                    stack.append(member)
        elif isinstance(item, list):
            stack.extend(item)


def _is_file_uri(text: str) -> bool:
    # As `uri_to_path` reads it: urlsplit drops leading blanks and tabs or line breaks.
    try:
        return urlsplit(text).scheme == "file"
    except ValueError:
        return "file" in text.lower()  # unreadable, and may say `file:`: held outside
