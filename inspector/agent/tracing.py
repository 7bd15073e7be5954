"""The trace context of a step of a run: what its requests' ``traceparent`` names.

The run's trace id and each leg's span id are those our OTLP export gives the run and the step's
legs (:mod:`inspector.runs.trace_ids`), so a server's spans that joined the trace hang under
the very leg that carried the request when both are looked at together.
"""

from __future__ import annotations

from inspector.mcp.trace_context import TraceContext, traced
from inspector.runs.trace_ids import leg_span_id, trace_id

__all__ = ["TraceContext", "step_trace", "traced"]


def step_trace(uid: str, sequence: int) -> TraceContext:
    """The trace context of step ``sequence`` of the run ``uid``."""
    return TraceContext(trace_id(uid), lambda position: leg_span_id(uid, sequence, position))
