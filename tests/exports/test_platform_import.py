"""A packed export passes the platform's own import (`import_shifu` of AI-Shifu's
`src/api/flaskr/service/shifu/shifu_import_export_funcs.py`).

The platform's code is not part of mfls: set `MFLS_AI_SHIFU_SOURCE` to a checkout of
ai-shifu/ai-shifu to run this test. Its database, risk control and history services are
replaced by recording stubs (the function needs a Flask app and a SQLAlchemy session);
the function itself, Flask, werkzeug and markdown-flow run for real. What it enforces
without the database (the top-level `shifu` and `outline_items`, `shifu.title`, each
item's `outline_item_bid`, `structure` rebuilt from the items, markdown-flow reading each
content) is also what `tests/exports/test_validation.py` requires of an export.
"""

from __future__ import annotations

import importlib.util
import io
import itertools
import os
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from tests.kit.exports import dumps, nasty_export, packed, unpacked

MODULE = Path("src/api/flaskr/service/shifu/shifu_import_export_funcs.py")
SOURCE = os.environ.get("MFLS_AI_SHIFU_SOURCE", "")

pytestmark = pytest.mark.skipif(
    not (SOURCE and (Path(SOURCE) / MODULE).is_file()),
    reason="needs the platform's source: set MFLS_AI_SHIFU_SOURCE to an ai-shifu/ai-shifu "
    "checkout (its import code is not part of mfls)",
)


class Record:
    """A stub model row: keeps what it is given."""

    def __init__(self, **fields: Any) -> None:
        self.id: int | None = None
        self.__dict__.update(fields)


class Session:
    def __init__(self) -> None:
        self.added: list[Record] = []
        self.ids = itertools.count(1)

    def add(self, row: Record) -> None:
        self.added.append(row)

    def flush(self) -> None:
        for row in self.added:
            if row.id is None:
                row.id = next(self.ids)

    def commit(self) -> None:
        self.flush()


class HistoryItem:
    def __init__(self, **fields: Any) -> None:
        self.__dict__.update(fields)


def _module(name: str, **names: Any) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(names)
    return module


@pytest.fixture
def platform(monkeypatch: pytest.MonkeyPatch) -> tuple[types.ModuleType, dict[str, Any]]:
    pytest.importorskip("flask")
    pytest.importorskip("markdown_flow")
    session = Session()
    seen: dict[str, Any] = {"session": session, "trees": []}
    ids = itertools.count(1)

    def raise_error(code: str) -> None:
        raise RuntimeError(code)

    def save_tree(app: Any, user: str, bid: str, tree: list[Any], shifu_id: int) -> None:
        seen["trees"].append(tree)

    stubs = {
        "flaskr": _module("flaskr"),
        "flaskr.common": _module("flaskr.common"),
        "flaskr.common.i18n_utils": _module(
            "flaskr.common.i18n_utils", get_markdownflow_output_language=lambda: "English"
        ),
        "flaskr.dao": _module("flaskr.dao", db=types.SimpleNamespace(session=session)),
        "flaskr.service": _module("flaskr.service"),
        "flaskr.service.check_risk": _module("flaskr.service.check_risk"),
        "flaskr.service.check_risk.funcs": _module(
            "flaskr.service.check_risk.funcs", check_text_with_risk_control=lambda *a: None
        ),
        "flaskr.service.common": _module("flaskr.service.common"),
        "flaskr.service.common.models": _module(
            "flaskr.service.common.models", raise_error=raise_error
        ),
        "flaskr.service.shifu": _module("flaskr.service.shifu"),
        "flaskr.service.shifu.models": _module(
            "flaskr.service.shifu.models",
            DraftOutlineItem=type("DraftOutlineItem", (Record,), {}),
            DraftShifu=type("DraftShifu", (Record,), {}),
        ),
        "flaskr.service.shifu.shifu_draft_funcs": _module(
            "flaskr.service.shifu.shifu_draft_funcs",
            get_latest_shifu_draft=lambda bid: None,
            normalize_ask_provider_config=lambda raw: raw,
            serialize_ask_provider_config=lambda raw: "{}",
        ),
        "flaskr.service.shifu.shifu_history_manager": _module(
            "flaskr.service.shifu.shifu_history_manager",
            HistoryItem=HistoryItem,
            save_outline_tree_history=save_tree,
            save_shifu_history=lambda *a: None,
        ),
        "flaskr.service.shifu.shifu_struct_manager": _module(
            "flaskr.service.shifu.shifu_struct_manager", get_shifu_struct=None
        ),
        "flaskr.util": _module("flaskr.util", generate_id=lambda app: f"new{next(ids)}"),
        "flaskr.util.datetime": _module(
            "flaskr.util.datetime", now_utc=lambda: None, to_utc_iso=lambda t: ""
        ),
    }
    for name, module in stubs.items():
        monkeypatch.setitem(sys.modules, name, module)
    spec = importlib.util.spec_from_file_location("ai_shifu_import", Path(SOURCE) / MODULE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, seen


def _tree(items: list[HistoryItem]) -> list[Any]:
    return [(item.type, item.child_count, _tree(item.children)) for item in items]


def test_a_packed_export_imports(platform: tuple[types.ModuleType, dict[str, Any]]) -> None:
    from flask import Flask
    from werkzeug.datastructures import FileStorage

    module, seen = platform
    value = nasty_export()
    folder = unpacked(dumps(value))
    lesson = next(p for p in folder.placed if p.lesson and p.bid == "b1")
    files = {**folder.files, lesson.path: b"Edited\n---\n?[{{ k }}...k]\n"}
    data = packed(files)
    upload = FileStorage(stream=io.BytesIO(data), filename="course.json")
    bid = module.import_shifu(Flask("mfls-test"), None, upload, "user")
    assert bid.startswith("new")
    rows = seen["session"].added
    items = [row for row in rows if type(row).__name__ == "DraftOutlineItem"]
    assert [row.title for row in items] == [i["title"] for i in value["outline_items"]]
    contents = {row.title: row.content for row in items}
    assert contents[value["outline_items"][2]["title"]] == "Edited\n---\n?[{{ k }}...k]\n"
    (tree,) = seen["trees"]
    # The chapter and its lessons, then the top-level lesson; the edited lesson has two
    # blocks by markdown-flow's own splitting.
    assert [kind for kind, _, _ in _tree(tree)] == ["outline", "outline"]
    assert _tree(tree)[0][2][1][1] == 2
