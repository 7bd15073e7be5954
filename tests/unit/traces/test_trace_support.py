"""Shared helpers of the trace export/import tests (no tests here).

Imported by the other ``test_trace_*`` modules; pytest puts this folder on ``sys.path``
because it has no ``__init__.py``.
"""

from __future__ import annotations

import copy
import hashlib
import json
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from inspector.runs import Leg, RunStep, RunTrace, ToolResult
from inspector.store import RunStore

T0 = datetime(2026, 11, 30, 8, 0, 0, 123456, tzinfo=timezone.utc)
LEGS = (Leg("initialize", 20, 4.5, 200, "ok"), Leg("notifications/initialized", 16, 0.7, 202, "ok"),
        Leg("tools/call", 16, 12.25, None, "cancelled"))

TOOL_PAYLOAD: dict[str, Any] = {
    "kind": "tool", "round": 1, "durationMs": 12.5, "toolName": "echo", "toolArguments": {"text": "hi"},
    "toolResult": "hi", "toolIsError": False, "toolOutcome": "ok",
    "legs": [{"method": "initialize", "grantedS": 20, "elapsedMs": 3.5, "httpStatus": 200, "outcome": "ok"}]}
LLM_PAYLOAD: dict[str, Any] = {"kind": "llm", "round": 1, "durationMs": 800.0, "content": "thinking about it"}


def fill(store: RunStore) -> list[int]:
    """Three runs covering every outcome, legs, legacy rows and an unknown step time."""
    trace = RunTrace()
    ids = []
    run = store.start_run("cancelled call", "live", "http://127.0.0.1:1/mcp", started_at=T0)
    store.append_step(run, RunStep(kind="llm", round=1, duration_ms=812.456, content="I will call echo",
                                   prompt_tokens=120, completion_tokens=0, total_tokens=120, estimated_cost=0.0,
                                   requested_tool_calls=({"id": "c1", "name": "echo"},),
                                   raw={"id": "resp-1", "choices": [None, 1.5, True]}),
                      T0 + timedelta(milliseconds=5))
    store.append_step(run, trace.record_tool_result(1, "echo", {"text": "hi", "n": 0, "flag": False},
                                                    ToolResult.text("hi"), 17.25, legs=LEGS[:2]),
                      T0 + timedelta(seconds=1))
    store.append_step(run, trace.record_tool_result(2, "slow", {}, ToolResult.error("boom"), 3.0, legs=LEGS[:1]),
                      T0 + timedelta(seconds=2))
    store.append_step(run, trace.record_tool_result(3, "slow", {"n": [1, 2]},
                                                    ToolResult.cancelled("stopped", in_flight=True), 99.75,
                                                    legs=LEGS), T0 + timedelta(seconds=3))
    store.finish_run(run, "cancelled", T0 + timedelta(seconds=4))
    ids.append(run)
    run = store.start_run("scenario with legacy rows", "scenario", None, started_at=T0 + timedelta(hours=1))
    store.append_step(run, RunStep.from_payload({"kind": "tool", "round": 0, "durationMs": 1.0, "toolName": "old",
                                                 "toolResult": "legacy", "toolIsError": True}), None)
    store.append_step(run, RunStep.from_payload({"kind": "tool", "round": 0, "durationMs": 2.0, "toolName": "old",
                                                 "toolResult": "legacy ok", "toolIsError": False}),
                      T0 + timedelta(hours=1, seconds=1))
    store.append_step(run, RunStep(kind="dropped", round=0, duration_ms=0, dropped_sources=("doc-1",),
                                   context_budget={"max": 8000, "used": 1200}), T0 + timedelta(hours=1, seconds=2))
    store.finish_run(run, "failed", T0 + timedelta(hours=1, seconds=3))
    ids.append(run)
    run = store.start_run("ok run, café ☕", "live", "http://127.0.0.1:2/mcp", started_at=T0 + timedelta(hours=2))
    store.append_step(run, trace.record_tool_result(0, "echo", {"text": "ünïcødé"}, ToolResult.text("fine"), 0.0),
                      T0 + timedelta(hours=2, seconds=1))
    store.finish_run(run, "ok", T0 + timedelta(hours=2, seconds=2))
    ids.append(run)
    return ids


def snapshot(store: RunStore) -> list[dict[str, Any]]:
    """Everything a run is, apart from its row id, source and origin (which an import sets)."""
    runs = []
    for run in sorted(store.list_runs(limit=None), key=lambda r: r.uid):
        steps = [(s.sequence, s.started_at, s.outcome, s.payload) for s in store.iter_steps(run.id)]
        runs.append({"uid": run.uid, "title": run.title, "server": run.server, "status": run.status,
                     "started_at": run.started_at, "finished_at": run.finished_at, "steps": steps})
    return runs


def fingerprint(db: Path) -> tuple[str, str, str]:
    """SHA-256 of the database file and of its write-ahead log, and of a logical dump.

    The files tell that not one byte was written; the dump (read through a separate
    connection) tells the same in terms a reader can inspect when it fails.
    """
    def digest(path: Path) -> str:
        return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else "absent"

    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        dump = hashlib.sha256("\n".join(conn.iterdump()).encode()).hexdigest()
    finally:
        conn.close()
    return digest(db), digest(Path(f"{db}-wal")), dump


def settle(store: RunStore) -> None:
    """Move everything into the database file, so the fingerprint compares settled files."""
    store.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def trace_doc(runs: list[dict[str, Any]] | None = None, **top: Any) -> dict[str, Any]:
    """A trace-format document; override top-level fields with keywords."""
    doc: dict[str, Any] = {"format": "run-inspector-trace", "version": 1, "exported_at": "2026-11-30T12:00:00.000000Z"}
    doc.update(top)
    doc["runs"] = runs if runs is not None else [run_doc()]
    return doc


def run_doc(uid: str = "run-1", steps: list[Any] | None = None, **fields: Any) -> dict[str, Any]:
    """One run of a trace-format document."""
    run: dict[str, Any] = {"uid": uid, "title": "a run", "source": "live", "server": "http://127.0.0.1:1/mcp",
                           "status": "ok", "started_at": "2026-11-30T08:00:00.000000Z",
                           "finished_at": "2026-11-30T08:00:05.000000Z"}
    run.update(fields)
    run["steps"] = steps if steps is not None else [step_doc(1, TOOL_PAYLOAD), step_doc(2, LLM_PAYLOAD)]
    return run


def step_doc(sequence: int, payload: Any, **fields: Any) -> dict[str, Any]:
    """One step record of a trace-format document (with a copy of ``payload``: tests change them)."""
    record = {"sequence": sequence, "started_at": f"2026-11-30T08:00:0{sequence % 10}.000000Z",
              "payload": copy.deepcopy(payload)}
    record.update(fields)
    return record


def write_json(path: Path, value: Any) -> Path:
    path.write_text(json.dumps(value, indent=1), encoding="utf-8")
    return path


def attr(key: str, value: Any) -> dict[str, Any]:
    """An OTLP attribute (KeyValue)."""
    if isinstance(value, bool):
        return {"key": key, "value": {"boolValue": value}}
    if isinstance(value, int):
        return {"key": key, "value": {"intValue": str(value)}}
    return {"key": key, "value": {"stringValue": value}}


def span(trace_id: str = "5b8efff798038103d269b633813fc60c", span_id: str = "eee19b7ec3c1b174", *,
         parent: str = "", name: str = "GET /x", start: str = "1700000000000000000",
         end: str | None = "1700000001000000000", attributes: list[dict[str, Any]] | None = None,
         **extra: Any) -> dict[str, Any]:
    """A foreign OTLP span."""
    record: dict[str, Any] = {"traceId": trace_id, "spanId": span_id, "name": name, "kind": 2,
                              "startTimeUnixNano": start}
    if parent:
        record["parentSpanId"] = parent
    if end is not None:
        record["endTimeUnixNano"] = end
    record["attributes"] = attributes or []
    record.update(extra)
    return record


def otlp_doc(*spans: dict[str, Any], service: str = "agent-svc") -> dict[str, Any]:
    """One OTLP TracesData object holding ``spans``."""
    return {"resourceSpans": [{"resource": {"attributes": [attr("service.name", service)]},
                               "scopeSpans": [{"scope": {"name": "their-lib"}, "spans": list(spans)}]}]}


def exported_tool_arguments(tmp_path: Path, file_format: str, arguments: list[dict[str, Any]],
                            note: str | None = None) -> str:
    """The text of an export (``trace`` or ``otlp``) of one run of a real store with a tool step for each of
    ``arguments`` (its text the result too, when it has one), and the run's ``note``."""
    from inspector.store.notes import write_run_note
    from inspector.transfer.exporting import export

    store = RunStore.open(tmp_path / "runs.db")
    try:
        run = store.start_run("planted", "live", "stdio:srv", started_at=T0)
        trace = RunTrace()
        for given in arguments:
            result = ToolResult.text(str(given.get("text", "ok")))
            store.append_step(run, trace.record_tool_result(1, "tool", given, result, 1.0), T0)
        store.finish_run(run, "ok", T0)
        if note is not None:
            write_run_note(store, run, note)
        path = tmp_path / f"out.{file_format}.json"
        export(store, None, None, path, format=file_format)
    finally:
        store.close()
    return path.read_text(encoding="utf-8")
