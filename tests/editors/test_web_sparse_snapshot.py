"""The playground's snapshot of Python kept without its zero pages
(`editors/web/src/sparse_snapshot.js`), in Node: what is read back is the memory as it was,
zeros written over what the fresh module's memory held there and nothing past it touched,
in the bytes of the pages kept; bytes cut short, too long or not in its form are refused."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from editor_harness import require_executable

DRIVER = Path(__file__).with_name("web_sparse_snapshot.mjs")
PAGE = 4096


def test_a_sparse_snapshot_reads_back_as_the_memory_it_was() -> None:
    node = require_executable("node")
    found = subprocess.run(
        [node, str(DRIVER)], capture_output=True, text=True, timeout=60, check=True
    )
    results = json.loads(found.stdout)
    assert results["header"] is True
    assert results["length"] == 10 * PAGE
    assert results["memory"] is True
    assert results["beyond"] is True
    # Four of ten pages kept: 16 bytes of its own, Pyodide's 48, a bitmap padded to 16.
    assert results["sizes"] == {"original": 48 + 10 * PAGE, "sparse": 16 + 48 + 16 + 4 * PAGE}
    assert results["emptySize"] == 16 + 48 + 16
    assert results["empty"] is True
    assert results["refusals"] == {
        "cut": "a sparse snapshot cut short",
        "longer": "a sparse snapshot cut short",
        "pyodide": "not a sparse snapshot",
        "empty": "not a sparse snapshot",
    }
