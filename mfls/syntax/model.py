"""The scanner's vocabulary: plain immutable data, no behaviour beyond conversion.

Every offset is a code point offset into the original source text, end exclusive.
The records a scan makes by the hundred thousand (markers, interactions, blocks,
literals) are named tuples: cheaper to build, hold and pickle than dataclasses.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import Any, Final, NamedTuple


class Reason(str, Enum):
    """Why a marker is not a valid memory marker (docs/syntax.md rule 6)."""

    EMPTY = "empty"
    LINE_BREAK = "line-break"
    CONTROL_CHARACTER = "control-character"
    UNCLOSED = "unclosed"


class Role(str, Enum):
    BINDING = "binding"
    REFERENCE = "reference"


class BlockKind(str, Enum):
    """Leaf blocks of CommonMark 0.31.2 (containers are not leaves)."""

    PARAGRAPH = "paragraph"
    HEADING = "heading"  # ATX or setext; `level` holds 1-6, `setext` tells which
    THEMATIC_BREAK = "thematic_break"
    FENCED_CODE = "fenced_code"
    INDENTED_CODE = "indented_code"
    HTML_BLOCK = "html_block"  # `level` holds the CommonMark HTML block type 1-7
    LINK_REFERENCE_DEFINITION = "link_reference_definition"


class LiteralKind(str, Enum):
    """Inline literal contexts (docs/syntax.md rule 9, inline list)."""

    CODE_SPAN = "code_span"
    MATH = "math"
    AUTOLINK = "autolink"
    RAW_HTML = "raw_html"
    LINK_RESOURCE = "link_resource"  # `(destination "title")` of an inline link or image
    LINK_LABEL = "link_label"  # `[label]` of a full reference link (docs/syntax.md rule 24)
    LINK_REFERENCE_DEFINITION = "link_reference_definition"
    INFO_STRING = "info_string"


class Context(str, Enum):
    """The literal context holding a literal marker (the `context` of `mfls scan --json`)."""

    CODE_SPAN = "code-span"
    MATH = "math"
    LINK_DESTINATION = "link-destination"
    LINK_TITLE = "link-title"
    LINK_LABEL = "link-label"
    LINK_DEFINITION = "link-definition"
    AUTOLINK = "autolink"
    HTML_TAG = "html-tag"  # inline raw HTML other than a comment: tags, `<?..?>`, `<!..>`
    HTML_COMMENT = "html-comment"  # inline comments and type-2 blocks
    HTML_BLOCK = "html-block"  # raw HTML blocks of types 1 and 3-5
    INFO_STRING = "info-string"


SCAN_VERSION: Final = 2
"""The `version` of `mfls scan --json` (docs/syntax.md, the scan contract): 2 reports the
complete valid markers of raw HTML blocks (rules 10 and 16)."""

RAW_HTML_BLOCK_TYPES = range(1, 6)
"""CommonMark HTML block types whose whole content is literal: script, style, pre,
textarea (1); comment (2); processing instruction (3); declaration (4); CDATA (5)."""


class Marker(NamedTuple):
    """A valid memory marker: `{{ key }}`, or a legacy binding `%{{key}}`.

    `start`/`end` cover the whole marker (the `%` included for legacy bindings).
    `key_start`/`key_end` cover the normalized key in the source; a valid key never
    holds a line break, so that range is one contiguous run of one line.
    `context` names the literal context of a literal marker, None otherwise.
    """

    start: int
    end: int
    key: str
    key_start: int
    key_end: int
    role: Role = Role.REFERENCE
    legacy: bool = False
    literal: bool = False
    context: Context | None = None

    @property
    def opening(self) -> tuple[int, int]:
        """The span of the opening `{{` (`%{{` for a legacy binding)."""
        return self.start, self.start + (3 if self.legacy else 2)

    @property
    def closing(self) -> tuple[int, int]:
        """The span of the closing `}}`."""
        return self.end - 2, self.end


class InvalidMarker(NamedTuple):
    """An invalid marker in surrounding text; literal text, but atomic.

    For `unclosed`, `end` is the end of the inline text the marker owns, and
    `hidden_markers`/`hidden_interactions` count what that tail would have held
    had the marker not swallowed it.
    """

    start: int
    end: int
    reason: Reason
    legacy: bool = False
    hidden_markers: int = 0
    hidden_interactions: int = 0

    @property
    def opening(self) -> tuple[int, int]:
        """The span of the opening `{{` (an invalid legacy marker's span has no `%`)."""
        return self.start, min(self.end, self.start + 2)

    @property
    def closing(self) -> tuple[int, int] | None:
        """The span of the closing `}}`; None for an unclosed marker."""
        if self.reason is Reason.UNCLOSED:
            return None
        return self.end - 2, self.end


class Choice(NamedTuple):
    label: str
    value: str
    start: int
    end: int


class Operator(NamedTuple):
    """One operator of an interaction: `?[`, `]`, a choice separator `|` or `||`, the
    `//` between a label and its value, or the `...` before an input hint."""

    start: int
    end: int
    kind: str  # the operator as written: "?[", "]", "|", "||", "//" or "..."


_OPERATOR_CODES = {"?[": "[", "]": "]", "|": "|", "||": "2", "//": "/", "...": "."}
_OPERATOR_KINDS = {code: kind for kind, code in _OPERATOR_CODES.items()}


def pack_operators(start: int, operators: Iterable[Operator]) -> dict[str, Any]:
    """The `operator_spans` and `operator_kinds` fields of an interaction at `start`.

    Offsets relative to the interaction are mostly small integers, which Python shares,
    so an interaction's operators cost a tuple and a short string instead of an object
    each: closed lessons keep hundreds of thousands of them in the index."""
    spans: list[int] = []
    kinds: list[str] = []
    for operator in operators:
        spans.append(operator.start - start)
        spans.append(operator.end - start)
        kinds.append(_OPERATOR_CODES[operator.kind])
    return {"operator_spans": tuple(spans), "operator_kinds": "".join(kinds)}


class Interaction(NamedTuple):
    """`?[ ... ]`. `binding` is the key bound by a leading marker, or None.

    `operators` lists the spans of its operators by start, `?[` first and `]` last;
    separators inside markers are not operators.
    """

    start: int
    end: int
    binding: str | None
    multiple: bool
    choices: tuple[Choice, ...]
    input: str | None
    binding_marker: Marker | None = None
    operator_spans: tuple[int, ...] = ()  # (start, end) pairs, relative to `start`
    operator_kinds: str = ""  # one code per operator (see `pack_operators`)

    @property
    def operators(self) -> tuple[Operator, ...]:
        spans, at = self.operator_spans, self.start
        return tuple(
            Operator(at + spans[2 * i], at + spans[2 * i + 1], _OPERATOR_KINDS[code])
            for i, code in enumerate(self.operator_kinds)
        )


class Literal(NamedTuple):
    kind: LiteralKind
    start: int
    end: int


class Block(NamedTuple):
    """A leaf block.

    `start` is the offset of its first line's first character (container markers
    included), `end` the end of its last line, line ending excluded.
    `inline` lists the source ranges whose concatenation is the block's inline text:
    paragraphs and headings (their raw inline content), ordinary HTML blocks of
    types 6-7 (their text), link reference definitions (their whole text), fenced
    code (the info string only). Other blocks have none.
    """

    kind: BlockKind
    start: int
    end: int
    level: int = 0
    inline: tuple[tuple[int, int], ...] = ()
    setext: bool = False

    @property
    def is_raw_html(self) -> bool:
        """An HTML block whose whole content is literal (types 1-5)."""
        return self.kind is BlockKind.HTML_BLOCK and self.level in RAW_HTML_BLOCK_TYPES

    @property
    def is_code(self) -> bool:
        """A fenced or indented code block."""
        return self.kind is BlockKind.FENCED_CODE or self.kind is BlockKind.INDENTED_CODE


class ScanResult(NamedTuple):
    markers: tuple[Marker, ...] = ()
    invalid: tuple[InvalidMarker, ...] = ()
    interactions: tuple[Interaction, ...] = ()
    blocks: tuple[Block, ...] = ()
    literals: tuple[Literal, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """What `mfls scan --json` prints (the scan contract in docs/syntax.md)."""
        return {
            "version": SCAN_VERSION,
            "markers": [
                {
                    "start": m.start,
                    "end": m.end,
                    "key": m.key,
                    "role": m.role.value,
                    "legacy": m.legacy,
                    "literal": m.literal,
                    "context": None if m.context is None else m.context.value,
                }
                for m in self.markers
            ],
            "invalid": [
                {"start": i.start, "end": i.end, "reason": i.reason.value} for i in self.invalid
            ],
            "interactions": [
                {
                    "start": x.start,
                    "end": x.end,
                    "binding": x.binding,
                    "multiple": x.multiple,
                    "choices": [{"label": c.label, "value": c.value} for c in x.choices],
                    "input": x.input,
                }
                for x in self.interactions
            ],
        }
