"""Numbers JSON does not have (NaN and the infinities) as the text protobuf's JSON mapping spells them.

Python's JSON reader takes ``NaN``, ``Infinity`` and ``-Infinity`` (and reads ``1e999`` as an infinity),
and its writer writes them back: not JSON, which SQLite's JSON functions, our imports and other readers
refuse. What is stored or exported spells them as text instead, as the OpenTelemetry Collector's file
exporter does.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

#: How protobuf's JSON mapping writes a double that is no number JSON has (the OpenTelemetry Collector's
#: file exporter writes them so); read and written as that text.
NOT_FINITE_TEXTS = frozenset({"NaN", "Infinity", "-Infinity"})


def not_finite_text(number: float) -> str:
    """A NaN or an infinity as protobuf's JSON mapping spells it (one of :data:`NOT_FINITE_TEXTS`)."""
    return "NaN" if number != number else ("Infinity" if number > 0 else "-Infinity")


def finite_json(value: Any) -> Any:
    """``value`` with every NaN or infinite float as its protobuf JSON text. Iterative: any depth."""
    root: list[Any] = [None]
    pending: list[tuple[Any, Any, Any]] = [(value, root, 0)]
    while pending:
        item, parent, slot = pending.pop()
        if isinstance(item, float) and not math.isfinite(item):
            parent[slot] = not_finite_text(item)
        elif isinstance(item, Mapping):
            parent[slot] = copy = dict(item)
            pending.extend((child, copy, key) for key, child in item.items())
        elif isinstance(item, (list, tuple)):
            parent[slot] = copy = list(item)
            pending.extend((child, copy, index) for index, child in enumerate(item))
        else:
            parent[slot] = item
    return root[0]
