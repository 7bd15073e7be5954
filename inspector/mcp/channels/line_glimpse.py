"""What a message on a line is, from its beginning and its end alone: whose answer it is.

A line too long to keep (or broken off) cannot be parsed, but the request it answers should not
wait for its whole deadline. A JSON-RPC message is one object whose top-level members name it:
``id`` with ``result`` or ``error`` is an answer, ``method`` a request or a notification. The
members beside a huge value are short, and writers put them first (the Python SDK:
``{"jsonrpc", "id", "result"}``) or last (the TypeScript SDK: ``{"result", "jsonrpc", "id"}``).
:func:`glimpse` reads the top-level members it can from the line's head forwards and from its tail
backwards, and says only what those members show: a message whose ``id`` sits between two huge
values is not placed (its request keeps waiting, as before).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

#: How much of a line's beginning and end is kept to be looked at.
EDGE_BYTES = 4096

_DECODER = json.JSONDecoder()
_SPACE = " \t\r\n"
_TOKEN = set("0123456789+-.eEtruefalsn")


@dataclass(frozen=True)
class Glimpse:
    """The top-level members seen: ``keys`` their names, ``id`` the ``id``'s value (``None``: not seen)."""

    keys: frozenset[str]
    id: Any = None

    @property
    def answer_id(self) -> Any:
        """The id of the request this message answers, or ``None`` when it is not seen to be an answer."""
        if "method" in self.keys or not self.keys & {"result", "error"}:
            return None
        return self.id


def glimpse(head: bytes, tail: bytes) -> Glimpse:
    """The members seen from ``head`` (the line's first bytes) and ``tail`` (its last bytes)."""
    members: dict[str, Any] = {}
    _forwards(head.decode("utf-8", "ignore"), members)
    _backwards(tail.decode("utf-8", "ignore"), members)
    value = members.get("id")
    return Glimpse(frozenset(members), value if isinstance(value, (str, int)) and not isinstance(value, bool) else None)


def last_object_start(text: str) -> int | None:
    """Where the JSON object that ends ``text`` (spaces aside) begins, matched back from its closing
    brace through strings and brackets; ``None`` when ``text`` does not end with one, or it never
    opens. Whatever stands before that brace is not part of it, whatever it is."""
    return _value_start(text, _skip_back(text, len(text))) if text.rstrip(_SPACE).endswith("}") else None


_UNSEEN = object()  # a member whose name was read but whose value runs past the edge


def _forwards(text: str, members: dict[str, Any]) -> None:
    position = _skip(text, 0)
    if not text.startswith("{", position):
        return
    position += 1
    while True:
        try:
            name, position = _DECODER.raw_decode(text, _skip(text, position))
        except ValueError:
            return
        position = _skip(text, position)
        if not isinstance(name, str) or not text.startswith(":", position):
            return
        try:
            value, position = _DECODER.raw_decode(text, _skip(text, position + 1))
        except (ValueError, RecursionError):
            members.setdefault(name, _UNSEEN)  # its value goes on past the head
            return
        members[name] = value
        position = _skip(text, position)
        if not text.startswith(",", position):
            return
        position += 1


def _backwards(text: str, members: dict[str, Any]) -> None:
    end = _skip_back(text, len(text))
    if end == 0 or text[end - 1] != "}":
        return
    end -= 1
    while True:
        start = _value_start(text, _skip_back(text, end))
        if start is None:
            return
        colon = _skip_back(text, start)
        if colon == 0 or text[colon - 1] != ":":
            return
        name_end = _skip_back(text, colon - 1)
        name_start = _string_start(text, name_end)
        if name_start is None:
            return
        try:
            name = json.loads(text[name_start:name_end])
            value = json.loads(text[start:_skip_back(text, end)])
        except (ValueError, RecursionError):
            return
        if not isinstance(name, str):
            return
        members.setdefault(name, value)
        before = _skip_back(text, name_start)
        if before == 0 or text[before - 1] != ",":
            return  # the object's "{" (all of it seen), or the edge of the tail
        end = before - 1


def _value_start(text: str, end: int) -> int | None:
    """Where the JSON value that ends at ``end`` begins, or ``None`` when it begins before the tail."""
    if end == 0:
        return None
    last = text[end - 1]
    if last == '"':
        return _string_start(text, end)
    if last in "}]":
        depth, position = 0, end
        while position > 0:
            char = text[position - 1]
            if char == '"':
                start = _string_start(text, position)
                if start is None:
                    return None
                position = start
                continue
            depth += 1 if char in "}]" else -1 if char in "{[" else 0
            position -= 1
            if depth == 0:
                return position
        return None
    position = end
    while position > 0 and text[position - 1] in _TOKEN:
        position -= 1
    return position if 0 < position < end else None


def _string_start(text: str, end: int) -> int | None:
    """Where the string that ends with the quote before ``end`` begins (its opening quote): the
    nearest quote before it that no backslash escapes (an even run of backslashes escapes nothing)."""
    if end == 0 or text[end - 1] != '"':
        return None
    position = end - 1
    while True:
        position = text.rfind('"', 0, position)
        if position < 0:
            return None
        slashes = position
        while slashes > 0 and text[slashes - 1] == "\\":
            slashes -= 1
        if slashes == 0 and position > 0:
            return None  # the run of backslashes reaches the tail's edge: cannot tell
        if (position - slashes) % 2 == 0:
            return position


def _skip(text: str, position: int) -> int:
    while position < len(text) and text[position] in _SPACE:
        position += 1
    return position


def _skip_back(text: str, position: int) -> int:
    while position > 0 and text[position - 1] in _SPACE:
        position -= 1
    return position


__all__ = ["EDGE_BYTES", "Glimpse", "glimpse", "last_object_start"]
