"""Real OpenTelemetry SDK spans (the SDK recording an agent), among them spans of which the receiver refuses one, for
the tests of how a refusal is said."""

from __future__ import annotations

import time
from collections.abc import Callable

from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import Tracer

#: What the receiver says of them (in English).
REFUSED = "1 span of a request was refused: spans[0].endTimeUnixNano: the span ends before it starts"


def sdk_spans(agent: Callable[[Tracer], None]) -> list[ReadableSpan]:
    """The spans the real SDK records of ``agent`` (given a tracer), as its exporter would be handed them."""
    kept = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(kept))
    agent(provider.get_tracer("agent"))
    return list(kept.get_finished_spans())


def spans_one_backwards() -> list[ReadableSpan]:
    """An agent's root span and, under it, a span its code ended before it started (ended first: ``spans[0]``)."""
    def agent(tracer: Tracer) -> None:
        now = time.time_ns()
        with tracer.start_as_current_span("invoke_agent support-agent"):
            tracer.start_span("backwards", start_time=now).end(end_time=now - 1_000_000)

    return sdk_spans(agent)
