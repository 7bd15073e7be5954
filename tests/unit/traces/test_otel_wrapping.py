"""A tool span around the MCP call's own span (FastMCP's client span, an agent's OpenInference TOOL
span) read on the real traces of tests/fixtures/otel/: two steps for one call, and the wrapping one
no longer reads "ok" over a call that failed, was cancelled or recorded no outcome; it names the
step that holds the call's truth. The spans stay as their sources wrote them (export, import again)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from inspector.store import RunStore
from inspector.transfer import export
from inspector.transfer.importing import import_trace
from tests.unit.traces.test_otel_agents import FIXTURES, said_in_german

ROOT_SPAN = "f5766b7910bd03c5"      # mcp_sdk.jsonl: the agent's ``invoke_agent support-agent``
FAIL_CALL = "3ba8f085163f999e"      # mcp_sdk.jsonl: ``MCP send tools/call fail`` (its server side: tool_error)
CANCELLED_CALL = "e5ebee5f264604a2"  # mcp_sdk.jsonl: the ``slow`` call the agent cancelled
TOOL_SPAN = "0a0a0a0a0a0a0a01"


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    opened = RunStore.open(str(tmp_path / "runs.db"))
    yield opened
    opened.close()


def _value(value: Any) -> dict[str, Any]:
    return {"intValue": str(value)} if isinstance(value, int) else {"stringValue": value}


def edited(fixture: str, to: Path, edit: Callable[[list[dict[str, Any]]], None], scope: int = 0) -> Path:
    """The fixture with the spans of one scope of its first line (the agent's first batch) edited in place."""
    lines = [json.loads(line) for line in (FIXTURES / fixture).read_text(encoding="utf-8").splitlines()]
    edit(lines[0]["resourceSpans"][0]["scopeSpans"][scope]["spans"])
    to.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return to


def agent_tool_span(call: dict[str, Any], tool: str, status: dict[str, Any], output: str | None) -> dict[str, Any]:
    """An agent framework's OpenInference TOOL span around ``call`` (a little before and after it)."""
    attributes = {"openinference.span.kind": "TOOL", "tool.name": tool, "input.value": '{"city": "Oslo"}'}
    if output is not None:
        attributes["output.value"] = output
    return {"traceId": call["traceId"], "spanId": TOOL_SPAN, "parentSpanId": ROOT_SPAN, "name": tool, "kind": 1,
            "startTimeUnixNano": str(int(call["startTimeUnixNano"]) - 100_000),
            "endTimeUnixNano": str(int(call["endTimeUnixNano"]) + 100_000), "status": status,
            "attributes": [{"key": key, "value": _value(value)} for key, value in attributes.items()]}


def wrap(call_id: str, tool: str, status: dict[str, Any], output: str | None = None,
         first: bool = False) -> Callable[[list[dict[str, Any]]], None]:
    """Put an agent's TOOL span around the SDK's client span ``call_id``: after it in the batch, as the
    OpenTelemetry SDK exports a parent that ends after its child, or before it (``first``)."""
    def edit(spans: list[dict[str, Any]]) -> None:
        index, call = next((i, span) for i, span in enumerate(spans) if span["spanId"] == call_id)
        call["parentSpanId"] = TOOL_SPAN
        spans.insert(index if first else index + 1, agent_tool_span(call, tool, status, output))
    return edit


def steps_of(store: RunStore, path: Path) -> list[dict[str, Any]]:
    import_trace(store, path)
    (run,) = [run for run in store.list_runs(limit=None) if run.title == "invoke_agent support-agent"]
    return [dict(step.payload, outcome=step.outcome, sequence=step.sequence) for step in store.iter_steps(run.id)]


def by_span(steps: list[dict[str, Any]], span_id: str) -> dict[str, Any]:
    return next(step for step in steps if step["raw"]["otlp"]["spanId"] == span_id)


@pytest.mark.parametrize("first", [False, True], ids=["child-first", "parent-first"])
def test_an_agent_s_tool_span_with_status_ok_over_a_failed_call_reads_failed(store: RunStore, tmp_path: Path,
                                                                              first: bool) -> None:
    """The agent's TOOL span recorded status OK (its framework handed the error text to the model as
    the tool's output); the MCP call under it failed (the server's span: tool_error). It read "ok"."""
    path = edited("mcp_sdk.jsonl", tmp_path / "wrapped.jsonl",
                  wrap(FAIL_CALL, "fail", {"code": 1}, "Error executing tool fail: upstream 503 for Oslo", first))
    steps = steps_of(store, path)
    outer, call = by_span(steps, TOOL_SPAN), by_span(steps, FAIL_CALL)
    assert call["outcome"] == "failed" and call["toolName"] == "fail"
    assert outer["outcome"] == "failed" and outer["toolOutcome"] == "failed" and outer["toolIsError"] is True
    said = (f"failed in the call it wraps (step {call['sequence']}, span {FAIL_CALL}): the tool reported an error "
            "(error.type tool_error); this span's own status said ok")
    assert outer["toolResult"] == said + "\nError executing tool fail: upstream 503 for Oslo"
    otlp = outer["raw"]["otlp"]
    assert otlp["outcomeNote"]["text"] == said
    assert otlp["status"] == {"code": 1, "message": ""} and otlp["attributes"]["tool.name"] == "fail"
    assert outer["toolArguments"] == {"city": "Oslo"}
    assert said_in_german(otlp["outcomeNote"]) == (
        f"fehlgeschlagen im Aufruf, den er umschließt (Schritt {call['sequence']}, Span {FAIL_CALL}): das Tool "
        "meldete einen Fehler (error.type tool_error); der eigene Status dieses Spans sagte ok")


def test_the_export_of_the_run_imports_again_to_the_same_steps(store: RunStore, tmp_path: Path) -> None:
    """The export writes the spans as they were (in the order of the steps' numbers); the import of it
    gives the same steps under the same numbers: the TOOL span's words are read again, not written into it."""
    path = edited("mcp_sdk.jsonl", tmp_path / "wrapped.jsonl",
                  wrap(FAIL_CALL, "fail", {"code": 1}, "Error executing tool fail: upstream 503 for Oslo"))
    import_trace(store, path)
    (run,) = [run for run in store.list_runs(limit=None) if run.title == "invoke_agent support-agent"]
    export(store, [run.id], None, tmp_path / "again.json", format="otlp")
    spans = {span["spanId"]: span for rs in json.loads((tmp_path / "again.json").read_text())["resourceSpans"]
             for scope in rs["scopeSpans"] for span in scope["spans"]}
    assert spans[FAIL_CALL]["parentSpanId"] == TOOL_SPAN and spans[TOOL_SPAN]["name"] == "fail"
    assert not any(attribute["key"].startswith("run_inspector") for attribute in spans[TOOL_SPAN]["attributes"])
    fresh = RunStore.open(str(tmp_path / "fresh.db"))
    try:
        import_trace(fresh, tmp_path / "again.json")
        (again,) = fresh.list_runs(limit=None)
        by_id = {step.payload["raw"]["otlp"]["spanId"]: (step.sequence, step.payload)
                 for step in fresh.iter_steps(again.id)}
    finally:
        fresh.close()
    # Its number is the first import's, and so is the call's its sentence names.
    numbers = {step.payload["raw"]["otlp"]["spanId"]: step.sequence for step in store.iter_steps(run.id)}
    sequence, outer = by_id[TOOL_SPAN]
    assert outer["toolOutcome"] == "failed" and sequence == numbers[TOOL_SPAN]
    assert by_id[FAIL_CALL][0] == numbers[FAIL_CALL]
    assert outer["toolResult"].startswith(f"failed in the call it wraps (step {by_id[FAIL_CALL][0]}, span {FAIL_CALL})")
    first = {step.payload["raw"]["otlp"]["spanId"]: step.payload for step in store.iter_steps(run.id)}
    assert outer["raw"]["otlp"]["attributes"] == first[TOOL_SPAN]["raw"]["otlp"]["attributes"]


def test_an_agent_s_tool_span_with_status_ok_over_a_cancelled_call_claims_no_outcome(store: RunStore,
                                                                                     tmp_path: Path) -> None:
    path = edited("mcp_sdk.jsonl", tmp_path / "wrapped.jsonl", wrap(CANCELLED_CALL, "slow", {"code": 1}))
    steps = steps_of(store, path)
    outer, call = by_span(steps, TOOL_SPAN), by_span(steps, CANCELLED_CALL)
    assert call["outcome"] == "" and outer["outcome"] == ""
    assert "toolOutcome" not in outer and "toolIsError" not in outer
    assert outer["toolResult"] == (f"no outcome recorded: the call it wraps (step {call['sequence']}, span "
                                   f"{CANCELLED_CALL}) has none; this span's own status said ok")


def test_a_tool_span_of_another_tool_keeps_its_own_outcome(store: RunStore, tmp_path: Path) -> None:
    """A tool of the agent's that called another tool over MCP (and may have handled its error) is
    not the same call: its own ok stands."""
    path = edited("mcp_sdk.jsonl", tmp_path / "wrapped.jsonl", wrap(FAIL_CALL, "plan_trip", {"code": 1}, "done"))
    outer = by_span(steps_of(store, path), TOOL_SPAN)
    assert outer["outcome"] == "ok" and outer["toolResult"] == "done" and "outcomeNote" not in outer["raw"]["otlp"]


def test_fastmcp_s_client_span_recording_no_error_over_a_failed_call_reads_failed(store: RunStore,
                                                                                  tmp_path: Path) -> None:
    """FastMCP's client span ``tools/call fail`` as a FastMCP that does not mark the tool's error would
    write it (no status, no error.type): it read "ok" over the SDK's call whose server side failed."""
    def unmarked(spans: list[dict[str, Any]]) -> None:
        (outer,) = [span for span in spans if span["name"] == "tools/call fail"]
        outer["status"] = {}
        outer["attributes"] = [item for item in outer["attributes"] if item["key"] != "error.type"]

    steps = steps_of(store, edited("fastmcp.jsonl", tmp_path / "unmarked.jsonl", unmarked, scope=1))
    (outer,) = [step for step in steps if step["raw"]["otlp"]["name"] == "tools/call fail"]
    (inner,) = [step for step in steps if step["raw"]["otlp"]["name"] == "MCP send tools/call fail"]
    outer_child = inner["raw"]["otlp"]["spanId"]
    assert inner["raw"]["otlp"]["parentSpanId"] == outer["raw"]["otlp"]["spanId"] and inner["outcome"] == "failed"
    assert outer["outcome"] == "failed"
    assert outer["toolResult"] == (
        f"failed in the call it wraps (step {inner['sequence']}, span {outer_child}): failed: "
        "fastmcp.exceptions.ToolError: Error calling tool "
        "'fail': upstream 503 for Oslo; this span recorded no error of its own")


def test_the_sdk_s_cancel_notification_names_no_call_and_is_linked_to_none(store: RunStore) -> None:
    """``mcp`` 2.3.0's server spans of ``notifications/cancelled`` (its client sent one when it gave up on
    the first ``slow`` call, one when the agent cancelled the second) carry no request id and no trace
    context: each is a run of its own, not a guess at a call."""
    import_trace(store, FIXTURES / "mcp_sdk.jsonl")
    runs = {run.title: run for run in store.list_runs(limit=None)}
    cancels = [step.payload for run in store.list_runs(limit=None) for step in store.iter_steps(run.id)
               if step.payload["raw"]["otlp"]["name"] == "notifications/cancelled"]
    assert len(cancels) == 2 and all(step["kind"] == "request" for step in cancels)
    for step in cancels:
        otlp = step["raw"]["otlp"]
        assert otlp["attributes"] == {"mcp.method.name": "notifications/cancelled",
                                      "mcp.protocol.version": "2025-11-25"}
        assert not otlp["parentSpanId"]  # the root of a trace of its own
    agent = [step.payload["raw"]["otlp"]["name"] for step in store.iter_steps(runs["invoke_agent support-agent"].id)]
    assert "notifications/cancelled" not in agent
