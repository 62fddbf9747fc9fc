"""Watcher registration through a real server process: the course's globs are watched
once it is known. The other course tests (multi-root isolation, disk changes, course
files, folders) run in process in tests/handlers/test_handlers_courses.py."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types as t

from tests.kit.files import write_files
from tests.kit.lsp_client import capabilities, session, uri_of
from tests.kit.waiting import wait_until


async def test_watchers_are_registered_when_the_client_allows(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {"mfcourse.toml": 'lessons = ["./lessons/*.mdx"]\n', "lessons/a.mdx": "?[{{ k }} A]\n"},
    )
    async with session(capabilities("visual-studio-code"), [tmp_path]) as s:
        await s.indexed()

        def globs() -> set[str]:
            return {
                w["globPattern"]
                for r in s.registrations
                for w in r.register_options["watchers"]
                if isinstance(w["globPattern"], str)
            }

        # Replaced once the course is known: its own lesson glob is watched too.
        await wait_until(lambda: "**/lessons/*.mdx" in globs())
        (registration,) = s.registrations
        assert registration.method == t.WORKSPACE_DID_CHANGE_WATCHED_FILES
        assert {"**/mfcourse.toml", "**/*.md", "**/*.mdflow"} <= globs()

    caps = capabilities("visual-studio-code")
    assert caps.workspace is not None and caps.workspace.did_change_watched_files is not None
    caps.workspace.did_change_watched_files.relative_pattern_support = True
    async with session(caps, [tmp_path]) as s:
        await s.indexed()
        await wait_until(
            lambda: any(
                not isinstance(w["globPattern"], str)
                for r in s.registrations
                for w in r.register_options["watchers"]
            )
        )
        (registration,) = s.registrations
        relative = [
            w["globPattern"]
            for w in registration.register_options["watchers"]
            if not isinstance(w["globPattern"], str)
        ]
        assert relative == [{"baseUri": uri_of(tmp_path), "pattern": "lessons/*.mdx"}]
