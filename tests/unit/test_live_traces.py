"""Live traces (inspector/capture/live_traces.py) on a real SQLite file: growing, settling, reopening."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector.capture import live_traces
from inspector.capture.live_traces import LiveTraces, RunReceived
from inspector.capture.otlp_body import read_request
from inspector.store import RunStore
from inspector.transfer import export, import_trace
from tests.support.sample_runs import mixed_run

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "otel" / "mcp_sdk.jsonl"


def _requests() -> list[bytes]:
    return [line.encode() for line in FIXTURE.read_text(encoding="utf-8").splitlines() if line.strip()]


def _spans(body: bytes) -> list[Any]:
    return read_request(body, "application/json")


def _steps(store: RunStore, uid: str) -> list[tuple[Any, ...]]:
    run = store.find_run_by_uid(uid)
    assert run is not None
    return [(step.sequence, step.started_at, step.outcome, step.payload) for step in store.iter_steps(run.id)]


def _imported(tmp_path: Path, bodies: list[bytes]) -> RunStore:
    source = tmp_path / "spans.jsonl"
    source.write_bytes(b"".join(body + b"\n" for body in bodies))
    store = RunStore.open(tmp_path / "imported.db")
    import_trace(store, source)
    return store


def test_a_trace_let_go_of_grows_again_from_its_stored_steps(tmp_path: Path) -> None:
    """A receiver that no longer holds a trace (restarted, or out of room) reads its spans back from
    the run's steps: the run is still the one an import of all the spans gives."""
    bodies = _requests()
    store = RunStore.open(tmp_path / "received.db")
    first = LiveTraces(store, quiet_s=0)
    first.add(_spans(bodies[0]))
    first.settle()
    assert first.growing == 0
    again = LiveTraces(store, quiet_s=0)  # holds nothing
    for body in bodies[1:]:
        again.add(_spans(body))
    assert again.growing > 0
    again.settle()
    imported = _imported(tmp_path, bodies)
    for run in imported.list_runs(limit=None):
        live = sorted((s[1], json.dumps(s[3], sort_keys=True)) for s in _steps(store, run.uid))
        read = sorted((s[1], json.dumps(s[3], sort_keys=True)) for s in _steps(imported, run.uid))
        assert live == read
        assert store.find_run_by_uid(run.uid).status == run.status


def test_a_run_that_did_not_come_from_the_receiver_is_left_alone(tmp_path: Path) -> None:
    bodies = _requests()
    store = _imported(tmp_path, bodies)
    before = {run.uid: _steps(store, run.uid) for run in store.list_runs(limit=None)}
    told: list[RunReceived] = []
    live = LiveTraces(store, told.append, quiet_s=0)
    assert live.add(_spans(bodies[0])).rejected == 0
    live.settle()
    assert told == []
    assert {run.uid: _steps(store, run.uid) for run in store.list_runs(limit=None)} == before


def test_our_own_runs_arrive_whole_once_their_run_span_has_come(tmp_path: Path) -> None:
    with RunStore.open(tmp_path / "mine.db") as mine:
        run_id = mixed_run(mine)
        uid = mine.get_run(run_id).uid
        export(mine, [run_id], None, tmp_path / "run.otlp.json", format="otlp")
        expected = _steps(mine, uid)
    document = json.loads((tmp_path / "run.otlp.json").read_text(encoding="utf-8"))
    spans = _spans(json.dumps(document).encode())
    run_span = next(held for held in spans if {"key": "run_inspector.span", "value": {"stringValue": "run"}}
                    in held.span["attributes"])
    store = RunStore.open(tmp_path / "received.db")
    live = LiveTraces(store, quiet_s=0)
    assert live.add([held for held in spans if held is not run_span]).rejected == 0
    assert store.list_runs() == []  # steps without their run span: not a run yet
    live.add([run_span])
    live.settle()
    received = store.find_run_by_uid(uid)
    assert received is not None and received.status == "cancelled"
    assert [step[3] for step in _steps(store, uid)] == [step[3] for step in expected]


def test_another_tools_span_in_the_trace_of_a_run_of_ours_leaves_the_run_whole(tmp_path: Path) -> None:
    # A server's span in our run's trace (it read the traceparent we sent) is no longer refused: the
    # run of ours is received whole; the server's side joins it when its spans are imported from a file.
    with RunStore.open(tmp_path / "mine.db") as mine:
        run_id = mixed_run(mine)
        export(mine, [run_id], None, tmp_path / "run.otlp.json", format="otlp")
    ours = _spans((tmp_path / "run.otlp.json").read_bytes())
    foreign = _spans(_requests()[0])[0]
    stranger = type(foreign)(foreign.resource, foreign.scope, {**foreign.span, "traceId": ours[0].span["traceId"]})
    live = LiveTraces(RunStore.open(tmp_path / "received.db"), quiet_s=0)
    assert live.add(ours).rejected == 0
    assert live.add([stranger]).rejected == 0
    live.settle(everything=True)
    store = live.store if hasattr(live, "store") else None
    runs = (store or RunStore.open(tmp_path / "received.db")).list_runs()
    assert [run.uid for run in runs if run.uid.startswith("otlp-")] == []  # no run made of the stranger alone


def test_a_trace_beyond_the_limit_is_refused_with_a_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live_traces, "MAX_TRACE_SPANS", 3)
    spans = _spans(_requests()[0])
    live = LiveTraces(RunStore.open(tmp_path / "received.db"), quiet_s=0)
    taken = live.add(spans)
    assert taken.rejected >= 4 and "has more than 3 spans" in str(taken.reason)


def test_a_request_that_crosses_the_limit_fills_the_trace_to_it(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The first spans that fit are kept and the rest refused, however the exporter cut its batches: a
    request (or a slice of one) that crosses the limit was refused whole, and the trace stopped short of it
    (an SDK's batches of a 150,000-span trace: 18,302 spans kept of the 20,000 allowed)."""
    spans = [held for body in _requests() for held in _spans(body)]
    trace_id = spans[0].span["traceId"]
    mine = [held for held in spans if held.span["traceId"] == trace_id]
    monkeypatch.setattr(live_traces, "MAX_TRACE_SPANS", len(mine) - 2)
    store = RunStore.open(tmp_path / "received.db")
    live = LiveTraces(store, quiet_s=0)
    assert live.add(mine[:-4]).rejected == 0
    crossing = live.add(mine[-4:])
    assert crossing.rejected == 2 and f"has more than {len(mine) - 2} spans" in str(crossing.reason)
    assert live.add(mine[-2:]).rejected == 2  # full: nothing more is kept
    live.settle()
    within = LiveTraces(RunStore.open(tmp_path / "within.db"), quiet_s=0)
    assert within.add(mine[:-2]).rejected == 0  # the spans up to the limit, in one request
    within.settle()
    assert _steps(store, f"otlp-{trace_id}") == _steps(within.store, f"otlp-{trace_id}")


def test_room_is_made_by_letting_settled_traces_go(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _spans(_requests()[0])
    other = [type(held)(held.resource, held.scope, {**held.span, "traceId": "ab" * 16}) for held in first]
    monkeypatch.setattr(live_traces, "MAX_HELD_SPANS", len(first) + 2)
    store = RunStore.open(tmp_path / "received.db")
    live = LiveTraces(store, quiet_s=3600)
    assert live.add(first).rejected == 0
    crowded = live.add(other)
    assert crowded.rejected == len(other) and "holds" in str(crowded.reason)  # nothing settled to let go of
    live.settle(everything=True)
    assert live.add(other).rejected == 0  # the settled traces were let go of
    assert store.find_run_by_uid("otlp-" + "ab" * 16).status == "running"


def test_spans_sent_again_give_the_same_run_held_or_read_back(tmp_path: Path) -> None:
    """An exporter that sends a request again (it got no answer, or a 503) does not make steps twice:
    a span sent again is left out (the first is kept), whether the trace is held or read back from its steps."""
    bodies = _requests()
    store = RunStore.open(tmp_path / "received.db")
    live = LiveTraces(store, quiet_s=0)
    for body in bodies + bodies:
        live.add(_spans(body))
    live.settle()
    again = LiveTraces(store, quiet_s=0)  # holds nothing: restarted
    for body in bodies:
        again.add(_spans(body))
    again.settle()
    imported = _imported(tmp_path, bodies)
    for run in imported.list_runs(limit=None):
        assert len(_steps(store, run.uid)) == len(_steps(imported, run.uid))


def test_another_span_under_an_id_received_before_is_refused_and_the_first_kept(tmp_path: Path) -> None:
    """An import keeps the first span with an id in its trace, so the receiver does: a span that differs
    from the one received under its id is refused (its exporter is told in partial_success), one sent
    again as it was is taken without a word, and the run is the one an import of the same requests gives."""
    bodies = _requests()
    first = json.loads(bodies[0])
    changed = json.loads(bodies[0])
    span = changed["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    span["name"] = "another span, the same id"
    store = RunStore.open(tmp_path / "received.db")
    live = LiveTraces(store, quiet_s=0)
    assert live.add(_spans(bodies[0])).rejected == 0
    assert live.add(_spans(bodies[0])) == live_traces.Taken()  # sent again: no fault
    taken = live.add(_spans(json.dumps(changed).encode()))
    assert taken.rejected == 1
    assert str(taken.reason) == (f"span {span['spanId']} of trace {span['traceId']} differs from the span sent "
                                 "before under its id; the first is kept")
    live.settle()
    imported = _imported(tmp_path, [bodies[0], bodies[0], json.dumps(changed).encode()])
    assert first != changed
    for run in imported.list_runs(limit=None):
        assert _steps(store, run.uid) == _steps(imported, run.uid)


def test_a_request_whose_write_the_database_refuses_leaves_nothing_held(tmp_path: Path) -> None:
    """Another program holds the database past the lock wait: the request's spans are not kept in
    memory either (its exporter is answered 503 and sends them again), so a later write of the trace
    holds only what was accepted."""
    import sqlite3

    bodies = _requests()
    store = RunStore.open(tmp_path / "received.db", lock_wait_s=0.1)
    live = LiveTraces(store, quiet_s=0)
    live.add(_spans(bodies[0]))
    live.settle()
    first = {run.uid: _steps(store, run.uid) for run in store.list_runs(limit=None)}
    other = sqlite3.connect(str(tmp_path / "received.db"), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            live.add(_spans(bodies[1]))
        assert live.growing == 0  # as before the request: settled
    finally:
        other.execute("ROLLBACK")
        other.close()
    live.settle(everything=True)  # nothing to write: what it held is stored already
    assert {run.uid: _steps(store, run.uid) for run in store.list_runs(limit=None)} == first
    for body in bodies[1:]:
        live.add(_spans(body))
    live.settle()
    imported = _imported(tmp_path, bodies)
    for run in imported.list_runs(limit=None):
        assert len(_steps(store, run.uid)) == len(_steps(imported, run.uid))
