"""Real OpenTelemetry SDK spans of which the receiver refuses one, for the tests of how a refusal is said."""

from __future__ import annotations

import time

from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

#: What the receiver says of them (in English).
REFUSED = "1 span of a request was refused: spans[0].endTimeUnixNano: the span ends before it starts"


def spans_one_backwards() -> list[ReadableSpan]:
    """An agent's root span and, under it, a span its code ended before it started (ended first: ``spans[0]``)."""
    kept = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(kept))
    tracer = provider.get_tracer("agent")
    now = time.time_ns()
    with tracer.start_as_current_span("invoke_agent support-agent"):
        tracer.start_span("backwards", start_time=now).end(end_time=now - 1_000_000)
    return list(kept.get_finished_spans())
