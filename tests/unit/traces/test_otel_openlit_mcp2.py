"""OpenLIT on ``mcp`` 2.x (tests/fixtures/otel/openlit_mcp2.jsonl, recorded by make_traces.py with OpenLIT 1.45.0 on
``mcp`` 2.3.0: ``lookup`` ok, ``fail`` with the tool's error, ``slow`` timed out by the client, ``slow`` cancelled by
the agent). OpenLIT instruments the client only there: its ``mcp tools/call`` over its plumbing ``mcp
transport/request`` over the SDK's ``MCP send tools/call NAME``, joined to its server side. The plumbing span between
them hid that OpenLIT's span wraps the SDK's call: the run counted each call twice ("4 of 8 tool calls failed, 2 not
recorded"), and OpenLIT's span over the cancelled call did not say where the call's truth is."""

from __future__ import annotations

import json
from typing import Any

from inspector.store import RunStore
from inspector.store.recovery import UNRECORDED, failed_calls, run_reason
from inspector.transfer.importing import import_trace
from tests.unit.traces.test_otel_agents import FIXTURES

OPENLIT_SCOPE, SDK_SCOPE = "openlit.instrumentation.mcp", "mcp-python-sdk"


def agent_run(store: RunStore) -> tuple[int, list[dict[str, Any]]]:
    import_trace(store, FIXTURES / "openlit_mcp2.jsonl")
    (run,) = [run for run in store.list_runs(limit=None) if run.title == "invoke_agent support-agent"]
    return run.id, [dict(step.payload, outcome=step.outcome) for step in store.iter_steps(run.id)]


def file_order() -> list[tuple[str, str]]:
    """The spans of the file in its order: (name, span id)."""
    return [(span["name"], span["spanId"]) for line in (FIXTURES / "openlit_mcp2.jsonl").read_text().splitlines()
            for resource in json.loads(line)["resourceSpans"] for scope in resource["scopeSpans"]
            for span in scope["spans"]]


def test_each_call_is_counted_once_the_openlit_span_over_the_sdk_s_call(empty_store: RunStore) -> None:
    run_id, steps = agent_run(empty_store)
    tools = [step for step in steps if step["kind"] == "tool"]
    scopes = [step["raw"]["otlp"]["scope"]["name"] for step in tools]
    assert scopes.count(OPENLIT_SCOPE) == scopes.count(SDK_SCOPE) == 4  # eight tool steps, four calls
    assert all("server" in step["raw"]["otlp"] for step in tools if step["raw"]["otlp"]["scope"]["name"] == SDK_SCOPE)
    run = empty_store.get_run(run_id)
    reason = run_reason(empty_store, run)
    assert run.status == "failed" and reason is not None and reason.said()[:2] == (2, 4)
    assert reason.unrecorded == 1  # the cancel, once (it read "4 of 8 tool calls failed, 2 not recorded")
    assert failed_calls(empty_store, [run_id], UNRECORDED)[run_id].said()[:2] == (1, 4)  # the cancel, once


def test_openlit_s_span_over_the_cancelled_call_names_the_call_it_wraps(empty_store: RunStore) -> None:
    """The SDK's span of the cancelled call comes before the plumbing span it is under in the file (a batch
    holds the spans that ended, the inner first); the others' plumbing comes first: both orders are read."""
    _run_id, steps = agent_run(empty_store)
    outer = {step["raw"]["otlp"]["spanId"]: step for step in steps if step["kind"] == "tool"
             and step["raw"]["otlp"]["scope"]["name"] == OPENLIT_SCOPE}
    cancelled = next(step for step in outer.values() if step["outcome"] == "")
    inner = next(step for step in steps if step["kind"] == "tool" and step["outcome"] == ""
                 and step["raw"]["otlp"]["scope"]["name"] == SDK_SCOPE)
    plumbing = next(step for step in steps if step["raw"]["otlp"].get("plumbing")
                    and step["raw"]["otlp"]["spanId"] == inner["raw"]["otlp"]["parentSpanId"])
    assert plumbing["raw"]["otlp"]["parentSpanId"] == cancelled["raw"]["otlp"]["spanId"]
    order = [span for _name, span in file_order()]
    assert order.index(inner["raw"]["otlp"]["spanId"]) < order.index(plumbing["raw"]["otlp"]["spanId"])
    note = cancelled["raw"]["otlp"]["outcomeNote"]
    assert note["params"] == {"span": inner["raw"]["otlp"]["spanId"]}, note
    assert cancelled["toolResult"].startswith("no outcome recorded: the span ended without an error, and the call "
                                              f"it wraps (span {inner['raw']['otlp']['spanId']})")
    # the calls that ended keep their own outcomes: OpenLIT's answer says them
    assert sorted(step["outcome"] for step in outer.values()) == ["", "failed", "failed", "ok"]
