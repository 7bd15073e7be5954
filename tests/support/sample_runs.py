"""Runs written straight into a run database for the window's tests and the benchmarks."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import orjson

from inspector.runs import Leg, RunStep, RunTrace, StepKind, ToolResult
from inspector.runs.times import to_stored_time
from inspector.store import RunStore

T0 = datetime(2026, 12, 1, 9, 14, 3, tzinfo=timezone.utc)
HANG_LEGS = (Leg("initialize", 20, 40.0, 200, "ok"), Leg("notifications/initialized", 20, 3.0, 202, "ok"),
             Leg("tools/call", 20, 4100.0, None, "cancelled"))


def mixed_run(store: RunStore, title: str = "user-cancels", *, started_at: datetime = T0,
              source: str = "scenario") -> int:
    """A finished run with steps of every outcome: no outcome (llm), ok, failed, cancelled in flight."""
    trace = RunTrace()
    steps = [
        (RunStep(kind=StepKind.LLM, round=1, duration_ms=400.0, content="plan: write a note, then call hang"), 0.0),
        (trace.record_tool_result(1, "write_note", {"text": "draft"}, ToolResult.text("saved note 1"), 12.5,
                                  legs=(Leg("tools/call", 20, 12.5, 200, "ok"),)), 0.5),
        (trace.record_tool_result(1, "fail", {}, ToolResult.error("the tool failed on purpose"), 30.0,
                                  legs=(Leg("tools/call", 19, 30.0, 200, "ok"),)), 0.6),
        (RunStep(kind=StepKind.LLM, round=2, duration_ms=300.0, content="now the service that never answers"), 0.8),
        (trace.record_tool_result(2, "hang", {"seconds": 60}, ToolResult.cancelled("cancelled by the user",
                                                                                   in_flight=True), 4143.0,
                                  legs=HANG_LEGS), 1.2),
        (RunStep(kind=StepKind.LLM, round=3, duration_ms=250.0, content="told: the call was cancelled"), 5.4),
    ]
    run_id = store.start_run(title, source, "http://127.0.0.1:8765/mcp", started_at=started_at)
    store.append_steps(run_id, [(step, started_at + timedelta(seconds=offset)) for step, offset in steps])
    store.finish_run(run_id, "cancelled", started_at + timedelta(seconds=5.7))
    return run_id


def mixed_database(path: Path) -> Path:
    """A run database at ``path`` holding one :func:`mixed_run`; returns ``path``."""
    with RunStore.open(path) as store:
        mixed_run(store)
    return path


def big_run(store: RunStore, steps: int, title: str = "a long run") -> int:
    """A finished run of ``steps`` steps (tool calls of all three outcomes and llm steps), written fast."""
    run_id = store.start_run(title, "imported", "http://127.0.0.1:8765/mcp", started_at=T0)
    rows = []
    outcomes = ("ok", "failed", "cancelled", "")
    for number in range(steps):
        outcome = outcomes[number % 4]
        if outcome:
            payload = {"kind": "tool", "round": number // 4, "durationMs": 8.0, "toolName": f"tool_{number % 7}",
                       "toolArguments": {"n": number}, "toolResult": f"result {number}",
                       "toolIsError": outcome != "ok", "toolOutcome": outcome}
            if outcome == "cancelled":
                payload["cancelledInFlight"] = True
        else:
            payload = {"kind": "llm", "round": number // 4, "durationMs": 8.0, "content": f"thinking {number}"}
        rows.append((run_id, number + 1, payload["kind"], payload["round"], 8.0,
                     to_stored_time(T0 + timedelta(milliseconds=10 * number)), outcome,
                     orjson.dumps(payload).decode()))  # json.dumps(payload, separators=(",", ":"))'s text, quicker
    with store.transaction():
        store.db.conn.executemany("INSERT INTO steps (run_id, sequence, kind, round, duration_ms, started_at,"
                                  " outcome, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    store.finish_run(run_id, "failed", T0 + timedelta(milliseconds=10 * steps))
    return run_id
