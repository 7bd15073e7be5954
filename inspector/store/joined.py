"""The span tree of a run of ours that spans of another tool joined (a server's spans made under the
``traceparent`` our requests carried; docs/trace-format.md, "Server spans in a run of ours").

Our own steps keep no span (``raw.otlp``), but their span ids are known: those our OTLP export gives
the step and each of its legs (:mod:`inspector.runs.trace_ids`). Each of our steps is a node with its
step's span id, and its legs' span ids lead to it too, so a server span whose parent is one of our
legs hangs under our step.
"""

from __future__ import annotations

from inspector.runs.trace_ids import leg_span_id, step_span_id

from .browse import SpanNodes, _span_marks
from .run_store import RunStore

__all__ = ["has_joined_spans", "our_span_nodes"]

_VALID = "CASE WHEN json_valid(s.payload) THEN s.payload ELSE '{}' END"

#: A step made of a span is always of round 0: that column is read first, so the payloads of a long
#: agent run (its steps of later rounds) are not parsed when the run is opened.
_JOINED = f"""SELECT 1 FROM steps s WHERE s.run_id = ? AND s.round = 0
    AND json_extract({_VALID}, '$.raw.otlp.spanId') IS NOT NULL LIMIT 1"""

_NODES = f"""SELECT s.id, s.kind, s.outcome, s.sequence, (SELECT COUNT(*) FROM legs WHERE legs.step_id = s.id),
    json_extract({_VALID}, '$.raw.otlp.spanId', '$.raw.otlp.parentSpanId', '$.raw.otlp.plumbing')
    FROM steps s WHERE s.run_id = ? ORDER BY s.started_at, s.sequence"""


def has_joined_spans(store: RunStore, run_id: int) -> bool:
    """Whether any step of the run is another tool's span."""
    return store.db.conn.execute(_JOINED, (run_id,)).fetchone() is not None


def our_span_nodes(store: RunStore, run_id: int, uid: str) -> SpanNodes:
    """The run's steps in time order as nodes of its span tree; ``aliases`` maps each of our legs'
    span ids to its step's."""
    nodes = SpanNodes()
    for step_id, kind, outcome, sequence, legs, marks in store.db.conn.execute(_NODES, (run_id,)):
        span, parent, plumbing = _span_marks(marks)
        if span is None:  # a step of ours: the span our export gives it, its legs leading to it
            span, parent = step_span_id(uid, sequence), None
            for position in range(legs):
                nodes.aliases[leg_span_id(uid, sequence, position)] = span
        nodes.step_ids.append(step_id)
        nodes.span_ids.append(span)
        nodes.parent_ids.append(parent)
        nodes.plumbing.append(plumbing)
        nodes.kinds.append(kind)
        nodes.outcomes.append(outcome or "")
    return nodes
