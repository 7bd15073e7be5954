"""MCP operations turned into what a run records: a tool result and a run step with its legs.

A transport failure or a tool's ``isError`` becomes a *failed* tool result; a cancellation a
*cancelled* one (never failed). Either way the caller (the agent loop) is told and carries on.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from gettext import ngettext
from typing import Any

from inspector.mcp import (
    CancelSignal,
    FanOut,
    McpClient,
    McpTransportError,
    OperationObserver,
    OperationRecorder,
    ServerEndpoint,
)
from inspector.runs import Leg, RunStep, RunTrace, StepKind, ToolOutcome, ToolResult


@dataclass(frozen=True)
class OperationRecord:
    """One finished operation, ready to store."""

    step: RunStep
    #: The run's status if this operation were the whole run: ok, failed or cancelled.
    status: str
    #: What the server's health counts: ok, tool_error (it answered; the tool reported an error),
    #: failed, or cancelled (not its fault).
    health: str
    latency_ms: float
    started_at: datetime
    error: McpTransportError | None
    result: Any = None
    tool_result: ToolResult | None = None


def _legs(recorder: OperationRecorder) -> tuple[Leg, ...]:
    return tuple(Leg(leg.method, leg.granted_s, None if leg.elapsed_ms is None else round(leg.elapsed_ms, 2),
                     leg.http_status, leg.outcome.value) for leg in recorder.legs)


def _elapsed_ms(recorder: OperationRecorder) -> float:
    return round(recorder.finished.elapsed_ms, 2) if recorder.finished else 0.0


def tool_result_for(tool: str, server: ServerEndpoint, result: Any, error: McpTransportError | None) -> ToolResult:
    """The adapter: a client outcome as a :class:`ToolResult`, bounded like every tool result."""
    if error is not None and error.is_cancellation:
        tool_result = ToolResult.cancelled(error.message, in_flight=bool(error.in_flight))
    elif error is not None:
        tool_result = ToolResult.error(error.message)
    elif result.is_error:
        tool_result = ToolResult.error(
            f"The tool {tool} on the server {server.label} reported an error: {result.content}")
    else:
        tool_result = ToolResult.text(result.content)
    return tool_result.with_bounded_channels()


async def execute_tool(client: McpClient, server: ServerEndpoint, tool: str, arguments: dict[str, Any] | None,
                       *, round: int = 0, trace: RunTrace | None = None, budget_s: object = None,
                       cancel: CancelSignal | None = None,
                       observer: OperationObserver | None = None) -> OperationRecord:
    """Call a tool and record it as a tool step (through ``trace`` if given). Never raises for
    a transport failure or a cancel: those are outcomes."""
    recorder = OperationRecorder()
    started_at = datetime.now(timezone.utc)
    result, error = None, None
    try:
        result = await client.call_tool(server, tool, arguments, budget_s=budget_s, cancel=cancel,
                                        observer=FanOut(recorder, observer))
    except McpTransportError as exc:
        error = exc
    tool_result = tool_result_for(tool, server, result, error)
    trace = trace if trace is not None else RunTrace()
    step = trace.record_tool_result(round, tool, arguments or {}, tool_result, _elapsed_ms(recorder),
                                    legs=_legs(recorder))
    if tool_result.outcome is ToolOutcome.CANCELLED:
        health = "cancelled"
    elif error is not None:
        health = "failed"
    else:  # the server answered; the tool may still have reported its own error, counted apart
        health = "tool_error" if tool_result.outcome is ToolOutcome.FAILED else "ok"
    return OperationRecord(step, tool_result.outcome.value, health, _elapsed_ms(recorder), started_at, error,
                           result, tool_result)


async def _request_step(operation: str, describe: Callable[[Any], str],
                        call: Callable[[OperationRecorder], Awaitable[Any]]) -> OperationRecord:
    """Run a non-tool operation and record it as a ``request`` step (no tool outcome)."""
    recorder = OperationRecorder()
    started_at = datetime.now(timezone.utc)
    result, error = None, None
    try:
        result = await call(recorder)
    except McpTransportError as exc:
        error = exc
    content = describe(result) if error is None else error.message
    step = RunStep(kind=StepKind.REQUEST, round=0, duration_ms=_elapsed_ms(recorder),
                   content=f"{operation}: {content}", legs=_legs(recorder))
    status = "ok" if error is None else ("cancelled" if error.is_cancellation else "failed")
    return OperationRecord(step, status, status, _elapsed_ms(recorder), started_at, error, result)


def _catalogue_summary(catalogue: Any) -> str:
    """'4 tools: a, b, c, d. Read in 1 page.' with real plural forms (ready for gettext's ngettext)."""
    count, pages = len(catalogue.tools), catalogue.pages
    return (ngettext("{count} tool: {names}.", "{count} tools: {names}.", count).format(
                count=count, names=", ".join(catalogue.names))
            + " " + ngettext("Read in {pages} page.", "Read in {pages} pages.", pages).format(pages=pages))


async def list_tools_step(client: McpClient, server: ServerEndpoint, *, budget_s: object = None,
                          cancel: CancelSignal | None = None,
                          observer: OperationObserver | None = None) -> OperationRecord:
    """Walk the catalogue and record it as a ``request`` step (a catalogue walk is not a tool call)."""
    return await _request_step(
        "tools/list",
        _catalogue_summary,
        lambda recorder: client.list_tools(server, budget_s=budget_s, cancel=cancel,
                                           observer=FanOut(recorder, observer)))


async def ping_step(client: McpClient, server: ServerEndpoint, *, budget_s: object = None,
                    cancel: CancelSignal | None = None,
                    observer: OperationObserver | None = None) -> OperationRecord:
    """The handshake only, recorded as a ``request`` step."""
    return await _request_step(
        "ping",
        lambda ping: f"the server {ping.server_name or '(unnamed)'} speaks MCP {ping.protocol_version}",
        lambda recorder: client.ping(server, budget_s=budget_s, cancel=cancel, observer=FanOut(recorder, observer)))
