"""The course map looked at in headless chromium, as a person would: every lesson and
question on the page, the read-before-asked cell marked, the legend, a click showing the
lines with their links, hostile author text shown as text, and no request leaving the page.

`python tests/map/test_map_browser.py` rewrites docs/course-map.png (the
picture of docs/guide/course-map.md) from `mfls map examples/course`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "course"
DRIVER = Path(__file__).with_name("map_browser.cjs")
NODE_MODULES = REPO / "editors" / "code-server" / "node_modules"
SCREENSHOT = REPO / "docs" / "course-map.png"


def _missing(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason} (CI=true: scripts/setup-editors.sh should have installed it)")
    pytest.skip(f"{reason}; run scripts/setup-editors.sh")


def _tools() -> tuple[str, str]:
    node = shutil.which("node")
    chromium = os.environ.get("MFLS_CHROMIUM") or shutil.which("chromium")
    if node is None or chromium is None:
        _missing("node or chromium is not installed")
    if not (NODE_MODULES / "playwright-core").exists():
        _missing("playwright-core is missing (npm ci in editors/code-server)")
    assert node is not None and chromium is not None
    return node, chromium


def mfls(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mfls", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        timeout=300,
    )


def look(page: Path, shot: Path | None = None, **env: str) -> dict[str, Any]:
    """What the driver saw on `page` (see map_browser.cjs)."""
    node, chromium = _tools()
    environment = dict(os.environ)
    environment.update(
        {"MFLS_NODE_MODULES": str(NODE_MODULES), "MFLS_CHROMIUM": chromium, "MAP_HTML": str(page)}
    )
    if shot is not None:
        environment["MAP_SHOT"] = str(shot)
    environment.update(env)
    done = subprocess.run(
        [node, str(DRIVER)],
        capture_output=True,
        text=True,
        env=environment,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def example_map(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    made = mfls("map", str(EXAMPLE), "-o", str(tmp_path / "map.html"), cwd=REPO)
    assert made.returncode == 0, made.stderr
    data = mfls("map", str(EXAMPLE), "--format", "json", cwd=REPO)
    assert data.returncode == 0, data.stderr
    return tmp_path / "map.html", json.loads(data.stdout)


def test_the_example_course_map_in_chromium(tmp_path: Path) -> None:
    page, data = example_map(tmp_path)
    late = "Which project will you build?"
    read_early = next(k for k in data["keys"] if k["key"] == late)["places"][0]
    assert read_early["kind"] == "read-before-asked"
    click = {"key": late, "lesson": read_early["lesson"]}
    shot = tmp_path / "map.png"
    seen = look(page, shot, MAP_CLICK=json.dumps(click))

    assert seen["consoleErrors"] == []
    assert seen["requests"] == [page.as_uri()]
    assert seen["intercepted"] == []
    assert seen["heading"] == "Learning to program"
    assert [lesson["text"] for lesson in seen["lessons"]] == [x["title"] for x in data["lessons"]]
    assert [lane["key"] for lane in seen["lanes"]] == [k["key"] for k in data["keys"]]
    assert all(lane["label"] == lane["key"] for lane in seen["lanes"])
    for lane, key in zip(seen["lanes"], data["keys"], strict=True):
        assert {c["lesson"] for c in lane["cells"]} == {p["lesson"] for p in key["places"]}
        assert all(cell["visible"] for cell in lane["cells"])
    cells = {(lane["key"], c["lesson"]): c["kind"] for lane in seen["lanes"] for c in lane["cells"]}
    assert cells[(late, read_early["lesson"])] == "read-before-asked"
    assert list(cells.values()).count("read-before-asked") == 1
    assert cells[("What would you like to lern?", 2)] == "near-miss"
    assert cells[("sys_favourite_color", 2)] == "reserved"
    assert cells[("course_title", 0)] == "provided"
    assert cells[("Glossary preference", 4)] == "reference-binding"
    assert "host-provided and reserved keys" in seen["groups"]

    legend = {item["kind"]: item for item in seen["legend"]}
    assert list(legend) == [item["kind"] for item in data["legend"]]
    assert all(legend[x["kind"]]["text"] == x["meaning"] for x in data["legend"])
    assert len({item["shape"] for item in seen["legend"]}) == len(legend), "kinds drawn alike"

    details = seen["details"]
    assert details["heading"] == late
    assert details["kinds"] == ["read-before-asked"]
    assert details["lines"] == [
        "7 | 2. This one reads a key only a later lesson asks: {{ Which project will you build? }}."
    ]
    practice = EXAMPLE / "lessons" / "03-practice.md"
    assert details["links"] == [f"vscode://file{practice}:7:51"]
    assert details["paths"] == [f"{os.path.relpath(practice, REPO)}:7:51"]
    assert "read 2 times in 2 lessons" in details["text"]
    assert shot.stat().st_size > 10_000


HOSTILE = "</script><img src=x onerror=alert(1)>"


def test_hostile_author_text_stays_text(tmp_path: Path) -> None:
    course = tmp_path / "course"
    (course / "lessons").mkdir(parents=True)
    (course / "mfcourse.toml").write_text(
        'name = "<img src=x onerror=alert(2)>"\nlessons = ["lessons/*.md"]\n', encoding="utf-8"
    )
    # A lesson is named by its file: the hostile name is the file's.
    (course / "lessons" / "<img src=x onerror=alert(3)>.md").write_text(
        f"# <script>alert(3)</script>\n\n?[{{{{ {HOSTILE} }}}} A | B]\n\n{{{{ {HOSTILE} }}}}\n"
        "<img src=https://example.com/x.png>\n",
        encoding="utf-8",
    )
    made = mfls("map", str(course), "-o", str(tmp_path / "map.html"), cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    seen = look(tmp_path / "map.html", MAP_CLICK=json.dumps({"key": HOSTILE, "lesson": 0}))
    assert seen["consoleErrors"] == []
    assert seen["injected"] == 0
    assert seen["heading"] == "<img src=x onerror=alert(2)>"
    assert seen["lessons"][0]["text"] == "<img src=x onerror=alert(3)>.md"
    assert [lane["label"] for lane in seen["lanes"]] == [HOSTILE]
    assert seen["details"]["heading"] == HOSTILE
    assert seen["intercepted"] == []


def test_search_filters_the_lanes(tmp_path: Path) -> None:
    page, data = example_map(tmp_path)
    seen = look(page, MAP_SEARCH="WOULD you")
    wanted = [k["key"] for k in data["keys"] if "would you" in k["key"].lower()]
    assert len(wanted) >= 3
    assert seen["searched"] == wanted


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        made, _ = example_map(Path(scratch))
        late = {"key": "Which project will you build?", "lesson": 2}
        look(made, SCREENSHOT, MAP_CLICK=json.dumps(late))
    print(f"wrote {SCREENSHOT}")
