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


# -- re-derivation: the course tables a verdict is made of ---------------------------------

JUDGE = PACKAGE / "features" / "facts.py"
JUDGED_FROM = {
    PACKAGE / "features" / "near_miss.py",  # the near-miss index itself
    PACKAGE / "features" / "one_edit.py",  # the one-edit lookups it is built on
    PACKAGE / "workspace" / "index.py",  # where the course tables are made
}
COURSE_TABLES = frozenset(
    {"first_lesson_binding", "first_lesson_docs", "lesson_bindings", "lesson_bound_keys"}
    | {"_first_lesson_docs", "nearest", "near_miss_index"}
)
"""The course tables a key's verdict is made of (where a key is first asked, the lessons
binding it) and the near-miss lookups: reading one outside the facts decides again."""
NEAR_MISS_MODULES = frozenset({"mfls.features.near_miss", "mfls.features.one_edit"})
NEAR_MISS_NAMES = frozenset({"NearMissIndex", "OneEditIndex", "near_miss_index"})


def rederivations(source: str, name: str) -> list[str]:
    """Where `source` (of the module file `name`) reads what the facts judge from."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source, name)):
        at = f"{name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Attribute) and node.attr in COURSE_TABLES:
            found.append(f"{at}: `.{node.attr}` is what the facts judge from")
        elif isinstance(node, ast.Name) and node.id in NEAR_MISS_NAMES:
            found.append(f"{at}: `{node.id}` is the facts' near-miss index")
        elif isinstance(node, ast.ImportFrom) and node.module in NEAR_MISS_MODULES:
            names = [alias.name for alias in node.names]
            if set(names) - {"Near"}:  # the answer's type may be named; the index may not
                found.append(f"{at}: imports {names} from {node.module}")
        elif (
            isinstance(node, ast.ImportFrom)
            and node.module == "mfls.features.facts"
            and {alias.name for alias in node.names} & NEAR_MISS_NAMES
        ):
            found.append(f"{at}: imports the near-miss index from the facts")
    return found


def test_only_the_facts_read_the_tables_a_verdict_is_made_of() -> None:
    found: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path != JUDGE and path not in JUDGED_FROM:
            name = str(path.relative_to(PACKAGE.parent))
            found.extend(rederivations(path.read_text(encoding="utf-8"), name))
    assert found == []


def test_the_rederivation_check_finds_each_kind() -> None:
    planted = (
        "from mfls.features.facts import facts_of, near_miss_index\n"
        "from mfls.features.near_miss import Near, NearMissIndex\n"
        "def verdict(course, key):\n"
        "    first = course.first_lesson_docs().get(key)\n"
        "    bound = course.first_lesson_binding(key) or course.lesson_bindings(key)\n"
        "    return first, bound, near_miss_index(course).nearest(key)\n"
    )
    lines = sorted(int(line.split(":")[1]) for line in rederivations(planted, "planted.py"))
    # each import of the index, each table, the index and its lookup
    assert lines == [1, 2, 4, 5, 5, 6, 6], lines
    clean = (
        "from mfls.features.facts import facts_of\n"
        "from mfls.features.near_miss import Near\n"
        "def verdict(course, key):\n"
        "    facts = facts_of(course)\n"
        "    return facts.first_asking(key), facts.near(key), facts.bindings_in_lessons(key)\n"
    )
    assert rederivations(clean, "clean.py") == []


# -- map kinds and diagnostic codes are named apart -----------------------------------------


def test_map_kinds_and_codes_have_distinct_names() -> None:
    from mfls.features import facts
    from mfls.workspace import diagnostic_registry

    kinds = {name for name in vars(facts) if name.startswith("PLACE_")}
    codes = {name for name in vars(diagnostic_registry) if name.isupper()}
    assert {getattr(facts, name) for name in kinds} == set(facts.KINDS)
    assert kinds & codes == set()


def renamed_codes(source: str, name: str) -> list[str]:
    """Where `source` imports a name of the registry under another name."""
    return [
        f"{name}:{node.lineno}: `{alias.name} as {alias.asname}`"
        for node in ast.walk(ast.parse(source, name))
        if isinstance(node, ast.ImportFrom) and node.module == "mfls.workspace.diagnostic_registry"
        for alias in node.names
        if alias.asname is not None and alias.asname != alias.name
    ]


def test_no_code_is_imported_under_another_name() -> None:
    found: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        found.extend(renamed_codes(path.read_text(encoding="utf-8"), str(path)))
    assert found == []
    planted = "from mfls.workspace.diagnostic_registry import NEAR_MISS as NEAR_MISS_CODE\n"
    assert renamed_codes(planted, "planted.py") == ["planted.py:1: `NEAR_MISS as NEAR_MISS_CODE`"]
