"""The near-miss index answers exactly as the search before the one-edit index
(`near_miss_reference.py`): the same suggestion at the same distance for every probe,
on fresh and on updated indexes, over the conformance corpus, the real AI-Shifu exports
and seeded random key sets (keys a digit apart, CJK, long keys, crowded pieces)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from mfls.features import near_miss, one_edit
from mfls.features.near_miss import NearMissIndex
from mfls.syntax.scanner import scan_markers
from tests.ai_shifu_exports import shared_exports
from tests.features import near_miss_reference as reference


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _read(paths: Iterable[Path]) -> dict[str, list[str]]:
    return {path.name: list(_strings(json.loads(path.read_text("utf-8")))) for path in paths}


# Read while the module is collected: the tests here run where no file may be opened.
CONFORMANCE = _read(sorted((Path(__file__).resolve().parents[1] / "conformance").glob("*.json")))
_EXPORTS = shared_exports()
EXPORTS = None if _EXPORTS is None else _read(sorted(_EXPORTS.glob("*.json")))


def _keys(texts: Iterable[str]) -> set[str]:
    return {marker.key for text in texts for marker in scan_markers(text).markers}


def _mistakes(key: str, rng: random.Random) -> list[str]:
    """The key with one or two slips: a digit changed or doubled, a character dropped,
    doubled, swapped or replaced, a space or a case changed."""
    found = [key.upper(), key.replace(" ", "", 1), key + "s", "x" + key]
    for _ in range(4):
        at = rng.randrange(len(key) + 1)
        found.append(key[:at] + key[at + 1 :])
        found.append(key[:at] + rng.choice("aeio9七") + key[at + 1 :])
        found.append(key[:at] + key[at : at + 1] * 2 + key[at + 1 :])
        found.append(key[:at] + key[at + 1 : at + 2] + key[at : at + 1] + key[at + 2 :])
    digits = [i for i, c in enumerate(key) if c.isdigit()]
    for at in digits[:3]:
        found.append(key[:at] + str((int(key[at]) + 3) % 10) + key[at + 1 :])
        found.append(key[:at] + key[at] + key[at:])
    return found


def _same_answers(bound: set[str], probes: Iterable[str]) -> int:
    """Asks both searches about every probe on a fresh index, then on the index grown
    from half of `bound` and on one shrunk back to half; returns the probes compared."""
    probes = sorted(set(probes))
    keys = sorted(bound)
    half = set(keys[::2])
    pairs = [
        (NearMissIndex.build(bound), reference.NearMissIndex.build(bound)),
        (
            NearMissIndex.build(half).updated(bound - half, ()),
            reference.NearMissIndex.build(half).updated(bound - half, ()),
        ),
        (
            NearMissIndex.build(bound).updated((), bound - half),
            reference.NearMissIndex.build(bound).updated((), bound - half),
        ),
    ]
    for new, old in pairs:
        for probe in probes:
            expected = old.nearest(probe)
            found = new.nearest(probe)
            assert (found is None) == (expected is None), (probe, found, expected)
            assert found is None or tuple(found) == tuple(expected), (probe, found, expected)
    return len(probes)


def _probes(keys: set[str], rng: random.Random, most: int | None = None) -> list[str]:
    """The keys and their slips (`most` of them, drawn, when given)."""
    found = [*keys, *(slip for key in sorted(keys) for slip in _mistakes(key, rng) if slip)]
    return found if most is None or len(found) <= most else rng.sample(sorted(found), most)


@pytest.mark.usefixtures("lookups")
def test_the_conformance_corpus() -> None:
    keys = _keys(text for texts in CONFORMANCE.values() for text in texts)
    assert len(keys) > 20
    rng = random.Random(1)
    probes = _probes(keys, rng)
    assert _same_answers(keys, probes) > 100
    for _ in range(20):  # each key unbound in turn, the others bound
        bound = set(rng.sample(sorted(keys), len(keys) // 2))
        _same_answers(bound, keys)


@pytest.mark.usefixtures("lookups")
def test_the_real_exports() -> None:
    if EXPORTS is None:
        pytest.skip("the AI-Shifu exports are not beside this checkout")
    assert EXPORTS
    rng = random.Random(2)
    every = _keys(text for texts in EXPORTS.values() for text in texts)
    assert len(every) >= 5
    for texts in EXPORTS.values():
        keys = _keys(texts)
        _same_answers(keys, _probes(keys, rng))
    _same_answers(every, _probes(every, rng))


def _numbered(rng: random.Random) -> set[str]:
    """Keys a digit apart, as numbered questions are: many share every piece."""
    shape = rng.choice(["question {} of the course", "q{}", "第{}题的答案", "step {}", "{}x"])
    return {shape.format(n) for n in rng.sample(range(1, 400), rng.randint(1, 120))}


_WORDS = ["learn", "lean", "goal", "goals", "level", "name", "学习", "目标", "ｌｅｖｅｌ", "ab"]


def _worded(rng: random.Random) -> set[str]:
    """Keys of words, a few long (a whole question), a few with their case or spaces
    changed (equal loose forms)."""
    keys = set()
    for _ in range(rng.randint(0, 60)):
        key = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(1, 12)))
        if rng.random() < 0.2:
            key = key.title().replace(" ", rng.choice(["", "_", "  "]))
        keys.add(key)
    return keys


@pytest.fixture(params=["as built", "every lookup through the one-edit index", "few variants kept"])
def lookups(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if request.param != "as built":
        monkeypatch.setattr(near_miss, "FEW_CANDIDATES", -1)
    if request.param == "few variants kept":  # most lookups compare, as when it is full
        monkeypatch.setattr(one_edit, "MAX_ENTRIES", 300)


@pytest.mark.usefixtures("lookups")
@pytest.mark.parametrize("seed", range(3))
def test_random_key_sets(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(8):
        keys = _numbered(rng) | _worded(rng) | (_numbered(rng) if rng.random() < 0.5 else set())
        bound = {key for key in keys if rng.random() < 0.7}
        _same_answers(bound, _probes(keys, rng, most=120))


@pytest.mark.usefixtures("lookups")
def test_crowded_pieces_cut_to_the_same_candidates(monkeypatch: pytest.MonkeyPatch) -> None:
    # More keys share a piece than either search compares: both take the same first ones.
    monkeypatch.setattr(near_miss, "MAX_CANDIDATES", 40)
    monkeypatch.setattr(reference, "MAX_CANDIDATES", 40)
    rng = random.Random(3)
    keys = {f"question {n} of the course" for n in range(1, 300)}
    keys |= {f"questions {n} of the course" for n in range(1, 300, 7)}
    probes = _probes(set(rng.sample(sorted(keys), 25)), rng)
    probes += [f"question {n} of the course" for n in range(300, 1000, 9)]
    _same_answers(keys, probes)
