"""Splunk's FastMCP instrumentation read faithfully (tests/fixtures/otel/splunk_fastmcp.jsonl, recorded by
make_traces.py with ``splunk-otel-instrumentation-fastmcp`` 0.2.2 on FastMCP 3.4 and ``mcp`` 1.30: ``lookup`` ok,
``fail`` with the tool's error, ``slow`` timed out by the client, ``slow`` cancelled by the agent)."""

from __future__ import annotations

import json
from typing import Any

from inspector.store import RunStore
from inspector.traces.conventions import understand
from inspector.transfer.importing import import_trace
from tests.unit.traces.test_otel_agents import FIXTURES

SPLUNK_SCOPE = "opentelemetry.util.genai.handler"


def agent_tool_steps(empty_store: RunStore) -> list[dict[str, Any]]:
    import_trace(empty_store, FIXTURES / "splunk_fastmcp.jsonl")
    (run,) = [run for run in empty_store.list_runs(limit=None) if run.title == "invoke_agent support-agent"]
    steps = [dict(step.payload, outcome=step.outcome) for step in empty_store.iter_steps(run.id)]
    return [step for step in steps if step["kind"] == "tool" and step["raw"]["otlp"]["service"] == "support-agent"]


def test_splunk_client_span_result_is_fastmcp_s_call_tool_result_read_as_its_content(empty_store: RunStore) -> None:
    """The client's ``execute_tool`` span records FastMCP's ``CallToolResult`` with Python names
    (``structured_content``, ``is_error``, ``data``): it read as that JSON, now as its content blocks."""
    steps = agent_tool_steps(empty_store)
    splunk = [step for step in steps if step["raw"]["otlp"]["scope"]["name"] == SPLUNK_SCOPE]
    assert [(step["toolName"], step["outcome"]) for step in splunk] == [("lookup", "ok"), ("fail", "failed"),
                                                                        ("slow", "failed")]
    lookup = splunk[0]
    written = json.loads(lookup["raw"]["otlp"]["attributes"]["gen_ai.tool.call.result"])
    assert set(written) == {"content", "structured_content", "meta", "data", "is_error"}
    assert lookup["toolResult"] == "Berlin: 21 °C, clear" and lookup["contentBlocks"] == [{"type": "text", "size": 21}]
    assert lookup["toolArguments"] == {"city": "Berlin"}
    assert splunk[2]["raw"]["otlp"]["timedOut"] is True
    # the cancelled call: Splunk's span of it never ended (nor was sent); FastMCP's own span under it says no outcome
    cancelled = steps[-1]
    assert cancelled["raw"]["otlp"]["scope"]["name"] == "fastmcp" and cancelled["outcome"] == ""


def test_fastmcp_call_tool_result_with_is_error_fails_the_step() -> None:
    result = json.dumps({"content": [{"type": "text", "text": "upstream 503", "annotations": None, "meta": None}],
                         "structured_content": None, "meta": None, "data": None, "is_error": True})
    meaning = understand("tools/call fail", 3, {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "fail",
                                                "gen_ai.tool.call.result": result}, SPLUNK_SCOPE)
    assert (meaning.result, meaning.result_is_error) == ("upstream 503", True)
    # a dict with other keys is no CallToolResult: it stays the text it was
    other = json.dumps({"content": [{"type": "text", "text": "x"}], "is_error": False, "extra": 1})
    assert understand("t", 3, {"gen_ai.tool.name": "t", "gen_ai.tool.call.result": other}).result == other
