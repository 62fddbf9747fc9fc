"""Layer 1: MarkdownFlow and Markdown syntax as pure functions over `str`."""

from mfls.syntax.inline import InlineMode, InlineScan, scan_inline
from mfls.syntax.keys import check_new_key, is_valid_key, marker_text, normalize_key, trim
from mfls.syntax.model import (
    RAW_HTML_BLOCK_TYPES,
    Block,
    BlockKind,
    Choice,
    Context,
    Interaction,
    InvalidMarker,
    Literal,
    LiteralKind,
    Marker,
    Operator,
    Reason,
    Role,
    ScanResult,
)
from mfls.syntax.scanner import scan, scan_blocks, scan_unit

__all__ = [
    "RAW_HTML_BLOCK_TYPES",
    "Block",
    "BlockKind",
    "Choice",
    "Context",
    "InlineMode",
    "InlineScan",
    "Interaction",
    "InvalidMarker",
    "Literal",
    "LiteralKind",
    "Marker",
    "Operator",
    "Reason",
    "Role",
    "ScanResult",
    "check_new_key",
    "is_valid_key",
    "marker_text",
    "normalize_key",
    "scan",
    "scan_blocks",
    "scan_inline",
    "scan_unit",
    "trim",
]
