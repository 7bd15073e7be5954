"""OpenLIT's MCP spans read faithfully (tests/fixtures/otel/openlit.jsonl, recorded by make_traces.py with OpenLIT
1.45.0 instrumenting an ``mcp`` 1.30 agent and server: ``lookup`` ok, ``fail`` with ``isError``, ``slow`` timed out
by the client, ``slow`` cancelled by the agent). Before OpenLIT was read, every one of its spans was a ``request``
step: no tool step, no tool name, arguments or result, no outcome."""

from __future__ import annotations

import json
from typing import Any

import pytest

from inspector.store import RunStore
from inspector.traces.conventions import understand
from inspector.transfer.importing import import_trace
from tests.unit.traces.test_otel_agents import FIXTURES

SCOPE = "openlit.instrumentation.mcp"


def steps_by_run(empty_store: RunStore) -> dict[str, list[dict[str, Any]]]:
    """The steps of each run of the file by its title (the runs of one title together)."""
    import_trace(empty_store, FIXTURES / "openlit.jsonl")
    runs: dict[str, list[dict[str, Any]]] = {}
    for run in empty_store.list_runs(limit=None):
        runs.setdefault(run.title, []).extend(dict(step.payload, outcome=step.outcome)
                                              for step in empty_store.iter_steps(run.id))
    return runs


def test_openlit_calls_are_tool_steps_with_arguments_results_and_honest_outcomes(empty_store: RunStore) -> None:
    steps = steps_by_run(empty_store)["invoke_agent support-agent"]
    calls = [step for step in steps if step["kind"] == "tool"]
    assert all(step["raw"]["otlp"]["convention"] == "openlit" for step in calls)
    lookup, fail, timed_out, cancelled = calls
    assert [step["raw"]["otlp"]["name"] for step in calls] == ["mcp tools/call"] * 4
    assert (lookup["toolName"], lookup["toolArguments"], lookup["outcome"]) == ("lookup", {"city": "Berlin"}, "ok")
    # the answer's text block, read out of the Python repr OpenLIT wrote ("type='text' text='…' annotations=None …")
    assert lookup["toolResult"] == "Berlin: 21 °C, clear" and lookup["contentBlocks"] == [{"type": "text", "size": 21}]
    # the tool's error is only in the answer (isError): OpenLIT leaves the status unset
    assert fail["raw"]["otlp"]["status"]["code"] == 0
    assert (fail["toolName"], fail["outcome"], fail["toolIsError"]) == ("fail", "failed", True)
    assert fail["toolResult"].endswith("\nError executing tool fail: upstream 503 for Oslo")
    assert timed_out["outcome"] == "failed" and timed_out["raw"]["otlp"]["timedOut"] is True
    assert timed_out["toolResult"].lower().count("timed out") == 1
    # the agent's cancel: OpenLIT records no error, no answer and no duration for it
    assert cancelled["toolArguments"] == {"seconds": 0.8}
    assert cancelled["outcome"] == "" and "toolOutcome" not in cancelled
    assert cancelled["toolResult"].startswith("no outcome recorded")


def test_openlit_plumbing_is_marked_and_nothing_is_lost(empty_store: RunStore) -> None:
    """OpenLIT's span around the making of a call's coroutine (answer ``mcp_coroutine``) and the SDK's
    ``send_request`` under a call (``mcp transport/request``) are plumbing; every span is a step still."""
    runs = steps_by_run(empty_store)
    spans = sum(len(scope["spans"]) for line in (FIXTURES / "openlit.jsonl").read_text().splitlines()
                for resource in json.loads(line)["resourceSpans"] for scope in resource["scopeSpans"])
    assert sum(len(steps) for steps in runs.values()) == spans
    agent = runs["invoke_agent support-agent"]
    plumbing = [step["raw"]["otlp"] for step in agent if step["raw"]["otlp"].get("plumbing")]
    names = sorted({otlp["name"] for otlp in plumbing})
    assert names == ["mcp initialize", "mcp tools/call", "mcp tools/list", "mcp transport/request"]
    assert all(step["kind"] != "tool" or not step["raw"]["otlp"].get("plumbing") for step in agent)


def test_openlit_server_spans_are_server_sides_and_its_set_up_is_no_tool_call(empty_store: RunStore) -> None:
    runs = steps_by_run(empty_store)
    server = [step for step in runs["mcp server/run"] if step["kind"] == "tool"]
    outermost = [step for step in server if step["raw"]["otlp"].get("side") == "server"]
    assert [(step["toolName"], step["outcome"]) for step in outermost] == [
        ("lookup", "ok"), ("fail", "failed"), ("slow", "ok"), ("slow", "")]
    assert outermost[0]["toolResult"] == "Berlin: 21 °C, clear"  # from the (content, structured) pair
    assert outermost[1]["toolResult"].endswith("ToolError: Error executing tool fail: upstream 503 for Oslo")
    # the registration of the tool handler at start-up (kind SERVER, no tool): a request, not a call
    (registration,) = runs["mcp tools/call"]
    assert registration["kind"] == "request" and registration["raw"]["otlp"]["kind"] == 2


def test_openlit_call_without_content_capture_is_ok_when_it_returned() -> None:
    """Content capture off, OpenLIT writes no answer; a call that returned still has its duration."""
    attributes = {"mcp.operation.name": "tools_call", "mcp.system": "mcp", "mcp.tool.name": "lookup",
                  "mcp.request.payload": '{"method": "call_tool", "params": {"name": "lookup"}}'}
    returned = understand("mcp tools/call", 3, {**attributes, "mcp.client.operation.duration": 0.01}, SCOPE)
    assert (returned.kind, returned.tool, returned.answered, returned.result) == ("tool", "lookup", True, None)
    assert not understand("mcp tools/call", 3, attributes, SCOPE).answered
    from inspector.traces.outcomes import ending

    assert ending(returned, 0, "", {}, None).outcome == "ok"
    assert ending(understand("mcp tools/call", 3, attributes, SCOPE), 0, "", {}, None).outcome == ""


@pytest.mark.parametrize(("written", "text"), [
    ("type='text' text=\"it's 21 °C\" annotations=None meta=None", "it's 21 °C"),
    ("type='text' text='a \\'quoted\\' line\\nand one more' annotations=None meta=None",
     "a 'quoted' line\nand one more"),
    # a block of another kind, or anything else, stays the text OpenLIT wrote
    ("type='image' data='iVBO' mimeType='image/png' annotations=None meta=None",
     "type='image' data='iVBO' mimeType='image/png' annotations=None meta=None"),
    ("type='text' text=__import__('os') annotations=None", "type='text' text=__import__('os') annotations=None"),
])
def test_openlit_content_blocks_are_read_out_of_their_repr(written: str, text: str) -> None:
    answer = json.dumps({"content": [written], "isError": False})
    meaning = understand("mcp tools/call", 3, {"mcp.operation.name": "tools_call", "mcp.response.payload": answer,
                                              "mcp.request.payload": '{"params": {"args": ["t", {}]}}'}, SCOPE)
    assert (meaning.tool, meaning.arguments, meaning.result) == ("t", {}, text)


def test_openlit_answer_on_mcp_2_with_is_error_fails_the_step() -> None:
    """On ``mcp`` 2.3 OpenLIT writes the answer with the SDK's Python names (recorded with OpenLIT 1.45.0)."""
    answer = ('{"meta": null, "content": '
              '["type=\'text\' text=\'Error executing tool fail\' annotations=None meta=None"], '
              '"structured_content": null, "is_error": true, "result_type": "complete"}')
    attributes = {"mcp.operation.name": "tools_call", "mcp.system": "mcp", "mcp.method": "call_tool",
                  "mcp.request.payload": '{"method": "call_tool", "params": {"meta": null}}',
                  "mcp.client.operation.duration": 0.0277, "mcp.response.payload": answer}
    meaning = understand("mcp tools/call", 3, attributes, SCOPE)
    assert (meaning.kind, meaning.tool, meaning.result, meaning.result_is_error) == (
        "tool", None, "Error executing tool fail", True)


def test_spans_of_other_sources_with_an_operation_name_are_not_openlit_s() -> None:
    assert understand("mcp tools/call", 3, {"mcp.operation.name": "tools_call"}, "myapp").convention == ""
    assert understand("x", 3, {"mcp.operation.name": "tools_call", "mcp.system": "mcp"}).convention == "openlit"
