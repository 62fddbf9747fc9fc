"""The learner page's real parser, for tests: each remark-flow version npm serves here,
run in Node by `remark_flow/page.mjs` (markdown-flow-ui's ContentRender pipeline), many
lines per process.

`page_readings(version, lines)` gives, per line, the `custom-variable` elements the page
makes (remark-flow's `hProperties`) and the text it shows around them. The packages are
`tests/hosts/remark_flow/node_modules` (`npm ci` there: scripts/setup-test-env.sh);
without them a test calling `require_page()` skips, and fails in CI.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent / "remark_flow"
SCRIPT = HERE / "page.mjs"
PACKAGES = {
    "remark-flow-0.1.6": HERE / "node_modules" / "remark-flow-016",
    "remark-flow-1.0.0-alpha.7": HERE / "node_modules" / "remark-flow-100a7",
}


def missing_page() -> str | None:
    """Why the page cannot run here, or None."""
    if shutil.which("node") is None:
        return "node is not installed"
    for version, folder in PACKAGES.items():
        if not (folder / "package.json").is_file():
            return f"{version} is not installed in {HERE} (npm ci there)"
    return None


def require_page() -> None:
    """Skip locally, but fail in CI, where scripts/setup-test-env.sh must have installed
    the packages."""
    reason = missing_page()
    if reason is None:
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason} (CI=true: scripts/setup-test-env.sh should have installed it)")
    pytest.skip(reason)


def installed_version(version: str) -> str:
    """The version npm installed under the alias of `version`."""
    manifest = json.loads((PACKAGES[version] / "package.json").read_text(encoding="utf-8"))
    return str(manifest["version"])


def page_readings(version: str, lines: Sequence[str]) -> list[dict[str, Any]]:
    """The real page's reading of each line: `{"elements": [...], "text": ...,
    "blocks": [...]}` (see page.mjs)."""
    done = subprocess.run(
        ["node", str(SCRIPT), version],
        input=json.dumps(list(lines)),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    readings: list[dict[str, Any]] = json.loads(done.stdout)
    assert len(readings) == len(lines)
    return readings
