"""The diagnostic codes, one entry per code: its default severity, its first sentence
(the rule's summary: SARIF's short description), the ids of its messages (worded in
English and Simplified Chinese by the one catalog, `mfls.workspace.catalog`), and the
quick fixes that answer it (their title message ids).

The only place a code is spelled: features name codes and message ids by the constants
here (tests/architecture/test_facts_only.py). The docs' code tables are tested against
`REGISTRY` (tests/architecture/test_code_tables.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, NamedTuple

SEVERITY_NAMES: Final = ("error", "warning", "information", "hint")
OFF: Final = "off"


MARKER_EMPTY: Final = "marker-empty"
MARKER_LINE_BREAK: Final = "marker-line-break"
MARKER_CONTROL_CHARACTER: Final = "marker-control-character"
MARKER_UNCLOSED: Final = "marker-unclosed"
LEGACY_BINDING: Final = "legacy-binding"
UNBOUND_REFERENCE: Final = "unbound-reference"
READ_BEFORE_ASKED: Final = "read-before-asked"
NEAR_MISS: Final = "near-miss"
BINDING_IN_REFERENCE: Final = "binding-in-reference"
RESERVED_KEY_BINDING: Final = "reserved-key-binding"
LEGACY_PROFILE_KEY: Final = "legacy-profile-key"
EMPTY_INTERACTION: Final = "empty-interaction"
RUNTIME_BINDING_IGNORED: Final = "runtime-binding-ignored"
RUNTIME_KEY_DIFFERS: Final = "runtime-key-differs"
FIXED_OUTPUT_UNCLOSED: Final = "fixed-output-unclosed"
UNKNOWN_GATE_VALUE: Final = "unknown-gate-value"
PAGE_UNREADABLE_BINDING: Final = "page-unreadable-binding"
PAGE_READS_OTHERWISE: Final = "page-reads-otherwise"
COURSE_FILE_INVALID: Final = "course-file-invalid"
UNUSED_SUPPRESSION: Final = "unused-suppression"

MARKER_LINE_BREAK_RUNS_ON: Final = "marker-line-break.runs-on"
EMPTY_INTERACTION_LEGACY: Final = "empty-interaction.legacy"
RUNTIME_BINDING_IGNORED_POSITION: Final = "runtime-binding-ignored.position"
UNBOUND_REFERENCE_PAGE: Final = "unbound-reference.page"
RESERVED_KEY_BINDING_PROVIDED: Final = "reserved-key-binding.provided"
RESERVED_KEY_BINDING_PREFIX: Final = "reserved-key-binding.prefix"
PAGE_UNREADABLE_BINDING_FORM: Final = "page-unreadable-binding.form"
PAGE_UNREADABLE_BINDING_LINE: Final = "page-unreadable-binding.line"
UNUSED_SUPPRESSION_UNKNOWN: Final = "unused-suppression.unknown"


class CodeInfo(NamedTuple):
    """One diagnostic code (a named tuple: a text check builds no dataclass).
    `message_ids`: the ids of its messages in the catalog (`mfls.workspace.catalog`: the
    code, or `code.variant`); `fixes`: the title ids of the quick fixes
    (`features/code_actions.py`) that answer it."""

    code: str
    severity: str
    summary: str
    message_ids: tuple[str, ...]
    fixes: tuple[str, ...] = ()


REGISTRY: Final = (
    CodeInfo(
        MARKER_EMPTY,
        "error",
        "A marker names no question: nothing is left between its braces.",
        (MARKER_EMPTY,),
    ),
    CodeInfo(
        MARKER_LINE_BREAK,
        "error",
        "A line break inside a marker's question.",
        (MARKER_LINE_BREAK_RUNS_ON, MARKER_LINE_BREAK),
    ),
    CodeInfo(
        MARKER_CONTROL_CHARACTER,
        "error",
        "A control character inside a marker's question.",
        (MARKER_CONTROL_CHARACTER,),
    ),
    CodeInfo(
        MARKER_UNCLOSED,
        "error",
        "A `{{` that no `}}` closes in its paragraph.",
        (MARKER_UNCLOSED,),
    ),
    CodeInfo(
        LEGACY_BINDING,
        "hint",
        "The old `%{{key}}` binding form.",
        (LEGACY_BINDING,),
        ("action.convert-legacy",),
    ),
    CodeInfo(
        UNBOUND_REFERENCE,
        "warning",
        "A question no lesson of the course asks.",
        (UNBOUND_REFERENCE, UNBOUND_REFERENCE_PAGE),
        ("action.ask-for",),
    ),
    CodeInfo(
        READ_BEFORE_ASKED,
        "information",
        "A question read before, in course order, it is first asked.",
        (READ_BEFORE_ASKED,),
    ),
    CodeInfo(
        NEAR_MISS,
        "warning",
        "A question almost equal to another question of the course.",
        (NEAR_MISS,),
        (
            "action.replace-with",
            "action.ask-for",
        ),
    ),
    CodeInfo(
        BINDING_IN_REFERENCE,
        "information",
        "A binding in a reference document, which saves no answer.",
        (BINDING_IN_REFERENCE,),
    ),
    CodeInfo(
        RESERVED_KEY_BINDING,
        "error",
        "A binding of a key the host reserves or provides.",
        (RESERVED_KEY_BINDING_PROVIDED, RESERVED_KEY_BINDING_PREFIX),
    ),
    CodeInfo(
        LEGACY_PROFILE_KEY,
        "warning",
        "A legacy learner-profile key bound with `%{{...}}`.",
        (LEGACY_PROFILE_KEY,),
    ),
    CodeInfo(
        EMPTY_INTERACTION,
        "warning",
        "An interaction with a binding but no choices and no input.",
        (EMPTY_INTERACTION, EMPTY_INTERACTION_LEGACY),
    ),
    CodeInfo(
        RUNTIME_BINDING_IGNORED,
        "warning",
        "A binding the course target's runtime does not save.",
        (RUNTIME_BINDING_IGNORED, RUNTIME_BINDING_IGNORED_POSITION),
        ("action.bind-with",),
    ),
    CodeInfo(
        RUNTIME_KEY_DIFFERS,
        "warning",
        "A key the course target's runtime reads otherwise.",
        (RUNTIME_KEY_DIFFERS,),
    ),
    CodeInfo(
        FIXED_OUTPUT_UNCLOSED,
        "warning",
        "An AI-Shifu `!===` fixed output that no `!===` line closes.",
        (FIXED_OUTPUT_UNCLOSED,),
    ),
    CodeInfo(
        UNKNOWN_GATE_VALUE,
        "warning",
        "An AI-Shifu button value starting with `_sys_` that gates nothing.",
        (UNKNOWN_GATE_VALUE,),
    ),
    CodeInfo(
        PAGE_UNREADABLE_BINDING,
        "warning",
        "A binding AI-Shifu's learner page (remark-flow) does not read.",
        (PAGE_UNREADABLE_BINDING, PAGE_UNREADABLE_BINDING_FORM, PAGE_UNREADABLE_BINDING_LINE),
        ("action.page-rename", "action.page-form"),
    ),
    CodeInfo(
        PAGE_READS_OTHERWISE,
        "warning",
        "An interaction the AI-Shifu learner page shows differently from the runtime.",
        (PAGE_READS_OTHERWISE,),
    ),
    CodeInfo(
        COURSE_FILE_INVALID,
        "error",
        "A problem in mfcourse.toml.",
        (),
    ),
    CodeInfo(
        UNUSED_SUPPRESSION,
        "warning",
        "A `<!-- mfls-disable... -->` comment that silences nothing.",
        (UNUSED_SUPPRESSION, UNUSED_SUPPRESSION_UNKNOWN),
        ("action.remove-suppression",),
    ),
)
"""Every code, in the order of the docs' tables."""

BY_CODE: Final[Mapping[str, CodeInfo]] = {info.code: info for info in REGISTRY}
DEFAULT_SEVERITIES: Final[Mapping[str, str]] = {info.code: info.severity for info in REGISTRY}
