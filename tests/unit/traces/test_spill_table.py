"""The tables an import spills to disk behave as a dict does (order, replace, delete), hot or not."""

from __future__ import annotations

import random

import pytest

from inspector.transfer import spill
from inspector.transfer.spill import SpillArea


@pytest.mark.parametrize("seed", range(20))
def test_a_spilled_table_behaves_as_a_dict(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    monkeypatch.setattr(spill, "HOT_ENTRIES", 3)
    rng = random.Random(seed)
    expected: dict[object, object] = {}
    with SpillArea(spill_after=4) as area:
        table = area.table()
        for _ in range(400):
            key = rng.choice(["a", "b", "c", "d", "e", "f", "g", 1, 2, (3, "x")])
            action = rng.random()
            if action < 0.5:
                value = [rng.randrange(100)]
                table[key], expected[key] = value, list(value)
            elif action < 0.65:
                if key in expected:
                    del table[key], expected[key]
                else:
                    with pytest.raises(KeyError):
                        del table[key]
            elif action < 0.75:
                assert table.setdefault(key, [0]) == expected.setdefault(key, [0])
            elif action < 0.85:
                assert table.get(key) == expected.get(key)
                assert (key in table) == (key in expected)
            else:
                assert list(table.items()) == list(expected.items())
                assert len(table) == len(expected)
        assert list(table.items()) == list(expected.items())
        assert table.spilled
