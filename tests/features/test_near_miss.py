import random
import time

import pytest

from mfls.features.near_miss import NearMissIndex, bounded_distance, loose


def test_loose_form_ignores_case_space_punctuation_and_width() -> None:
    assert loose("What is your name?") == loose("what is yourname")
    assert loose("ＡＢＣ１") == loose("abc1")
    assert loose("a\u200bb") == "ab"


def test_bounded_distance() -> None:
    assert bounded_distance("kitten", "sitting", 3) == 3
    assert bounded_distance("kitten", "sitting", 2) is None
    assert bounded_distance("same", "same", 0) == 0
    assert bounded_distance("abcdef", "abdef", 1) == 1


def test_nearest_prefers_equal_loose_forms_then_small_edits() -> None:
    index = NearMissIndex.build(["user_name", "What would you like to learn?", "abc"])
    assert index.nearest("username").key == "user_name"
    assert index.nearest("username").distance == 0
    near = index.nearest("What would you lke to learn?")
    assert near is not None and (near.key, near.distance) == ("What would you like to learn?", 1)
    assert index.nearest("abd") is None  # too short for edits
    assert index.nearest("user_name") is None  # itself is not a near miss
    assert index.nearest("completely different") is None


def test_updates_share_nothing_mutable() -> None:
    before = NearMissIndex.build(["user_name"])
    after = before.updated(["topic"], ["user_name"])
    assert before.nearest("username") is not None
    assert after.nearest("username") is None
    assert after.nearest("Topic").key == "topic"


def _per_probe_seconds(count: int) -> float:
    rng = random.Random(7)
    words = ["learn", "topic", "level", "name", "goal", "style", "time", "pace", "week"]
    keys = {f"{' '.join(rng.choice(words) for _ in range(4))} {n}?" for n in range(count)}
    index = NearMissIndex.build(keys)
    probes = [k.replace("e", "a", 1) for k in sorted(keys)[:200]]
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for probe in probes:
            index.nearest(probe)
        best = min(best, (time.perf_counter() - started) / len(probes))
    return best


@pytest.mark.alone
def test_lookup_cost_is_bounded_as_the_course_grows() -> None:
    # A growth check, not a speed limit: ten times the keys must not cost ten times per
    # lookup, because the search compares a bounded number of candidates.
    small, big = _per_probe_seconds(2_000), _per_probe_seconds(20_000)
    assert big < 4 * small + 0.002, (small, big)


_WORDS = ["learn", "lean", "topic", "tropic", "level", "levels", "name", "goal", "ab", "x"]
_ODD = ["LEARN", "le arn", "lear", "learning", "tropics", "levle", "", "?!", "ｌｅａｒｎ", "a-b"]


def _key(rng: random.Random) -> str:
    if rng.random() < 0.2:
        return rng.choice(_ODD)
    return " ".join(rng.choice(_WORDS) for _ in range(rng.randint(1, 3)))


def test_updated_indexes_answer_as_fresh_ones() -> None:
    # Answers remembered before an update are carried over only where they still hold.
    rng = random.Random(13)
    for _ in range(300):
        keys = {_key(rng) for _ in range(rng.randint(0, 12))}
        probes = [_key(rng) for _ in range(12)]
        index = NearMissIndex.build(keys)
        for _ in range(rng.randint(1, 4)):
            for probe in probes:
                index.nearest(probe)
            removed = {_key(rng) for _ in range(rng.randint(0, 3))}
            removed |= set(rng.sample(sorted(keys), min(len(keys), rng.randint(0, 2))))
            added = {_key(rng) for _ in range(rng.randint(0, 3))} - removed
            index = index.updated(added, removed)
            keys = (keys - removed) | added
            fresh = NearMissIndex.build(keys)
            assert index.keys == fresh.keys
            assert [index.nearest(p) for p in probes] == [fresh.nearest(p) for p in probes]


def test_an_update_that_changes_nothing_is_the_same_index() -> None:
    index = NearMissIndex.build(["user_name", "topic"])
    assert index.nearest("username") is not None
    assert index.updated(["topic"], ["not a key"]) is index
    changed = index.updated(["abcdefgh"], ())
    assert "username" in changed._memo  # no piece of "abcdefgh" reaches it
