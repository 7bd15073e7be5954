"""Spans that are a session's plumbing rather than a step of anybody's work, beside those a convention marks
itself (Traceloop's stream writers, OpenLIT's ``mcp transport/request`` and its set-up: :mod:`.conventions`).

- The ``mcp`` SDK's span of a **notification received outside any request** (``notifications/initialized``,
  ``notifications/cancelled``, …, a span of kind SERVER without a parent): its client sends notifications without
  the trace context, so each is a trace of its own, one span, linked to no call (``mcp`` 2.3.0).
- Logfire's warning **"Found propagated trace context."** (a log, ``logfire.span_type = log``): Logfire says it on
  the server when a request brings a trace context, in a trace of its own; it is about the instrumentation's
  settings, not about the request.

Marked so (``raw.otlp.plumbing``), a span is kept whole and exported as it was; a timeline hides it until "Show
plumbing", and a run whose every step is plumbing is a *plumbing trace*, which ``runs list`` leaves out unless
asked (:mod:`inspector.store.plumbing_traces`). See docs/trace-format.md, "Plumbing". No I/O, no SQLite, no Qt.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["is_session_plumbing"]

_NOTIFICATION = "notifications/"
_LOGFIRE_PROPAGATED = "Found propagated trace context."


def is_session_plumbing(parent_id: str, attributes: Mapping[str, Any], scope_name: str, convention: str,
                        method: str) -> bool:
    """Whether a span (its parent's id, ``""`` for none; its attributes, scope name, and the convention and method
    :func:`~.conventions.understand` read) is a session's plumbing, as the module says."""
    if convention == "mcp":
        return not parent_id and method.startswith(_NOTIFICATION)
    if scope_name.startswith("logfire") and attributes.get("logfire.span_type") == "log":
        template = attributes.get("logfire.msg_template")
        return isinstance(template, str) and template.startswith(_LOGFIRE_PROPAGATED)
    return False
