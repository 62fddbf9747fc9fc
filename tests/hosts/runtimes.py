"""The released markdown-flow versions as test oracles: 0.4.2 in-process (the test
extras), 0.3.1 and 0.3.4 each through `sdk_worker.py` in its own environment
(`.venv-mf03`, `.venv-mf034`, made by scripts/setup-test-env.sh), all answering the same
`extract` and `parse`. Each is named by the course target modelled on it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Protocol

import pytest
import sdk_worker

REPO = Path(__file__).resolve().parents[2]
VENVS = {"0.3.1": REPO / ".venv-mf03", "0.3.4": REPO / ".venv-mf034"}
WORKER = Path(__file__).with_name("sdk_worker.py")


class Runtime(Protocol):
    name: str  # the course target modelled on it
    release: str

    def extract(self, text: str) -> list[str]: ...

    def parse(self, text: str) -> dict[str, Any]: ...

    def sees(self, text: str, variables: dict[str, str]) -> str: ...

    def blocks(self, text: str) -> list[tuple[str, bool]]: ...


class InProcess:
    name = "markdown-flow-0.4"
    release = "0.4.2"

    def extract(self, text: str) -> list[str]:
        return sdk_worker.extract(text)

    def parse(self, text: str) -> dict[str, Any]:
        return sdk_worker.parse(text)

    def sees(self, text: str, variables: dict[str, str]) -> str:
        return sdk_worker.sees(text, variables)

    def blocks(self, text: str) -> list[tuple[str, bool]]:
        return sdk_worker.blocks(text)


class Worker:
    """One long-lived `sdk_worker.py` process in another environment."""

    def __init__(self, name: str, release: str, python: Path) -> None:
        self.name = name
        self.release = release
        self._process = subprocess.Popen(
            [str(python), str(WORKER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    def ask(self, op: str, text: str = "", **more: Any) -> Any:
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write(json.dumps({"op": op, "text": text, **more}) + "\n")
        self._process.stdin.flush()
        answer = json.loads(self._process.stdout.readline())
        if "error" in answer:
            raise RuntimeError(answer["error"])
        return answer["ok"]

    def extract(self, text: str) -> list[str]:
        return list(self.ask("extract", text))

    def parse(self, text: str) -> dict[str, Any]:
        return dict(self.ask("parse", text))

    def sees(self, text: str, variables: dict[str, str]) -> str:
        return str(self.ask("sees", text, variables=variables))

    def blocks(self, text: str) -> list[tuple[str, bool]]:
        return [(str(t), bool(f)) for t, f in self.ask("blocks", text)]

    def close(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait(timeout=10)


def python_of(release: str) -> Path:
    """The Python of the environment that holds markdown-flow `release`."""
    venv = VENVS[release]
    python = venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    if not python.exists():
        pytest.fail(
            f"markdown-flow {release} is missing: run scripts/setup-test-env.sh "
            f"(it makes {venv.name})",
            pytrace=False,
        )
    return python
