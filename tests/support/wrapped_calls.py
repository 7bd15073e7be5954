"""OTLP JSON traces of MCP tool calls wrapped in an agent's tool spans (an OpenInference TOOL span around
the SDK client's ``MCP send tools/call`` span of the same tool, or of another, or around another TOOL
span), for the tests and the benchmark of what a failed run's reason costs (``runs list``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

T0 = 1_796_218_495_000_000_000
SLOT_NS = 1_000_000
ROOT = "a" * 16
FAILED = {"code": 2, "message": "boom"}
OK = {"code": 1}


class AgentTrace:
    """One trace, one run: an agent's ``invoke_agent`` span with tool calls under it, each call given a
    millisecond of its own (a wrapper a little before and after what it wraps)."""

    def __init__(self, number: int) -> None:
        self.trace = f"{number:032x}"
        self.spans: list[dict[str, Any]] = []
        self.slots = 0

    def _span(self, name: str, parent: str, span_id: str | None, depth: int, status: dict[str, Any],
              attributes: dict[str, str]) -> str:
        span_id = span_id or f"{len(self.spans) + 1:016x}"
        start = T0 + self.slots * SLOT_NS + depth * 1_000
        self.spans.append({"traceId": self.trace, "spanId": span_id, "parentSpanId": parent, "name": name,
                           "kind": 3, "startTimeUnixNano": str(start),
                           "endTimeUnixNano": str(start + SLOT_NS // 2 - 2 * depth * 1_000),
                           "attributes": [{"key": key, "value": {"stringValue": value}}
                                          for key, value in attributes.items()],
                           "status": status})
        return span_id

    def call(self, tool: str, *, parent: str = ROOT, failed: bool = False, span_id: str | None = None,
             depth: int = 0) -> str:
        """The SDK client's span of one ``tools/call`` of ``tool``."""
        return self._span(f"MCP send tools/call {tool}", parent, span_id, depth, FAILED if failed else {},
                          {"mcp.method.name": "tools/call"})

    def wrapped(self, tools: list[str], *, failed: set[int] = frozenset()) -> None:
        """A call of ``tools[-1]`` under agent TOOL spans of ``tools[0]`` (outermost) to ``tools[-2]``,
        each the parent of the next; the spans at the levels in ``failed`` (0: outermost) recorded an error,
        the other TOOL spans status ok (their framework handed an error to the model as the tool's output)."""
        parent = ROOT
        for depth, tool in enumerate(tools[:-1]):
            parent = self._span(tool, parent, None, depth, FAILED if depth in failed else OK,
                                {"openinference.span.kind": "TOOL", "tool.name": tool})
        self.call(tools[-1], parent=parent, failed=len(tools) - 1 in failed, depth=len(tools) - 1)
        self.slots += 1

    def document(self) -> dict[str, Any]:
        end = T0 + (self.slots + 1) * SLOT_NS
        root = {"traceId": self.trace, "spanId": ROOT, "name": "invoke_agent support-agent", "kind": 1,
                "startTimeUnixNano": str(T0 - 1_000), "endTimeUnixNano": str(end),
                "attributes": [{"key": "gen_ai.operation.name", "value": {"stringValue": "invoke_agent"}}],
                "status": {}}
        return {"resourceSpans": [{"resource": {"attributes": [
            {"key": "service.name", "value": {"stringValue": "support-agent"}}]},
            "scopeSpans": [{"scope": {"name": "wrapped"}, "spans": [root, *self.spans]}]}]}


def write_traces(path: Path, traces: list[AgentTrace]) -> Path:
    """``path``, written as OTLP JSON Lines: a line a trace."""
    path.write_text("".join(json.dumps(trace.document(), separators=(",", ":")) + "\n" for trace in traces),
                    encoding="utf-8")
    return path


def wrapped_calls(path: Path, calls: int, failed_every: int = 100) -> Path:
    """One run of ``calls`` calls of ``lookup``, each under the agent's TOOL span of ``lookup``; every
    ``failed_every``-th call failed (the SDK's span; its wrapper's own status said ok)."""
    trace = AgentTrace(1)
    for number in range(calls):
        trace.wrapped(["lookup", "lookup"], failed={1} if (number + 1) % failed_every == 0 else set())
    return write_traces(path, [trace])
