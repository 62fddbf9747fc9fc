"""Pull or push diagnostics, chosen by the client's capabilities, never both."""

from __future__ import annotations

import asyncio
from pathlib import Path

from e2e_session import capabilities, session, write_files
from lsprotocol import types as t

LESSON = "# One\n\n?[{{ colour }} Red | Blue]\n\nUse {{ colour }} and {{ size }}.\n"


def codes(items: object) -> list[str]:
    return sorted(str(d.code) for d in items)  # type: ignore[attr-defined]


async def test_a_pull_client_pulls_and_gets_unchanged_reports(tmp_path: Path) -> None:
    write_files(tmp_path, {"a.md": LESSON})
    caps = capabilities("visual-studio-code", pull=True, refresh=True)
    async with session(caps, [tmp_path]) as s:
        assert s.result is not None
        provider = s.result.capabilities.diagnostic_provider
        assert provider is not None and provider.inter_file_dependencies
        await s.indexed()
        uri = s.open(tmp_path / "a.md")
        first = await s.pull(uri)
        assert first.kind == "full"
        assert codes(first.items) == ["unbound-reference"]
        unbound = first.items[0]
        assert unbound.source == "mfls"
        assert unbound.severity == t.DiagnosticSeverity.Warning
        assert "size" in unbound.message
        assert first.result_id

        again = await s.pull(uri, first.result_id)
        assert again.kind == "unchanged"
        assert again.result_id == first.result_id

        s.change(
            uri,
            [
                t.TextDocumentContentChangePartial(
                    range=t.Range(
                        start=t.Position(line=4, character=24),
                        end=t.Position(line=4, character=28),
                    ),
                    text="colour",
                )
            ],
        )
        changed = await s.pull(uri, first.result_id)
        assert changed.kind == "full"
        assert list(changed.items) == []
        await asyncio.sleep(0.4)
        assert s.client.diagnostics == {}, "a pull client must not also get pushed diagnostics"
        # Indexing finished after start-up: the server asked the client to pull again.
        assert s.client.diagnostic_refresh_count >= 1


async def test_a_push_client_gets_versioned_publishes_only_when_they_change(
    tmp_path: Path,
) -> None:
    write_files(tmp_path, {"a.md": LESSON})
    async with session(capabilities("visual-studio-code"), [tmp_path]) as s:
        assert s.result is not None
        assert s.result.capabilities.diagnostic_provider is None
        await s.indexed()
        published = s.published
        uri = s.open(tmp_path / "a.md")
        items = await s.pushed(uri, lambda d: len(d) == 1)
        assert codes(items) == ["unbound-reference"]
        assert published[-1].version == 1

        # A change that leaves the diagnostics as they were publishes nothing.
        count = len(published)
        s.change(
            uri,
            [
                t.TextDocumentContentChangePartial(
                    range=t.Range(
                        start=t.Position(line=0, character=5), end=t.Position(line=0, character=5)
                    ),
                    text="!",
                )
            ],
        )
        await asyncio.sleep(0.6)
        assert len(published) == count

        # Several quick edits: one publish, for the last version.
        for n in range(3):
            s.change(
                uri,
                [
                    t.TextDocumentContentChangePartial(
                        range=t.Range(
                            start=t.Position(line=4, character=0),
                            end=t.Position(line=4, character=0),
                        ),
                        text=f"{{{{ k{n} }}}} ",
                    )
                ],
            )
        await s.pushed(uri, lambda d: len(d) == 4)
        await asyncio.sleep(0.4)
        assert len(published) == count + 1
        assert published[-1].version == s.versions[uri]

        # Closed, it has the diagnostics of the file on disk, without a version.
        s.close(uri)
        await s.pushed(uri, lambda d: codes(d) == ["unbound-reference"])
        assert published[-1].version is None


async def test_a_course_severity_override_applies(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "mfcourse.toml": '[diagnostics]\nunbound-reference = "error"\nlegacy-binding = "off"\n',
            "a.md": "?[%{{ old }} A | B]\n\nUse {{ old }} and {{ missing }}.\n",
        },
    )
    async with session(capabilities("neovim@v0.11"), [tmp_path]) as s:
        await s.indexed()
        uri = s.open(tmp_path / "a.md")
        report = await s.pull(uri)
        assert codes(report.items) == ["unbound-reference"]
        assert report.items[0].severity == t.DiagnosticSeverity.Error


async def test_legacy_bindings_are_deprecated_hints(tmp_path: Path) -> None:
    write_files(tmp_path, {"a.md": "?[%{{ old }} A | B]\n\nUse {{ old }}.\n"})
    async with session(capabilities("neovim@v0.11"), [tmp_path]) as s:
        await s.indexed()
        uri = s.open(tmp_path / "a.md")
        report = await s.pull(uri)
        (legacy,) = [d for d in report.items if d.code == "legacy-binding"]
        assert legacy.severity == t.DiagnosticSeverity.Hint
        assert list(legacy.tags or []) == [t.DiagnosticTag.Deprecated]
        assert legacy.range.start == t.Position(line=0, character=2)


async def test_related_information_points_at_the_binding(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "01.md": "Use {{ name }} first.\n",
            "02.md": "?[{{ name }} ...your name]\n",
        },
    )
    async with session(capabilities("neovim@v0.11"), [tmp_path]) as s:
        await s.indexed()
        uri = s.open(tmp_path / "01.md")
        report = await s.pull(uri)
        (early,) = [d for d in report.items if d.code == "read-before-asked"]
        assert early.severity == t.DiagnosticSeverity.Information
        assert early.related_information
        location = early.related_information[0].location
        assert location.uri.endswith("/02.md")
        assert location.range.start.line == 0
