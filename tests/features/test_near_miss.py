import random
import time

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
    assert near is not None and near.distance == 1
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


def test_lookup_cost_is_bounded_as_the_course_grows() -> None:
    # A growth check, not a speed limit: ten times the keys must not cost ten times per
    # lookup, because the search compares a bounded number of candidates.
    small, big = _per_probe_seconds(2_000), _per_probe_seconds(20_000)
    assert big < 4 * small + 0.002, (small, big)
