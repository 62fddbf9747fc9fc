"""The packaged extension (editors/vscode/mfls.vsix, a zip) as the VS Code Marketplace and
Open VSX read it: the manifest's publisher, repository, license, icon (a PNG of at least
128x128), categories, keywords and gallery banner, and the README, CHANGELOG and LICENSE
inside, each the checkout's own (a stale .vsix fails)."""

from __future__ import annotations

import json
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Iterator
from typing import Any

import pytest
from editor_harness import EDITORS, REPO, require_path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

VSCODE = EDITORS / "vscode"
VSIX_NS = {"v": "http://schemas.microsoft.com/developer/vsx-schema/2011"}
CATEGORIES = {
    "AI", "Azure", "Chat", "Data Science", "Debuggers", "Education", "Extension Packs",
    "Formatters", "Keymaps", "Language Packs", "Linters", "Machine Learning", "Notebooks",
    "Other", "Programming Languages", "SCM Providers", "Snippets", "Testing", "Themes",
    "Visualization",
}  # fmt: skip
"""The categories VS Code knows (`EXTENSION_CATEGORIES` of VS Code 1.100.3, as code-server
4.100.3 ships it in lib/vscode/out/vs/workbench/api/node/extensionHostProcess.js)."""
MAX_KEYWORDS = 30
"""The extension manifest reference: "This list is currently limited to 30 keywords"."""


@pytest.fixture(scope="module")
def vsix() -> Iterator[zipfile.ZipFile]:
    path = require_path(VSCODE / "mfls.vsix", "the packaged extension (npm run package)")
    with zipfile.ZipFile(path) as archive:
        yield archive


@pytest.fixture(scope="module")
def manifest(vsix: zipfile.ZipFile) -> dict[str, Any]:
    packaged: dict[str, Any] = json.loads(vsix.read("extension/package.json"))
    return packaged


@pytest.fixture(scope="module")
def project() -> dict[str, Any]:
    with (REPO / "pyproject.toml").open("rb") as file:
        return dict(tomllib.load(file)["project"])


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_packaged_manifest_is_the_checkouts(manifest: dict[str, Any]) -> None:
    source = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    fields = ["publisher", "version", "repository", "license", "icon", "galleryBanner"]
    fields += ["categories", "keywords", "homepage", "bugs"]
    assert {f: manifest.get(f) for f in fields} == {f: source.get(f) for f in fields}


def test_publisher_repository_and_license(
    manifest: dict[str, Any], project: dict[str, Any]
) -> None:
    assert re.fullmatch(r"[a-z0-9][a-z0-9-]*", manifest["publisher"])
    repository = project["urls"]["Repository"]
    assert manifest["repository"]["url"] in (repository, repository + ".git")
    assert manifest["bugs"]["url"] == project["urls"]["Issues"]
    assert manifest["homepage"].startswith(repository + "/")
    assert manifest["license"] == project["license"] == "MIT"


def test_icon_categories_keywords_banner(vsix: zipfile.ZipFile, manifest: dict[str, Any]) -> None:
    width, height = png_size(vsix.read("extension/" + manifest["icon"]))
    assert width >= 128 and height >= 128 and width == height
    assert manifest["categories"] and set(manifest["categories"]) <= CATEGORIES
    keywords = manifest["keywords"]
    assert 0 < len(keywords) <= MAX_KEYWORDS and "markdownflow" in keywords
    banner = manifest["galleryBanner"]
    assert re.fullmatch(r"#[0-9A-Fa-f]{6}", banner["color"]) and banner["theme"] in {
        "dark",
        "light",
    }


def test_readme_changelog_and_license_inside(
    vsix: zipfile.ZipFile, manifest: dict[str, Any]
) -> None:
    xml = ET.fromstring(vsix.read("extension.vsixmanifest"))
    assets = {a.get("Type"): a.get("Path") for a in xml.iterfind(".//v:Asset", VSIX_NS)}
    read = {
        "Microsoft.VisualStudio.Services.Content.Details": VSCODE / "README.md",
        "Microsoft.VisualStudio.Services.Content.Changelog": VSCODE / "CHANGELOG.md",
        "Microsoft.VisualStudio.Services.Content.License": REPO / "LICENSE",
    }
    for kind, source in read.items():
        assert kind in assets, f"no {kind} in the .vsix"
        assert vsix.read(assets[kind]) == source.read_bytes(), f"{assets[kind]} is not {source}"
    changelog = (VSCODE / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"\n## {manifest['version']}\n" in changelog, (
        "the CHANGELOG has no entry for this version"
    )
    assert (
        assets["Microsoft.VisualStudio.Services.Icons.Default"] == "extension/" + manifest["icon"]
    )
    metadata = xml.find("v:Metadata", VSIX_NS)
    assert metadata is not None
    assert metadata.findtext("v:Icon", namespaces=VSIX_NS) == "extension/" + manifest["icon"]
    properties = {p.get("Id"): p.get("Value") for p in metadata.iterfind(".//v:Property", VSIX_NS)}
    assert (
        properties["Microsoft.VisualStudio.Services.Links.Source"] == manifest["repository"]["url"]
    )
    assert (
        properties["Microsoft.VisualStudio.Services.Branding.Color"]
        == manifest["galleryBanner"]["color"]
    )
