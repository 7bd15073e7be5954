"""A server's sparkline: the latencies of its recent ok operations made here, one per operation.

A run of several operations (a scenario, an agent's run with its model's turns) gives each of its
operations, never its own length (which holds the model's thinking and the other calls); a tool
error, a failure and a cancel are no ok operation; the newest point is the latency the server's
health last recorded for an ok operation."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from inspector.runs import Leg, RunStep, RunTrace, StepKind, ToolResult
from inspector.store import RunStore, ServerRegistry
from inspector.store.browse import recent_ok_durations

URL = "http://127.0.0.1:8000/mcp"
START = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)


def _tool(result: ToolResult, ms: float) -> RunStep:
    return RunTrace().record_tool_result(1, "echo", {"text": "x"}, result, ms)


def _run(store: RunStore, title: str, source: str, status: str, at_s: float, length_s: float,
         steps: list[RunStep]) -> None:
    started = START + timedelta(seconds=at_s)
    run = store.start_run(title, source, URL, started_at=started)
    for step in steps:
        store.append_step(run, step, started)
    store.finish_run(run, status, finished_at=started + timedelta(seconds=length_s))


def test_each_ok_operation_is_one_point_and_a_runs_length_is_none(tmp_path: Path) -> None:
    with RunStore.open(tmp_path / "runs.db") as store:
        _run(store, "tools/call echo", "live", "ok", 0, 0.2, [_tool(ToolResult.text("x"), 120.0)])
        # An agent's run: its model thought for seconds between calls; 9 s long in all.
        thinking = RunStep(kind=StepKind.LLM, round=1, duration_ms=4000.0, content="calling echo")
        catalogue = RunStep(kind=StepKind.REQUEST, round=0, duration_ms=10.0, content="tools/list: 1 tool")
        _run(store, "scenario flaky-server", "scenario", "ok", 10, 9.0,
             [catalogue, thinking, _tool(ToolResult.text("x"), 30.0), thinking,
              _tool(ToolResult.error("the tool failed"), 40.0), _tool(ToolResult.text("x"), 50.0)])
        _run(store, "tools/call echo", "live", "failed", 20, 2.0, [_tool(ToolResult.error("timed out"), 2000.0)])
        _run(store, "tools/call hang", "live", "cancelled", 30, 1.0,
             [_tool(ToolResult.cancelled("stopped", in_flight=True), 1000.0)])
        _run(store, "tools/list", "live", "failed", 40, 1.0,
             [RunStep(kind=StepKind.REQUEST, round=0, duration_ms=900.0, content="tools/list: failed")])
        _run(store, "tools/call echo", "imported", "ok", 50, 9.0, [_tool(ToolResult.text("x"), 9000.0)])
        # The server's stream an agent held open through the recording proxy for 4 s: no latency.
        stream = RunStep(kind=StepKind.REQUEST, round=0, duration_ms=4000.0, content="GET: the agent closed it",
                         legs=(Leg("GET", None, 4000.0, 200, Leg.OK),))
        _run(store, "GET stream · proxy", "live", "ok", 55, 4.0, [stream])
        _run(store, "tools/call echo", "live", "ok", 60, 0.1, [_tool(ToolResult.text("x"), 47.0)])
        ServerRegistry(store.db).record_operation(URL, "ok", 47.0)
        assert recent_ok_durations(store, URL, 20) == [120.0, 10.0, 30.0, 50.0, 47.0]
        assert recent_ok_durations(store, URL, 2) == [50.0, 47.0]
        assert recent_ok_durations(store, URL, 20)[-1] == ServerRegistry(store.db).get(URL).last_latency_ms
