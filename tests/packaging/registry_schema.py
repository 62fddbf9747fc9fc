"""Mason's package schema (vendored in packaging/mason/registry-schema) as a validator.

The schema is split into files that name each other by `$id` (under
`https://json.schemastore.org/mason-registry.json`); every file is registered under its
`$id`, so each `$ref` resolves to a vendored file and nothing is fetched.
"""

from __future__ import annotations

import json
from pathlib import Path

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

REPO = Path(__file__).resolve().parents[2]
SCHEMAS = REPO / "packaging" / "mason" / "registry-schema" / "schemas"


def package_validator() -> Draft202012Validator:
    """A validator of `package.yaml` documents (as parsed) against Mason's schema."""
    resources = []
    for path in sorted(SCHEMAS.rglob("*.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((contents["$id"], Resource.from_contents(contents)))
    registry = Registry().with_resources(resources)
    root = json.loads((SCHEMAS / "package.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(root)
    return Draft202012Validator(
        root, registry=registry, format_checker=Draft202012Validator.FORMAT_CHECKER
    )
