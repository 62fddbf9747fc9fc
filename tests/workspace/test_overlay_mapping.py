import random

from mfls.workspace import overlay_mapping
from mfls.workspace.overlay_mapping import GONE, Layered


def test_layered_behaves_like_a_dict_and_never_changes(monkeypatch) -> None:
    monkeypatch.setattr(overlay_mapping, "FLATTEN_AT", 8)
    rng = random.Random(3)
    model = {f"k{i}": i for i in range(20)}
    current = Layered(dict(model))
    history = [(current, dict(model))]
    for step in range(300):
        changes: dict[str, object] = {}
        for _ in range(rng.randint(1, 4)):
            key = f"k{rng.randint(0, 40)}"
            if rng.random() < 0.4:
                changes[key] = GONE
                model.pop(key, None)
            else:
                changes[key] = step
                model[key] = step
        current = current.updated(changes)
        history.append((current, dict(model)))
    for mapping, expected in history:
        assert dict(mapping) == expected
        assert len(mapping) == len(expected)
        assert sorted(mapping) == sorted(expected)
        for key in ("k0", "k5", "k39", "absent"):
            assert (key in mapping) == (key in expected)
            assert mapping.get(key) == expected.get(key)
            assert mapping.get(key, "default") == expected.get(key, "default")


def test_updated_without_changes_is_the_same_object() -> None:
    mapping = Layered({"a": 1})
    assert mapping.updated({}) is mapping
