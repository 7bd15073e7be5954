"""A server's sparkline: the latencies of its recent ok operations made here, one per operation.

A run of several operations (a scenario, an agent's run with its model's turns) gives each of its
operations, never its own length (which holds the model's thinking and the other calls); a tool
error, a failure and a cancel are no ok operation; the newest point is the latency the server's
health last recorded for an ok operation."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from inspector.runs import Leg, RunStep, RunTrace, StepKind, ToolOutcome, ToolResult
from inspector.store import RunStore, ServerRegistry
from inspector.store.browse import recent_ok_durations

URL = "http://127.0.0.1:8000/mcp"
START = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)


def _tool(result: ToolResult, ms: float) -> RunStep:
    return RunTrace().record_tool_result(1, "echo", {"text": "x"}, result, ms)


def _run(store: RunStore, title: str, source: str, status: str, at_s: float, length_s: float,
         steps: list[RunStep], counted: bool = True) -> None:
    """A run as the window, a scenario or the proxy stores it: each of its operations (a tool or request
    step) counted in the server's health, unless imported or not ``counted`` (the proxy counts no stream)."""
    started = START + timedelta(seconds=at_s)
    run = store.start_run(title, source, URL, started_at=started)
    for step in steps:
        store.append_step(run, step, started)
        if counted and source != "imported" and step.kind in (StepKind.TOOL, StepKind.REQUEST):
            ServerRegistry(store.db).record_operation(URL, _health(step), step.duration_ms)
    store.finish_run(run, status, finished_at=started + timedelta(seconds=length_s))


def _health(step: RunStep) -> str:
    """What the health counts of a step's operation (a request's outcome is in its words here)."""
    if step.kind is StepKind.REQUEST:
        return "failed" if "failed" in (step.content or "") else "ok"
    counted = {ToolOutcome.OK: "ok", ToolOutcome.FAILED: "tool_error", ToolOutcome.CANCELLED: "cancelled"}
    return counted[step.tool_outcome]


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
        _run(store, "GET stream · proxy", "live", "ok", 55, 4.0, [stream], counted=False)
        _run(store, "tools/call echo", "live", "ok", 60, 0.1, [_tool(ToolResult.text("x"), 47.0)])
        assert recent_ok_durations(store, URL, 20) == [120.0, 10.0, 30.0, 50.0, 47.0]
        assert recent_ok_durations(store, URL, 2) == [50.0, 47.0]
        assert recent_ok_durations(store, URL, 20)[-1] == ServerRegistry(store.db).get(URL).last_latency_ms


def test_a_server_removed_and_added_again_starts_afresh(tmp_path: Path) -> None:
    """A server removed and added again at the same address is a new entry: its health counts start at
    none, and so does its sparkline (it showed the latencies of the runs made before); the runs stay
    stored. Its new operations are its points, and one run of several operations counts each of them."""
    with RunStore.open(tmp_path / "runs.db") as store:
        registry = ServerRegistry(store.db)
        registry.save_server(URL, name="staging")
        for number, ms in enumerate((300.0, 310.0, 320.0)):
            _run(store, "tools/call echo", "live", "ok", number, 0.4, [_tool(ToolResult.text("x"), ms)])
        assert recent_ok_durations(store, URL, 20) == [300.0, 310.0, 320.0]
        registry.remove_server(URL)
        registry.save_server(URL, name="staging")
        assert recent_ok_durations(store, URL, 20) == []
        assert len(store.list_runs(server=URL)) == 3
        catalogue = RunStep(kind=StepKind.REQUEST, round=0, duration_ms=9.0, content="tools/list: 1 tool")
        # A scenario whose run failed (a tool failed): its listing went well and is counted, not shown.
        _run(store, "scenario flaky-server", "scenario", "failed", 10, 1.0,
             [catalogue, _tool(ToolResult.text("x"), 20.0), _tool(ToolResult.error("the tool failed"), 30.0)])
        _run(store, "tools/call echo", "live", "ok", 20, 0.1, [_tool(ToolResult.text("x"), 40.0)])
        assert recent_ok_durations(store, URL, 20) == [20.0, 40.0]
        assert registry.get(URL).ok_count == 3


def test_the_newest_point_is_the_newest_operation_after_the_clock_was_set_back(tmp_path: Path) -> None:
    """The system clock set back an hour (a wrong time corrected, a virtual machine restored): the
    operations made since start "before" those made earlier. The sparkline follows the order the
    operations were made in, not the clock: its newest point is still the latency the server's health
    last recorded, and a new operation shows at once (not once the clock has caught up an hour later)."""
    with RunStore.open(tmp_path / "runs.db") as store:
        for number, ms in enumerate((100.0, 110.0, 120.0)):  # made while the clock ran an hour ahead
            _run(store, "tools/call echo", "live", "ok", 3600 + number, 0.1, [_tool(ToolResult.text("x"), ms)])
        for number, ms in enumerate((7.0, 8.0)):  # made after it was set back
            _run(store, "tools/call echo", "live", "ok", number, 0.1, [_tool(ToolResult.text("x"), ms)])
        assert recent_ok_durations(store, URL, 20) == [100.0, 110.0, 120.0, 7.0, 8.0]
        assert recent_ok_durations(store, URL, 1) == [8.0] == [ServerRegistry(store.db).get(URL).last_latency_ms]
