"""The playground's host and target picker writes `mfcourse.toml` as TOML reads it: each pick
gives the key its value (or removes it) and leaves every other setting as it was, in course
files with opening comments, tables, CRLF line ends and values over several lines (a key
added after a multi-line `lessons = [...]` landed inside the array before)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import tomllib

RUNNER = Path(__file__).with_name("web_course_settings.mjs")
COURSE_FILES = [
    'name = "c"\nlessons = [\n  "lessons/a.md",\n  "lessons/b.md",\n]\n',
    '# course\n\nname = "c"\nhost = "ai-shifu"  # the host\n[diagnostics]\nnear-miss = "error"\n',
    'lessons = [\n  ["x"],\n]\n[diagnostics]\nhost = "x"\n',
    'name = "c"\r\nlessons = ["a.md"]\r\n',
    '[diagnostics]\nnear-miss = "error"\n',
    "# only a comment",
    "",
]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node")
def test_each_pick_writes_its_key_and_nothing_else() -> None:
    cases = [
        [text, key, value]
        for text in COURSE_FILES
        for key in ("host", "target")
        for value in ("generic", "markdown-flow-0.3", None)
    ]
    run = subprocess.run(
        ["node", str(RUNNER), json.dumps(cases)], capture_output=True, text=True, check=True
    )
    for (text, key, value), out in zip(cases, json.loads(run.stdout), strict=True):
        written = tomllib.loads(out["result"])
        assert written.get(key) == value and out["read"] == value, (text, key, value, out)
        before = {k: v for k, v in tomllib.loads(text).items() if k != key}
        assert {k: v for k, v in written.items() if k != key} == before, (text, key, out)
