"""The scalars of a parsed JSON value, in order: two parsers agree on types too, not only on equality
(``1 == 1.0`` and ``True == 1`` in Python)."""

from __future__ import annotations

from typing import Any


def leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in leaves(item)]
    if isinstance(value, list):
        return [leaf for item in value for leaf in leaves(item)]
    return [value]
