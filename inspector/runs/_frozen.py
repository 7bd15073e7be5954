"""Immutable copies of JSON-like values, and back.

A step is a value object, but several of its payload fields are JSON lists
and objects (messages, tool specs, arguments). Holding the caller's list
would let anyone change a recorded step after the fact, so those fields are
stored as tuples and :class:`FrozenMap` and turned back into lists and dicts
only when the payload is written.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any


class FrozenMap(Mapping[str, Any]):
    """A read-only, hashable mapping with string keys, whose values are frozen too (it is made by
    :func:`freeze`, or of parts it made, so freezing it again gives it back as it is).

    It compares equal to any mapping with the same items, including a dict.
    """

    __slots__ = ("_data",)

    def __init__(self, items: Mapping[str, Any]) -> None:
        self._data = dict(items)

    @classmethod
    def _adopt(cls, data: dict[str, Any]) -> FrozenMap:
        """Wrap ``data`` without copying it: for a dict just built and shared with no one."""
        frozen = cls.__new__(cls)
        frozen._data = data
        return frozen

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        return hash(frozenset(self._data.items()))

    def __repr__(self) -> str:
        return f"FrozenMap({self._data!r})"


class NotJsonError(ValueError):
    """A value cannot be stored in a JSON payload."""


def freeze(value: Any, path: str = "") -> Any:
    """Return an immutable copy of the JSON-like ``value``.

    Lists and tuples become tuples, mappings become :class:`FrozenMap`,
    scalars (``None``, bool, int, float, str) stay as they are. Anything
    else raises :class:`NotJsonError` saying where it was found.
    """
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if type(value) is FrozenMap:
        return value  # made by freeze (or of frozen parts): frozen all the way down already
    if isinstance(value, (list, tuple)):
        return tuple(freeze(item, f"{path}[{index}]") for index, item in enumerate(value))
    if isinstance(value, Mapping):
        frozen = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise NotJsonError(f"{path or 'value'} has a non-string key {key!r}")
            frozen[key] = freeze(item, f"{path}.{key}")
        return FrozenMap(frozen)
    raise NotJsonError(f"{path or 'value'} holds a {type(value).__name__}, which is not a JSON value")


class NotPlainError(Exception):
    """:func:`freeze_plain` met a value it leaves to :func:`freeze` (which decides what it is)."""


# The scalars a JSON parser makes; exactly these types, not subclasses of them.
_PLAIN_SCALARS = frozenset({str, int, float, bool, type(None)})


def freeze_plain(value: Any) -> Any:
    """:func:`freeze` for a value made only of dicts, lists and the plain scalars, as a JSON
    parser makes them: the same result, faster (no path is kept for messages, nothing is
    copied twice). Anything else, a subclass included, raises :class:`NotPlainError`.
    """
    kind = type(value)
    if kind is list or kind is tuple:
        return tuple([item if type(item) in _PLAIN_SCALARS else freeze_plain(item) for item in value])
    if kind is dict:
        frozen = {}
        for key, item in value.items():
            if type(key) is not str:
                raise NotPlainError
            frozen[key] = item if type(item) in _PLAIN_SCALARS else freeze_plain(item)
        return FrozenMap._adopt(frozen)
    if kind in _PLAIN_SCALARS:
        return value
    raise NotPlainError


def thaw(value: Any) -> Any:
    """Return a plain list/dict copy of a value made by :func:`freeze`."""
    kind = type(value)
    if kind is tuple:  # the usual types first, then any subclass as before
        return [item if type(item) in _PLAIN_SCALARS else thaw(item) for item in value]
    if kind is FrozenMap:
        return {key: item if type(item) in _PLAIN_SCALARS else thaw(item) for key, item in value._data.items()}
    if kind in _PLAIN_SCALARS:
        return value
    if isinstance(value, tuple):
        return [thaw(item) for item in value]
    if isinstance(value, Mapping):
        return {key: thaw(item) for key, item in value.items()}
    return value
