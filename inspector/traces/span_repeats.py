"""A span id that comes again in its trace: the first span with an id is the one kept.

A trace file made by ``cat a.jsonl a.jsonl``, a collector that wrote a batch twice, an exporter that
sent a request again: each span comes twice, and is one span. Two *different* spans under one id
(an instrumentation that reuses ids) cannot both be the span the id names; the first is kept, as the
receiver keeps the first it was sent, and the others are counted apart, so an import can say so.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from typing import Any

from orjson import dumps

from .otlp import Span

__all__ = ["SpanRepeats", "fingerprint"]


def fingerprint(span: Span) -> int:
    """A number equal for two spans that are the same in all an import reads of them (name, parent,
    times, status, attributes, events, links), however they were written (ids in hex or base64, times
    as strings or numbers, OTLP JSON or protobuf): what tells a span sent again from another span under
    its id."""
    try:
        text = dumps(span)
    except TypeError:  # a value orjson does not write (a whole number past 64 bits in an attribute)
        text = repr(span).encode()
    return hash(text)


class SpanRepeats:
    """The span ids seen per trace (each with its span's :func:`fingerprint`), and the repeats left out."""

    def __init__(self, new_table: Callable[[], MutableMapping[Any, Any]] = dict) -> None:
        #: trace id → {span id: fingerprint}; a table on disk holds a copy, so it is stored again when changed
        self._seen: MutableMapping[str, dict[str, int]] = new_table()
        #: spans left out that are the same as the first span with their id
        self.repeated = 0
        #: spans left out that differ from the first span with their id
        self.clashing = 0

    def first(self, span: Span) -> bool:
        """True for the first span with its id in its trace; False (and counted) for any later one."""
        seen = self._seen.get(span.trace_id)
        if seen is None:
            seen = {}
        mark = fingerprint(span)
        known = seen.get(span.span_id)
        if known is None:
            seen[span.span_id] = mark
            self._seen[span.trace_id] = seen
            return True
        if known == mark:
            self.repeated += 1
        else:
            self.clashing += 1
        return False
