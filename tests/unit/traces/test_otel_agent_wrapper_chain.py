"""An agent's tool spans of one tool wrapping each other around the MCP call of that tool (an OpenInference
TOOL span, a GenAI ``execute_tool`` span, or a tool span of kind internal naming ``tools/call``, over
another, over the SDK client's ``MCP send tools/call``), the call failed: every wrapper whose own status
said ok or nothing takes the failure, at any depth and in either order of the file, and the run's reason
counts the call once, failed. Before, only a call's client side told the span over it how it ended: with
two wrappers the outer one read "ok" (or "no outcome recorded") and ``runs list`` said "failed" with no
failed call counted. A wrapper that recorded its own error keeps its words, and a wrapper over it that said
ok takes that failure too (the agent's span claimed ok over a failure of its own tool under it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector.store import RunStore
from inspector.store.recovery import failed_calls
from inspector.transfer.importing import import_trace

TRACE = "cd" * 16
ROOT = "a" * 16
CALL = "f" * 16
T0 = 1_796_218_495_000_000_000
STATUS = {"unset": {}, "ok": {"code": 1}, "error": {"code": 2, "message": "wrapper boom"}}
KINDS = {"openinference": {"openinference.span.kind": "TOOL", "tool.name": "lookup"},
         "execute_tool": {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup"},
         "internal": {"mcp.method.name": "tools/call", "gen_ai.tool.name": "lookup"}}
ORDERS = ["outermost-first", "innermost-first"]


def wrapper_id(depth: int) -> str:
    return f"{depth + 1:016x}"


def attributes(values: dict[str, str]) -> list[dict[str, Any]]:
    return [{"key": key, "value": {"stringValue": value}} for key, value in values.items()]


def chain_file(to: Path, statuses: list[str], kind: str, order: str) -> Path:
    """A run (``invoke_agent``) whose one call of ``lookup`` (the SDK client's span, status ERROR "boom")
    sits under one wrapper tool span of ``kind`` per entry of ``statuses`` (outermost first)."""
    spans = [{"traceId": TRACE, "spanId": ROOT, "name": "invoke_agent support-agent", "kind": 1,
              "startTimeUnixNano": str(T0), "endTimeUnixNano": str(T0 + 10**10),
              "attributes": attributes({"gen_ai.operation.name": "invoke_agent"}), "status": {}}]
    parent = ROOT
    for depth, status in enumerate(statuses):
        spans.append({"traceId": TRACE, "spanId": wrapper_id(depth), "parentSpanId": parent, "name": "lookup",
                      "kind": 1, "startTimeUnixNano": str(T0 + 1000 * (depth + 1)),
                      "endTimeUnixNano": str(T0 + 10**9 - 1000 * depth), "attributes": attributes(KINDS[kind]),
                      "status": STATUS[status]})
        parent = wrapper_id(depth)
    spans.append({"traceId": TRACE, "spanId": CALL, "parentSpanId": parent, "name": "MCP send tools/call lookup",
                  "kind": 3, "startTimeUnixNano": str(T0 + 10**8), "endTimeUnixNano": str(T0 + 2 * 10**8),
                  "attributes": attributes({"mcp.method.name": "tools/call"}),
                  "status": {"code": 2, "message": "boom"}})
    if order == "innermost-first":
        spans = spans[:1] + spans[:0:-1]
    document = {"resourceSpans": [{"resource": {"attributes": attributes({"service.name": "support-agent"})},
                                   "scopeSpans": [{"scope": {"name": "nested"}, "spans": spans}]}]}
    to.write_text(json.dumps(document) + "\n", encoding="utf-8")
    return to


def imported(tmp_path: Path, statuses: list[str], kind: str = "execute_tool",
             order: str = "outermost-first") -> tuple[dict[str, Any], tuple[int, int] | None]:
    """The chain's steps by span id, and the run's (failed, calls) as its reason counts them."""
    store = RunStore.open(str(tmp_path / "chain.db"))
    try:
        import_trace(store, chain_file(tmp_path / "chain.jsonl", statuses, kind, order))
        (run,) = store.list_runs(limit=None)
        steps = {step.payload["raw"]["otlp"]["spanId"]: step for step in store.iter_steps(run.id)}
        reason = failed_calls(store, [run.id]).get(run.id)
    finally:
        store.close()
    return steps, (reason.failed, reason.calls) if reason is not None else None


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("status", ["unset", "ok"])
@pytest.mark.parametrize("depth", [1, 2, 3, 10])
def test_every_wrapper_over_the_failed_call_failed_and_the_run_counts_it(tmp_path: Path, depth: int, status: str,
                                                                         kind: str, order: str) -> None:
    """``depth`` wrappers, each status ``status``: each names its child's step and the call's own cause."""
    steps, reason = imported(tmp_path, [status] * depth, kind, order)
    assert reason == (1, 1)
    assert steps[CALL].outcome == "failed"
    own = "this span's own status said ok" if status == "ok" else "this span recorded no error of its own"
    for depth_ in range(depth):
        child = steps[wrapper_id(depth_ + 1) if depth_ + 1 < depth else CALL]
        step = steps[wrapper_id(depth_)]
        said = (f"failed in the call it wraps (step {child.sequence}, span {child.payload['raw']['otlp']['spanId']}): "
                f"failed: boom; {own}")
        assert (step.outcome, step.payload["raw"]["otlp"]["outcomeNote"]["text"]) == ("failed", said), depth_


@pytest.mark.parametrize("order", ORDERS)
def test_a_wrapper_that_said_ok_over_one_that_failed_itself_takes_that_failure(tmp_path: Path, order: str) -> None:
    """Outer OK, middle ERROR of its own ("wrapper boom"), the call failed: the middle keeps its own words,
    the outer says it failed in the middle's step, with the middle's words, and that its own status said ok."""
    steps, reason = imported(tmp_path, ["ok", "error"], "openinference", order)
    outer, middle = steps[wrapper_id(0)], steps[wrapper_id(1)]
    assert reason == (1, 1)
    assert middle.outcome == "failed" and "outcomeNote" not in middle.payload["raw"]["otlp"]
    assert outer.outcome == "failed"
    assert outer.payload["raw"]["otlp"]["outcomeNote"]["text"] == (
        f"failed in the call it wraps (step {middle.sequence}, span {wrapper_id(1)}): failed: wrapper boom; "
        "this span's own status said ok")


@pytest.mark.parametrize("order", ORDERS)
def test_wrappers_that_failed_themselves_keep_their_own_words(tmp_path: Path, order: str) -> None:
    steps, reason = imported(tmp_path, ["error", "error", "error"], "execute_tool", order)
    assert reason == (1, 1)
    for depth in range(3):
        step = steps[wrapper_id(depth)]
        assert step.outcome == "failed" and "outcomeNote" not in step.payload["raw"]["otlp"]


@pytest.mark.parametrize("order", ORDERS)
def test_a_chain_of_2000_wrappers_imports_with_each_failed_and_one_call_counted(tmp_path: Path, order: str) -> None:
    """Deep enough that a recursion would stop, long enough that work of the square of it would show."""
    steps, reason = imported(tmp_path, ["unset"] * 2000, "openinference", order)
    assert reason == (1, 1)
    assert len(steps) == 2002 and sum(step.outcome == "failed" for step in steps.values()) == 2001
    assert max(len(json.dumps(step.payload)) for step in steps.values()) < 2048
