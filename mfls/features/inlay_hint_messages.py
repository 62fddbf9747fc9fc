"""The inlay hints' messages (`features/inlay_hints.py`), in English and Simplified
Chinese; `features/messages.py` adds them to its catalog. The counts inside are the code
lenses' (`lens.lessons`, `lens.documents`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from mfls.workspace.diagnostic_registry import EN, ZH

INLAY_HINT_MESSAGES: Final[Mapping[str, Mapping[str, str]]] = {
    "inlay.asked-in": {EN: "asked in ${lesson}", ZH: "提问于 ${lesson}"},
    "inlay.asked-in.with": {
        EN: "asked in ${lesson}: ${asked}",
        ZH: "提问于 ${lesson}：${asked}",
    },
    "inlay.provided": {EN: "provided by ${host}", ZH: "由 ${host} 提供"},
    "inlay.read": {EN: "read in ${where}", ZH: "在${where}中读取"},
    "inlay.unread": {EN: "not read yet", ZH: "尚未被读取"},
}
