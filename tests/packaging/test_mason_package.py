"""Mason's `packages/mfls/package.yaml` (packaging/mason) as mason-org/mason-registry's
pull-request check takes it (`mason-org/actions` registry-lint: the registry's JSON schema,
no CR, the name of its folder), and naming this project as pyproject.toml does."""

from __future__ import annotations

import copy
import sys
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator
from registry_schema import REPO, package_validator

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

PACKAGE = REPO / "packaging" / "mason" / "packages" / "mfls" / "package.yaml"
LSPCONFIG = REPO / "packaging" / "nvim-lspconfig" / "lsp"


@pytest.fixture(scope="module")
def project() -> dict[str, Any]:
    with (REPO / "pyproject.toml").open("rb") as file:
        return dict(tomllib.load(file)["project"])


@pytest.fixture(scope="module")
def validator() -> Draft202012Validator:
    return package_validator()


@pytest.fixture(scope="module")
def package() -> dict[str, Any]:
    loaded = yaml.safe_load(PACKAGE.read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def test_the_package_is_valid_under_masons_schema(
    validator: Draft202012Validator, package: dict[str, Any]
) -> None:
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(package)]
    assert errors == []


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda p: p["source"].update(id="pkg:pypi/mfls"), "source"),  # no version
        (lambda p: p.update(categories=["Language Server"]), "categories"),
        (lambda p: p.update(homepage="github.com/x/mfls"), "homepage"),
        (lambda p: p.pop("languages"), "languages"),
        (lambda p: p.update(bin={"mfls server": "pypi:mfls"}), "bin"),
    ],
)
def test_the_schema_refuses_what_the_registry_refuses(
    validator: Draft202012Validator, package: dict[str, Any], change: Any, where: str
) -> None:
    broken = copy.deepcopy(package)
    change(broken)
    errors = list(validator.iter_errors(broken))
    assert errors, f"a package with a bad {where} passed"


def test_the_file_as_registry_lint_reads_it() -> None:
    raw = PACKAGE.read_bytes()
    text = raw.decode("utf-8")
    assert text.startswith("---\n"), "a package definition MUST start with `---`"
    assert b"\r" not in raw
    assert max(len(line) for line in text.splitlines()) <= 120
    name = yaml.safe_load(text)["name"]
    assert PACKAGE.parent.name == name and PACKAGE.name == "package.yaml"


def test_the_package_names_this_project(package: dict[str, Any], project: dict[str, Any]) -> None:
    assert package["source"]["id"] == f"pkg:pypi/{project['name']}@{project['version']}"
    assert package["licenses"] == [project["license"]]
    assert package["homepage"] == project["urls"]["Repository"]
    assert package["description"].rstrip(".") == project["description"]
    # `pypi:mfls`: the console script the wheel installs.
    assert package["bin"] == {"mfls": "pypi:mfls"} and "mfls" in project["scripts"]


def test_the_lspconfig_name_is_the_file_proposed_there(package: dict[str, Any]) -> None:
    assert (LSPCONFIG / f"{package['neovim']['lspconfig']}.lua").is_file()
