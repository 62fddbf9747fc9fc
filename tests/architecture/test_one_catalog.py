"""One message catalog (`mfls/workspace/catalog/`: one table per language): no other
module holds a message table keyed by language or a `*MESSAGES` table, every message id
given to `say`/`counted` as a literal is in the catalog, and the registry names its codes'
messages by id only. Found in the source by its syntax tree, with planted checks."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable

from arch_kit import PACKAGE

from mfls.workspace.catalog import EN, MESSAGES, ZH
from mfls.workspace.catalog.en import EN_MESSAGES
from mfls.workspace.catalog.zh_cn import ZH_MESSAGES

CATALOG = PACKAGE / "workspace" / "catalog"
LANGUAGE_KEYS = frozenset({"EN", "ZH", EN, ZH})
SAYING = frozenset({"say", "counted"})
CATALOG_MODULES = frozenset({"mfls.workspace.catalog", "mfls.features.messages"})


def _language_key(node: ast.expr | None) -> bool:
    if isinstance(node, ast.Name):
        return node.id in LANGUAGE_KEYS
    return isinstance(node, ast.Constant) and node.value in LANGUAGE_KEYS


def wording_outside(source: str, name: str) -> list[str]:
    """Where `source` (of the module file `name`) holds message text the catalog should."""
    found: list[str] = []
    tree = ast.parse(source, name)
    saying = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module in CATALOG_MODULES
        for alias in node.names
        if alias.name in SAYING
    }
    for node in ast.walk(tree):
        at = f"{name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Dict) and any(_language_key(key) for key in node.keys):
            found.append(f"{at}: a table of texts by language")
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and target.id.endswith("MESSAGES"):
                    found.append(f"{at}: a message table `{target.id}`")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in saying
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            message_id = node.args[1].value
            known = (
                message_id in MESSAGES
                if node.func.id == "say"
                else f"{message_id}.one" in MESSAGES and f"{message_id}.other" in MESSAGES
            )
            if not known:
                found.append(f"{at}: the message {message_id!r} is not in the catalog")
    return found


def test_every_message_is_in_the_one_catalog() -> None:
    found: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.parent != CATALOG:
            name = str(path.relative_to(PACKAGE.parent))
            found.extend(wording_outside(path.read_text(encoding="utf-8"), name))
    assert found == []


def test_the_languages_have_the_same_messages() -> None:
    assert set(EN_MESSAGES) == set(ZH_MESSAGES) == set(MESSAGES)


def test_the_registry_names_its_messages_by_id_only() -> None:
    source = (PACKAGE / "workspace" / "diagnostic_registry.py").read_text(encoding="utf-8")
    infos = [
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "CodeInfo"
    ]
    assert infos
    for info in infos:
        ids = info.args[3]
        assert isinstance(ids, ast.Tuple), ast.dump(ids)[:80]
        assert all(isinstance(element, ast.Name) for element in ids.elts)


def test_the_check_finds_each_kind_of_wording_outside() -> None:
    planted = (
        "from mfls.workspace.catalog import EN, ZH, say, counted\n"
        "HINT_MESSAGES = {'hint': {EN: 'a hint', ZH: '提示'}}\n"
        "TEXTS = {'en': 'inline'}\n"
        "def word(language):\n"
        "    return say(language, 'no.such-message') + counted(language, 'hover.times', 2)\n"
        "def other(language):\n"
        "    return counted(language, 'no.such-count', 2) + say(language, 'hover.not-bound')\n"
    )
    lines = sorted(line.split(":")[1] for line in wording_outside(planted, "planted.py"))
    assert lines == ["2", "2", "3", "5", "7"], wording_outside(planted, "planted.py")
    # A `say` of another module's own is not the catalog's.
    assert wording_outside("def say(a, b):\n    pass\nsay(1, 'text')\n", "own.py") == []


RULE_MODULES = ("scan_rules", "key_rules", "document_rules", "course_file_rules")
"""The diagnostic rules (`mfls/features/*_rules.py`): they find, `diagnostic_wording`
words."""


def wording_in_rules(source: str, name: str) -> list[str]:
    """Where a rule module words a message: it renders from the catalog, or takes a
    language."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source, name)):
        at = f"{name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.ImportFrom) and node.module in CATALOG_MODULES:
            rendering = [a.name for a in node.names if a.name in SAYING]
            if rendering:
                found.append(f"{at}: imports {rendering} from {node.module}")
        elif isinstance(node, ast.arg) and node.arg == "language":
            found.append(f"{at}: takes a language")
    return found


def in_features(modules: Iterable[str], check: Callable[[str, str], list[str]]) -> list[str]:
    """What `check` finds in each of the feature `modules` (its source and file name)."""
    found: list[str] = []
    for module in modules:
        path = PACKAGE / "features" / f"{module}.py"
        found.extend(check(path.read_text(encoding="utf-8"), path.name))
    return found


def test_the_rules_find_and_do_not_word() -> None:
    assert in_features(RULE_MODULES, wording_in_rules) == []
    planted = (
        "from mfls.workspace.catalog import brief, say\n"
        "def rule(course, entry, language):\n"
        "    return say(language, 'near-miss')\n"
    )
    assert [line.split(":")[1] for line in wording_in_rules(planted, "planted.py")] == ["1", "2"]


VIEW_MODULES = (
    "completion",
    "course_info",
    "facts",
    "hover",
    "inlay_hints",
    "code_lens",
    "rename",
    "course_map",
)
"""Views whose every user-facing text comes from the catalog: no English sentence is
written in them (`english_literals`)."""

NOT_SHOWN = frozenset({"Memo", "getLogger", "debug", "info", "warning", "error", "exception"})
"""Calls whose string arguments no user reads: cache names and log lines."""


def _prose(text: str) -> bool:
    """Three or more words of Latin letters separated by spaces: an English phrase."""
    return len([w for w in text.split() if sum(c.isascii() and c.isalpha() for c in w) >= 2]) >= 3


def english_literals(source: str, name: str) -> list[str]:
    """Where `source` holds a string constant or an f-string of three or more English
    words, not a docstring (of a module, class, function or attribute) and
    not an argument of a call in `NOT_SHOWN`."""
    tree = ast.parse(source, name)
    quiet: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for before, statement in zip([None, *body], body, strict=False):
                documents = before is None or isinstance(before, ast.Assign | ast.AnnAssign)
                if (
                    documents
                    and isinstance(statement, ast.Expr)
                    and isinstance(statement.value, ast.Constant)
                ):
                    quiet.add(id(statement.value))
        if isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in NOT_SHOWN:
                quiet.update(id(part) for arg in node.args for part in ast.walk(arg))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr) and id(node) not in quiet:
            # An f-string as a whole, each value standing in as `{}`.
            parts = [v.value if isinstance(v, ast.Constant) else "{}" for v in node.values]
            quiet.update(id(v) for v in node.values)
            text = "".join(str(part) for part in parts)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        else:
            continue
        if id(node) not in quiet and _prose(text):
            found.append(f"{name}:{node.lineno}: {text!r}")
    return found


def test_the_views_write_no_english_sentence() -> None:
    assert in_features(VIEW_MODULES, english_literals) == []


def test_the_check_finds_an_english_phrase_in_a_view() -> None:
    planted = (
        '"""A module docstring of many words."""\n'
        "CACHE = Memo('worded findings seen')\n"
        "LIMIT = 5\n"
        '"""An attribute docstring of many words."""\n'
        "def describe(key, uses):\n"
        '    """A function docstring of many words."""\n'
        "    log.debug('asked for %s now', key)\n"
        "    if uses:\n"
        "        return f'bound in {key} · read {uses}×'\n"
        "    return 'not bound in this course'\n"
        "LABEL = 'read-before-asked'\n"
        "CHINESE = '本课程中没有绑定'\n"
    )
    lines = sorted(int(line.split(":")[1]) for line in english_literals(planted, "planted.py"))
    assert lines == [9, 10], english_literals(planted, "planted.py")
