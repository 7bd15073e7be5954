"""W3C trace context on the requests of an operation that belongs to a run.

A layer above says which trace an operation belongs to by running it inside :func:`traced`
with a :class:`TraceContext` (the run's trace id, and the span id of each of its legs). Every
request of the operation then carries ``traceparent`` (version ``00``, sampled) naming the
trace and the span of the leg it travels in: in ``params._meta`` on every transport (the key
the official ``mcp`` SDK's server reads to join a trace), and as an HTTP header on the
transports that have headers. A ``traceparent`` header the user configured for the server is
left as it is (it is theirs); ``_meta`` still names the run's leg.

Outside :func:`traced` nothing is added (the stateless era's per-operation one stays as it was),
and nothing outside a leg carries one (the standalone GET stream, the housekeeping after an operation).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

__all__ = ["TRACEPARENT", "TraceContext", "in_leg", "leg_traceparent", "operation_trace", "trace_headers", "traced",
           "with_traceparent"]

#: The key in ``_meta`` and the HTTP header's name (W3C Trace Context, level 1).
TRACEPARENT = "traceparent"
_TRACE_ID = re.compile(r"[0-9a-f]{32}")
_SPAN_ID = re.compile(r"[0-9a-f]{16}")


@dataclass(frozen=True)
class TraceContext:
    """The trace an operation's requests join: ``trace_id`` (32 hex digits) and ``leg_span``,
    the span id (16 hex digits) of the leg at a position (from 0, in the order the legs start)."""

    trace_id: str
    leg_span: Callable[[int], str]

    def traceparent(self, position: int) -> str:
        span = self.leg_span(position)
        if not _TRACE_ID.fullmatch(self.trace_id) or not _SPAN_ID.fullmatch(span):
            raise ValueError("a trace id is 32 and a span id 16 lower-case hex digits")
        return f"00-{self.trace_id}-{span}-01"


_OPERATION: ContextVar[TraceContext | None] = ContextVar("run_inspector_operation_trace", default=None)
_LEG: ContextVar[str | None] = ContextVar("run_inspector_leg_traceparent", default=None)


@contextmanager
def traced(context: TraceContext | None) -> Iterator[None]:
    """The operations started inside carry ``context`` (``None``: none)."""
    token = _OPERATION.set(context)
    try:
        yield
    finally:
        _OPERATION.reset(token)


def operation_trace() -> TraceContext | None:
    """The trace context an operation starting now belongs to."""
    return _OPERATION.get()


@contextmanager
def in_leg(traceparent: str | None) -> Iterator[None]:
    """While one leg travels: its ``traceparent`` (``None``: the operation has no trace)."""
    token = _LEG.set(traceparent)
    try:
        yield
    finally:
        _LEG.reset(token)


def leg_traceparent() -> str | None:
    """The ``traceparent`` of the leg in flight, if its operation belongs to a trace."""
    return _LEG.get()


def with_traceparent(message: Mapping[str, Any]) -> Mapping[str, Any]:
    """A JSON-RPC request with the leg's ``traceparent`` in ``params._meta`` (a copy; the message
    itself when there is no trace, or for a notification or an answer)."""
    traceparent = _LEG.get()
    if traceparent is None or "id" not in message or "method" not in message:
        return message
    params = message.get("params")
    params = dict(params) if isinstance(params, Mapping) else {}
    meta = params.get("_meta")
    params["_meta"] = {**(meta if isinstance(meta, Mapping) else {}), TRACEPARENT: traceparent}
    return {**message, "params": params}


def trace_headers(configured: Mapping[str, str]) -> dict[str, str]:
    """The ``traceparent`` header of the leg in flight, unless the user configured one."""
    traceparent = _LEG.get()
    if traceparent is None or any(name.lower() == TRACEPARENT for name in configured):
        return {}
    return {TRACEPARENT: traceparent}
