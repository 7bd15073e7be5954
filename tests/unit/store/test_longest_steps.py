"""A run's steps read ahead of its rows for the timeline's Kind and Duration columns: each kind once, and of each kind
the longest step of each magnitude a duration is said in (the widest words of that magnitude), from real SQLite."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from inspector.i18n.formatting import format_duration
from inspector.runs import RunStep, RunTrace, StepKind, ToolResult
from inspector.store import RunStore
from inspector.store.longest_steps import longest_steps
from tests.support.sample_runs import T0


def test_each_kind_and_the_longest_step_of_each_magnitude(tmp_path: Path) -> None:
    trace = RunTrace()
    durations = (0.2, 0.4, 12.0, 88.0, 350.0, 990.0, 4_000.0, 59_900.0, 61_000.0, 599_000.0, 3_599_000.0,
                 3_600_000.0)
    steps = [trace.record_tool_result(1, "fetch", {}, ToolResult.text("ok"), ms) for ms in durations]
    steps.append(RunStep(kind=StepKind.LLM, round=2, duration_ms=70.0, content="a thought"))
    with RunStore.open(tmp_path / "runs.db") as store:
        run_id = store.start_run("a run", "live", started_at=T0)
        store.append_steps(run_id, [(step, T0 + timedelta(seconds=number)) for number, step in enumerate(steps)])
        other = store.start_run("another run", "live", started_at=T0)
        store.append_steps(other, [(trace.record_tool_result(1, "fetch", {}, ToolResult.text("ok"), 9e6), T0)])
        found = sorted(longest_steps(store, run_id))
    assert found == [("llm", 70.0), *(("tool", ms) for ms in (0.4, 88.0, 990.0, 4_000.0, 59_900.0, 599_000.0,
                                                               3_599_000.0, 3_600_000.0))]
    said = [format_duration(ms / 1000) for kind, ms in found if kind == "tool"]
    assert said == ["< 0.001 s", "0.088 s", "0.99 s", "4.0 s", "59.9 s", "9 min 59 s", "59 min 59 s", "1 h"]
