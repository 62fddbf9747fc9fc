"""A failure made to order: the Nth call of a function raises, the others run it."""

from __future__ import annotations

from typing import Any

import pytest


def fail_on_call(
    monkeypatch: pytest.MonkeyPatch, owner: object, name: str, number: int, error: BaseException
) -> list[tuple[Any, ...]]:
    """Patch `owner.name` so that its `number`th call raises `error` and every other call
    runs the real function; the arguments of each call, in order."""
    real = getattr(owner, name)
    calls: list[tuple[Any, ...]] = []

    def patched(*args: Any) -> Any:
        calls.append(args)
        if len(calls) == number:
            raise error
        return real(*args)

    monkeypatch.setattr(owner, name, patched)
    return calls
