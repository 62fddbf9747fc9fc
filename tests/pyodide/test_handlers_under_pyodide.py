"""The in-process handler tests again, under Pyodide in Node: on the Python the playground
runs mfls on (3.14, WebAssembly, no threads, no processes) and in the mode its worker uses
(`SyncServer` on `SteppedLoop`, which the tests choose when `sys.platform` is
"emscripten"), with this checkout's tests and pure-Python mfls (`run_pytest.mjs`).

Pyodide is editors/web's npm package (`npm ci` there: scripts/setup-editors.sh), the
wheels are in .pyodide-wheels (scripts/setup-test-env.sh); without them the test skips,
and fails in CI. Every test of these suites runs there: none is deselected."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
RUNNER = Path(__file__).with_name("run_pytest.mjs")
PYODIDE = REPO / "editors" / "web" / "node_modules" / "pyodide" / "pyodide.mjs"
WHEELS = REPO / ".pyodide-wheels"
SUITES = (
    "tests/handlers",
    "tests/lsp/test_lsp_sync.py",
    "tests/lsp/test_lsp_stepped_loop.py",
    "tests/lsp/test_lsp_read_routes.py",
)
# pytest's last line in quiet mode: "140 passed, 3 warnings in 49.46s".
SUMMARY = re.compile(r"^(?P<counts>\d+ \w+(?:, \d+ \w+)*) in (?P<seconds>[\d.]+)s", re.M)
ALLOWED = {"passed", "warning", "warnings"}


def missing(reason: str) -> None:
    """Skip locally, but fail in CI, where the setup scripts must have installed it."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason} (CI=true: the setup scripts should have installed it)")
    pytest.skip(reason)


def test_the_handler_tests_pass_under_pyodide(capsys: pytest.CaptureFixture[str]) -> None:
    node = shutil.which("node")
    if node is None:
        missing("node is not installed")
    if not PYODIDE.is_file():
        missing("no Pyodide in editors/web/node_modules: run `npm ci` there")
    if not any(WHEELS.glob("*.whl")):
        missing("no wheels in .pyodide-wheels: run scripts/setup-test-env.sh")
    started = time.monotonic()
    run = subprocess.run(
        [str(node), str(RUNNER), str(WHEELS), *SUITES, "-q", "-rfEs"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=280,
    )
    elapsed = time.monotonic() - started
    output = run.stdout + run.stderr
    found = SUMMARY.findall(run.stdout)
    assert run.returncode == 0 and found, output[-12000:]
    counts_text, seconds = found[-1]
    counts = {name: int(number) for number, name in re.findall(r"(\d+) (\w+)", counts_text)}
    with capsys.disabled():
        print(f"\nunder Pyodide: {counts_text} in {seconds} s of pytest, {elapsed:.1f} s in all")
    assert counts.get("passed", 0) > 0 and set(counts) <= ALLOWED, output[-12000:]
