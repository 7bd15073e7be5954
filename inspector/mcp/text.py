"""Text from the wire made valid Unicode, once, where it enters.

JSON may spell a lone surrogate (``"a\\udc00b"``): valid JSON, but not text. Such a string
cannot be encoded as UTF-8, so storing it, printing it or exporting it would fail far from
here. :func:`load_wire_json` parses an answer and replaces every lone surrogate (in strings
and in object keys) by U+FFFD, the replacement character; everything after it can rely on
valid text.
"""

from __future__ import annotations

import json
import re
from typing import Any

REPLACEMENT = "\ufffd"

# Only an escape can put a surrogate into parsed JSON (raw bytes are decoded as UTF-8 first),
# so text without one needs no walk at all.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")


def load_wire_json(data: str | bytes) -> Any:
    """``json.loads`` for text a server sent, with lone surrogates replaced by U+FFFD.

    Raises what ``json.loads`` raises (``ValueError``, ``RecursionError``).
    """
    value = json.loads(data)
    probe = data if isinstance(data, str) else data.decode("utf-8", "replace")
    if _SURROGATE_ESCAPE.search(probe) is None:
        return value
    return repair_text(value)


def repair_string(text: str) -> str:
    """``text`` with each lone surrogate replaced by U+FFFD (a proper pair was joined by the parser)."""
    return _LONE_SURROGATE.sub(REPLACEMENT, text)


def repair_text(value: Any) -> Any:
    """A copy of the JSON value with every string and key made valid Unicode (iterative: a
    deeply nested answer cannot exhaust the stack)."""
    root: list[Any] = [value]
    pending: list[tuple[Any, Any]] = [(root, 0)]
    while pending:
        parent, slot = pending.pop()
        item = parent[slot]
        if isinstance(item, str):
            parent[slot] = repair_string(item)
        elif isinstance(item, dict):
            copy = {repair_string(key): child for key, child in item.items()}
            parent[slot] = copy
            pending.extend((copy, key) for key in copy)
        elif isinstance(item, list):
            copy_list = list(item)
            parent[slot] = copy_list
            pending.extend((copy_list, index) for index in range(len(copy_list)))
    return root[0]
