"""The stable diagnostic codes and their default severities (docs/architecture.md)."""

from __future__ import annotations

from typing import Final

SEVERITY_NAMES: Final = ("error", "warning", "information", "hint")
OFF: Final = "off"

DEFAULT_SEVERITIES: Final[dict[str, str]] = {
    "marker-empty": "error",
    "marker-line-break": "error",
    "marker-control-character": "error",
    "marker-unclosed": "error",
    "legacy-binding": "hint",
    "unbound-reference": "warning",
    "read-before-asked": "information",
    "near-miss": "warning",
    "binding-in-reference": "information",
    "reserved-key-binding": "error",
    "legacy-profile-key": "warning",
    "empty-interaction": "warning",
    "runtime-binding-ignored": "warning",
    "runtime-key-differs": "warning",
    "fixed-output-unclosed": "warning",
    "course-file-invalid": "error",
}
