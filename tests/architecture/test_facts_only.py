"""A key's verdict is decided in `features/facts.py` only, and a diagnostic code is spelled
in `workspace/diagnostic_registry.py` (and the facts) only: everything else asks them.

Found in the source by its syntax tree: a string that is a code or a code's message id
(`near-miss`, `near-miss.variant`); a use of the host's verdict methods (`provides`,
`reserved_prefix_of`, `is_legacy_profile_binding`, `substitutes`, `legacy_profile_keys`);
a function or class of the old private verdicts (`_reserved` and the like); a cache value
named by a string instead of a typed `Memo`.
"""

from __future__ import annotations

import ast

from arch_kit import PACKAGE

from mfls.workspace.diagnostic_registry import BY_CODE

ALLOWED = {
    PACKAGE / "features" / "facts.py",
    PACKAGE / "workspace" / "diagnostic_registry.py",
    PACKAGE / "workspace" / "hosts.py",  # where the host's answers are defined
}
VERDICT_ATTRIBUTES = frozenset(
    {"provides", "reserved_prefix_of", "is_legacy_profile_binding", "substitutes"}
    | {"legacy_profile_keys"}
)
VERDICT_NAMES = frozenset({"_reserved", "is_reserved", "_KeyFacts", "_kinds", "near_miss_index"})


def _is_code(text: str) -> bool:
    return text in BY_CODE or text.split(".", 1)[0] in BY_CODE


def violations(source: str, name: str) -> list[str]:
    """Where `source` (of the module file `name`) decides a verdict or spells a code."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source, name)):
        at = f"{name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if _is_code(node.value):
                found.append(f"{at}: the code {node.value!r} spelled outside the registry")
        elif isinstance(node, ast.Attribute) and node.attr in VERDICT_ATTRIBUTES:
            found.append(f"{at}: `.{node.attr}` decides a key's verdict outside the facts")
        elif isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name in VERDICT_NAMES:
            found.append(f"{at}: `{node.name}` decides a key's verdict outside the facts")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and isinstance(node.func.value, ast.Attribute)
            and node.func.value.attr == "cache"
            and node.args
            and isinstance(node.args[0], ast.Constant | ast.JoinedStr)
        ):
            found.append(f"{at}: a cache value named by a string, not a Memo")
    return found


def test_only_the_facts_and_the_registry_decide_verdicts_and_spell_codes() -> None:
    found: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path not in ALLOWED:
            name = str(path.relative_to(PACKAGE.parent))
            found.extend(violations(path.read_text(encoding="utf-8"), name))
    assert found == []


def test_the_check_finds_each_kind_of_violation() -> None:
    planted = (
        "def _reserved(host, key):\n"
        "    return host.provides(key) or host.reserved_prefix_of(key)\n"
        "CODE = 'legacy-profile-key'\n"
        "MESSAGE = 'near-miss.variant'\n"
        "def f(course):\n"
        "    return course.cache.get(f'unbound:{1}', None), course.cache.get('x', None)\n"
    )
    found = violations(planted, "planted.py")
    assert [line.split(": ", 1)[0] for line in found].count("planted.py:1") == 1
    assert len(found) == 7, found
    assert not violations("MEMO = Memo('near miss candidates')\nKEY = 'near'\n", "clean.py")
