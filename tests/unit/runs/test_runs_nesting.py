"""The one walker every nesting limit asks: its two ways of counting, and hostile values (a million
levels deep, ten million empty lists) answered quickly and without recursion."""

from __future__ import annotations

import sys
import time
from collections import OrderedDict
from types import MappingProxyType
from typing import Any

import pytest

from inspector.runs._frozen import FrozenMap
from inspector.runs.nesting import nested_deeper


def _depth(value: Any, *, scalars_count: bool = False) -> int:
    """The least limit ``value`` does not pass."""
    limit = 0
    while nested_deeper(value, limit, scalars_count=scalars_count):
        limit += 1
    return limit


@pytest.mark.parametrize(("value", "lists_and_objects", "every_value"), [
    (7, 0, 1), ("text", 0, 1), (None, 0, 1), (b"[[]]", 0, 1),
    ([], 1, 1), ({}, 1, 1), ([1], 1, 2), ({"a": 1}, 1, 2), ({"a": []}, 2, 2), ({"a": [1]}, 2, 3),
    ({"[[[": "{{{", "b": {}}, 2, 2),  # an object's keys are no levels, brackets in text neither
    ([1, [2, [3]], {}], 3, 4), ([[], [[]], [[[]]]], 4, 4), ([[[[1]]], [], 2], 4, 5),
    ((1, (2,)), 2, 3), (FrozenMap({"a": (FrozenMap({}),)}), 3, 3), (MappingProxyType({"a": [1]}), 2, 3),
    (OrderedDict(a=OrderedDict(b=1)), 2, 3), ({1, 2}, 0, 1),
])
def test_it_counts_lists_and_objects_or_every_value(value: Any, lists_and_objects: int, every_value: int) -> None:
    assert _depth(value) == lists_and_objects
    assert _depth(value, scalars_count=True) == every_value


def test_a_wide_level_counts_as_its_deepest_member() -> None:
    value = [[1] * 100, *([[]] * 100), [[[1]]], *range(100)]  # past the few a loop sorts
    assert _depth(value) == 4
    assert _depth(value, scalars_count=True) == 5
    assert _depth([{"k": i} for i in range(200)] + [{"k": [[]]}]) == 4


def _chain(levels: int) -> list[Any]:
    top: list[Any] = []
    innermost = top
    for _ in range(levels - 1):
        inner: list[Any] = []
        innermost.append(inner)
        innermost = inner
    return top


def test_a_million_levels_are_refused_at_the_limit_without_recursion() -> None:
    value = _chain(1_000_000)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)  # a walker that recursed would fail at once
    try:
        started = time.perf_counter()
        assert nested_deeper(value, 100)
        assert nested_deeper(value, 100, scalars_count=True)
        assert time.perf_counter() - started < 1.0
    finally:
        sys.setrecursionlimit(limit)


@pytest.mark.parametrize("inner", [[], 0, "x"], ids=["empty lists", "numbers", "strings"])
def test_ten_million_values_in_a_list_are_walked_in_seconds(inner: Any) -> None:
    value = [[] for _ in range(10_000_000)] if inner == [] else [inner] * 10_000_000
    started = time.perf_counter()
    assert not nested_deeper(value, 64)
    assert not nested_deeper(value, 64, scalars_count=True)
    assert nested_deeper(value, 1, scalars_count=True)
    assert nested_deeper(value, 1) is (inner == [])
    assert time.perf_counter() - started < 30.0  # on main: 42 s for one pass over the empty lists
