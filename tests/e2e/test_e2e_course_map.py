"""The course map commands over LSP: `mfls.courseKeys` (the course key table) and
`mfls.courseMap` (the map page for a web view), with a live edit in between."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from e2e_session import capabilities, session, uri_of, write_files
from lsprotocol import types as t
from pygls.exceptions import JsonRpcException

FILES = {
    "mfcourse.toml": (
        'name = "Map demo"\nhost = "ai-shifu"\ntarget = "current"\nlessons = ["01.md", "02.md"]\n'
    ),
    "01.md": "# One\n\nUse {{ level }} early.\n\n?[{{ goal }} Learn | Build]\n",
    "02.md": "# Two\n\n?[{{ level }} Easy | Hard]\n\n{{ goal }} and {{ goel }}\n",
}


async def test_course_keys_and_map_commands(tmp_path: Path) -> None:
    write_files(tmp_path, FILES)
    async with session(capabilities("visual-studio-code"), [tmp_path]) as started:
        assert started.result is not None
        provider = started.result.capabilities.execute_command_provider
        assert provider is not None
        assert {"mfls.courseKeys", "mfls.courseMap"} <= set(provider.commands)
        await started.indexed()
        client = started.client
        uri = uri_of(tmp_path / "02.md")
        answer = await client.workspace_execute_command_async(
            t.ExecuteCommandParams(command="mfls.courseKeys", arguments=[uri])
        )
        assert answer["course"] == "Map demo"
        rows = {row["key"]: row for row in answer["rows"]}
        assert [row["key"] for row in answer["rows"]] == ["level", "goal", "goel"]
        assert rows["level"]["asked"] == [
            {
                "lesson": "02.md",
                "uri": uri,
                "line": 3,
                "column": 3,
                "choices": ["Easy", "Hard"],
                "input": None,
            }
        ]
        assert rows["level"]["problems"] == [{"code": "read-before-asked", "count": 1}]
        assert (rows["goal"]["reads"], rows["goal"]["readLessons"]) == (1, 1)
        assert rows["goel"]["problems"] == [{"code": "near-miss", "count": 1, "suggestion": "goal"}]
        assert (
            "| level | 02.md (line 3) | 1 in 1 lesson | read-before-asked |" in answer["markdown"]
        )

        # The table follows an open buffer as it is typed.
        opened = started.open(tmp_path / "02.md", FILES["02.md"])
        started.change(
            opened,
            [
                t.TextDocumentContentChangePartial(
                    range=t.Range(start=t.Position(4, 18), end=t.Position(4, 22)), text="goal"
                )
            ],
        )
        after = await client.workspace_execute_command_async(
            t.ExecuteCommandParams(command="mfls.courseKeys", arguments=[{"uri": uri}])
        )
        assert [row["key"] for row in after["rows"]] == ["level", "goal"]
        assert after["rows"][1]["reads"] == 2

        page = await client.workspace_execute_command_async(
            t.ExecuteCommandParams(
                command="mfls.courseMap", arguments=[uri_of(tmp_path / "mfcourse.toml")]
            )
        )
        assert page["title"] == "Course map: Map demo"
        found = re.search(r'id="map-data">(.*?)</script>', page["html"], re.S)
        assert found is not None
        assert [key[0] for key in json.loads(found.group(1))["keys"]] == ["level", "goal"]

        with pytest.raises(JsonRpcException, match="not part of any indexed course"):
            await client.workspace_execute_command_async(
                t.ExecuteCommandParams(
                    command="mfls.courseKeys", arguments=[uri_of(tmp_path.parent / "x.md")]
                )
            )
        with pytest.raises(JsonRpcException, match="give its URI"):
            await client.workspace_execute_command_async(
                t.ExecuteCommandParams(command="mfls.courseKeys", arguments=[])
            )
