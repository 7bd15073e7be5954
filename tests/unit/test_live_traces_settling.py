"""Settling received traces (inspector/capture/live_traces.py) on a real SQLite file: a run written whole from the
spans its trace holds is settled by its status and end alone, and is then the run an import of those spans gives.
Written again whole, settling cost as much as the first write (a request of 50,000 one-span traces: 5.4 s of
CPU to store, as much again to settle)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from inspector.capture.live_traces import LiveTraces, RunReceived
from inspector.capture.otlp_body import read_request
from inspector.store import RunStore
from inspector.store.browse import delete_runs
from inspector.transfer import import_trace

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "otel" / "mcp_sdk.jsonl"


def _bodies() -> list[bytes]:
    return [line.encode() for line in FIXTURE.read_text(encoding="utf-8").splitlines() if line.strip()]


def _received(store: RunStore, told: list[RunReceived] | None = None) -> LiveTraces:
    live = LiveTraces(store, None if told is None else told.append, quiet_s=0)
    for body in _bodies():
        live.add(read_request(body, "application/json"))
    return live


def _runs(store: RunStore) -> dict[str, tuple[Any, ...]]:
    """Each run by uid: its title, status, times, note and steps (what they say, not their row ids)."""
    return {run.uid: (run.title, run.status, run.started_at, run.finished_at, run.note,
                      [(step.sequence, step.started_at, step.outcome, json.dumps(step.payload, sort_keys=True))
                       for step in store.iter_steps(run.id)]) for run in store.list_runs(limit=None)}


def _imported(tmp_path: Path) -> RunStore:
    source = tmp_path / "spans.jsonl"
    source.write_bytes(b"".join(body + b"\n" for body in _bodies()))
    store = RunStore.open(tmp_path / "imported.db")
    import_trace(store, source)
    return store


def test_a_run_written_whole_is_settled_by_its_row_alone(tmp_path: Path) -> None:
    store = RunStore.open(tmp_path / "received.db")
    told: list[RunReceived] = []
    live = _received(store, told)
    runs = len(store.list_runs(limit=None))
    assert runs > 1 and all(run.status == "running" for run in store.list_runs(limit=None))
    changes, told[:] = store.db.conn.total_changes, []
    live.settle()
    assert store.db.conn.total_changes - changes == runs  # one row a run: no step deleted and written again
    assert live.growing == 0
    assert _runs(store) == _runs(_imported(tmp_path))
    settled = {run.uid: run for run in store.list_runs(limit=None)}
    assert sorted((said.uid, said.status, said.steps, said.created) for said in told) == sorted(
        (uid, run.status, len(_runs(store)[uid][5]), False) for uid, run in settled.items())


def test_a_run_deleted_before_its_trace_settles_is_written_again_whole(tmp_path: Path) -> None:
    store = RunStore.open(tmp_path / "received.db")
    live = _received(store)
    gone = store.list_runs(limit=None)[0]
    delete_runs(store, [gone.id])
    live.settle()
    assert live.growing == 0
    assert _runs(store) == _runs(_imported(tmp_path))
