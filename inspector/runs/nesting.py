"""How deeply a JSON-like value nests, asked as one question: deeper than a limit?

One walker for every limit of ours (a call's arguments, a result's structured content, a trace's
values, a body the receiver takes). It goes down level by level, never recursing, and stops at the
limit: a value a million levels deep costs no more than the limit's levels. A level's values are
sorted in C, so a long list of scalars or of empty lists passes quickly; what it holds is the
lists and objects of one level that hold something, never the scalars and empty ones among them."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from itertools import chain, compress, tee
from operator import methodcaller, not_
from typing import Any


class _KindOf(dict[type, bool]):
    """Whether a type is of a kind, asked once per type: looked up in C after that (``isinstance``
    against a mapping's abstract class, asked of each of ten million values, takes seconds)."""

    def __init__(self, test: Callable[[type], bool]) -> None:
        super().__init__()
        self._test = test

    def __missing__(self, kind: type) -> bool:
        self[kind] = answer = self._test(kind)
        return answer


#: What nests: JSON's objects and arrays, and the frozen forms a run keeps them in (tuples, mappings).
_NESTS = _KindOf(lambda kind: issubclass(kind, (dict, list, tuple, Mapping)))
_IS_MAPPING = _KindOf(lambda kind: issubclass(kind, Mapping))


def nested_deeper(value: Any, limit: int, *, scalars_count: bool = False) -> bool:
    """Whether ``value`` nests more than ``limit`` levels deep.

    A level is a list or an object (a tuple or a mapping too): ``{"a": [1]}`` is two deep, a
    scalar none; an object's keys are never counted. With ``scalars_count`` every value on the
    way down is a level, the scalar at the bottom too: ``{"a": [1]}`` is three deep, ``{"a": []}``
    two, a scalar one."""
    if not _NESTS[type(value)]:
        return scalars_count and limit < 1
    level, depth = [value], 1  # the lists and objects at ``depth`` (below the top, none empty)
    while depth < limit:
        level = _holding(level)
        if not level:
            return False
        depth += 1
    if depth > limit:
        return True
    # At the limit: one more level passes it.
    return any(level) if scalars_count else any(map(_NESTS.__getitem__, map(type, _inside(level))))


def _holding(level: list[Any]) -> list[Any]:
    """The lists and objects that hold something, held by the lists and objects of ``level``."""
    if sum(map(len, level)) <= _FEW:  # a few values: a loop costs less than setting up the C pipeline
        return [child for item in level for child in (item.values() if _IS_MAPPING[type(item)] else item)
                if _NESTS[type(child)] and child]
    values, kinds = tee(_inside(level))  # taken in step by compress: tee holds one value at most
    return list(filter(None, compress(values, map(_NESTS.__getitem__, map(type, kinds)))))


#: Below this many values in a level, they are sorted in Python.
_FEW = 64


def _inside(level: list[Any]) -> Iterable[Any]:
    """What the lists and objects of ``level`` hold (an object's values), the mappings first."""
    mapping = list(map(_IS_MAPPING.__getitem__, map(type, level)))
    return chain(chain.from_iterable(map(_VALUES, compress(level, mapping))),
                 chain.from_iterable(compress(level, map(not_, mapping))))


_VALUES = methodcaller("values")
