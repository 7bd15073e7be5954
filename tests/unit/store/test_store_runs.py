"""The run store on a real SQLite file: runs, steps with legs, paging, interrupted runs."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from inspector.runs import Leg, RunStep, RunTrace, StepKind, ToolResult
from inspector.store import RunStore, StoreError, UnknownRunError

T0 = datetime(2026, 11, 30, 8, 0, 0, tzinfo=timezone.utc)
LEGS = (Leg("initialize", 20, 4.5, 200, "ok"), Leg("notifications/initialized", 16, 0.7, 202, "ok"),
        Leg("tools/call", 16, 12.25, None, "cancelled"))


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    opened = RunStore.open(tmp_path / "runs.db")
    yield opened
    opened.close()


def tool_step(outcome: str = "ok") -> RunStep:
    trace = RunTrace()
    result = {"ok": ToolResult.text("fine"), "failed": ToolResult.error("broke"),
              "cancelled": ToolResult.cancelled("stopped", in_flight=True)}[outcome]
    return trace.record_tool_result(1, "echo", {"text": "hi", "n": 0, "flag": False}, result, 17.25, legs=LEGS)


def test_a_step_and_its_legs_read_back_equal(store: RunStore) -> None:
    run_id = store.start_run("call echo", "live", "http://127.0.0.1:1/mcp", started_at=T0)
    step = tool_step("cancelled")
    store.append_step(run_id, step, T0 + timedelta(seconds=1))
    (stored,) = store.steps_page(run_id)
    assert stored.step == step
    assert stored.step.legs == LEGS
    assert stored.outcome == "cancelled"
    assert stored.sequence == 1
    assert stored.started_at == T0 + timedelta(seconds=1)
    legs_rows = store.db.execute("SELECT method, granted_s, outcome FROM legs ORDER BY position").fetchall()
    assert legs_rows == [("initialize", 20, "ok"), ("notifications/initialized", 16, "ok"),
                         ("tools/call", 16, "cancelled")]
    # Legs have one home: the legs table, not a copy inside the payload column.
    (payload_text,) = store.db.execute("SELECT payload FROM steps").fetchone()
    assert "legs" not in json.loads(payload_text)


def test_runs_have_status_times_and_filters(store: RunStore) -> None:
    first = store.start_run("one", "live", "http://a/mcp", started_at=T0)
    second = store.start_run("two", "scenario", "http://b/mcp", started_at=T0 + timedelta(minutes=1))
    store.finish_run(first, "cancelled", T0 + timedelta(seconds=3))
    store.finish_run(second, "failed")
    run = store.get_run(first)
    assert (run.status, run.source, run.finished_at) == ("cancelled", "live", T0 + timedelta(seconds=3))
    assert [r.id for r in store.list_runs()] == [second, first]  # newest first
    assert [r.id for r in store.list_runs(outcome="cancelled")] == [first]
    assert [r.id for r in store.list_runs(server="http://b/mcp")] == [second]
    assert [r.id for r in store.list_runs(limit=1)] == [second]
    with pytest.raises(UnknownRunError, match="no run 999"):
        store.get_run(999)
    with pytest.raises(ValueError):
        store.finish_run(first, "running")


def test_timeline_orders_by_time_then_sequence_and_pages(store: RunStore) -> None:
    run_id = store.start_run("many", started_at=T0)
    times = [T0 + timedelta(seconds=s) for s in (5, 1, 1, 3, 0)]
    for moment in times:
        store.append_step(run_id, tool_step(), moment)
    order = [(s.started_at, s.sequence) for s in store.iter_steps(run_id, page_size=2)]
    assert order == sorted(order)
    assert [s.sequence for s in store.iter_steps(run_id, page_size=2)] == [5, 2, 3, 4, 1]
    first_page = store.steps_page(run_id, limit=2)
    assert len(first_page) == 2
    assert store.count_steps(run_id) == 5


def test_a_legacy_step_keeps_its_outcome(store: RunStore) -> None:
    run_id = store.start_run("legacy", started_at=T0)
    legacy = RunStep.from_payload({"kind": "tool", "round": 2, "durationMs": 3.5, "toolName": "lookup",
                                   "toolResult": "boom", "toolIsError": True})
    store.append_step(run_id, legacy, T0)
    store.append_step(run_id, RunStep(kind=StepKind.LLM, round=2, duration_ms=1.0, content="thinking"), T0)
    stored = list(store.iter_steps(run_id))
    assert [s.outcome for s in stored] == ["failed", ""]
    assert stored[0].payload == legacy.to_payload()
    assert "toolOutcome" not in stored[0].payload


def test_a_run_left_running_by_a_dead_process_becomes_interrupted(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    script = ("import os, sys; from inspector.store import RunStore; "
              "s = RunStore.open(sys.argv[1]); s.start_run('left running'); os._exit(0)")
    subprocess.run([sys.executable, "-c", script, str(path)], check=True, timeout=60)
    with RunStore.open(path) as store:
        (run,) = store.list_runs()
        assert run.status == "interrupted"


def test_a_run_of_a_live_process_is_left_alone(store: RunStore, tmp_path: Path) -> None:
    run_id = store.start_run("mine, still running")
    with RunStore.open(tmp_path / "runs.db") as second:
        assert second.get_run(run_id).status == "running"


def test_a_file_that_is_not_a_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"these are my notes, not a database" * 100)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a Run Inspector database"):
        RunStore.open(path)
    assert path.read_bytes() == before


def test_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="folder"):
        RunStore.open(tmp_path)


def test_unknown_sources_and_statuses_are_refused(store: RunStore) -> None:
    with pytest.raises(ValueError):
        store.start_run("x", source="telepathy")
    with pytest.raises(sqlite3.IntegrityError):
        store.append_step(12345, tool_step())  # no such run: the foreign key holds


def test_the_store_and_the_timeline_model_order_alike(store: RunStore) -> None:
    from inspector.runs import TimelineEntry, ordered

    run_id = store.start_run("mixed", started_at=T0)
    for moment in (T0 + timedelta(seconds=2), None, T0, None, T0 + timedelta(seconds=2)):
        store.append_step(run_id, tool_step(), moment)
    stored = list(store.iter_steps(run_id, page_size=2))
    entries = [TimelineEntry.from_step_payload(s.payload, sequence=s.sequence, time=s.started_at)
               for s in stored]
    assert ordered(reversed(entries)) == entries
    assert [s.sequence for s in stored] == [2, 4, 3, 1, 5]


def test_a_database_that_cannot_be_created_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("in the way")
    with pytest.raises(StoreError, match="cannot be created in"):
        RunStore.open(blocker / "runs.db")
