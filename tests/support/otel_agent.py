"""An agent nobody here wrote the instrumentation of, exporting its traces to an OTLP/HTTP receiver.

The official ``mcp`` SDK's client (which emits OpenTelemetry spans itself) calls the demo server
(the ``mcp`` SDK's server, in this process, emitting its server spans), instrumented with
``opentelemetry-instrumentation-httpx`` from PyPI (its ``HTTPX2ClientInstrumentor``: ``mcp`` 2.x speaks HTTP
through ``httpx2``); the OpenTelemetry SDK's own OTLP/HTTP exporter
(protobuf, gzip) sends every span to the receiver. What the agent does, in one trace under its
root span: ``tools/list``; ``echo`` (ok); ``fail`` (the tool reports an error); ``hang``, cancelled
by the agent after 0.3 s.

Run: ``python tests/support/otel_agent.py RECEIVER_URL``; prints ``TRACE <trace id>`` at the end.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

CANCEL_AFTER_S = 0.3


async def _call(client: Any, tracer: Any, name: str, arguments: dict[str, Any], cancel_after: float | None) -> None:
    """One tool call inside the agent's own ``execute_tool`` span (the GenAI conventions' span of an
    agent's tool execution), which says ``error.type = cancelled`` when the agent cancels it: the
    ``mcp`` SDK's own spans record nothing of a cancel."""
    import anyio
    from opentelemetry import trace

    with tracer.start_as_current_span(f"execute_tool {name}", attributes={
            "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name}) as span:
        with anyio.move_on_after(cancel_after if cancel_after is not None else float("inf")) as scope:
            result = await client.call_tool(name, arguments)
            if result.is_error:
                span.set_attribute("error.type", "tool_error")
                span.set_status(trace.StatusCode.ERROR, "the tool reported an error")
        if scope.cancelled_caught:
            span.set_attribute("error.type", "cancelled")


async def _agent(url: str) -> str:
    from mcp import Client
    from opentelemetry import trace

    tracer = trace.get_tracer("support-agent", "1.0")
    with tracer.start_as_current_span("invoke_agent support-agent", attributes={
            "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "support-agent"}) as root:
        async with Client(url, mode="legacy") as client:
            await client.list_tools()
            await _call(client, tracer, "echo", {"text": "hello"}, None)
            await _call(client, tracer, "fail", {}, None)
            await _call(client, tracer, "hang", {}, CANCEL_AFTER_S)
        return format(root.get_span_context().trace_id, "032x")


def main(receiver_url: str) -> None:
    from opentelemetry import trace
    from opentelemetry.exporter.otlp.proto.http import Compression
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.instrumentation.httpx import HTTPX2ClientInstrumentor
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    from inspector.demo import DemoServer

    provider = TracerProvider(resource=Resource.create({"service.name": "support-agent"}))
    exporter = OTLPSpanExporter(endpoint=receiver_url, compression=Compression.Gzip)
    provider.add_span_processor(BatchSpanProcessor(exporter, schedule_delay_millis=200))
    trace.set_tracer_provider(provider)
    HTTPX2ClientInstrumentor().instrument()  # mcp 2.x speaks HTTP through httpx2
    with DemoServer() as server:
        trace_id = asyncio.run(_agent(server.url))
    provider.shutdown()  # flushes the last batch
    print(f"TRACE {trace_id}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
