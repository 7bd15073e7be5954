"""A note someone wrote on a received run or step is never replaced by the sender's. The receiver writes a
trace's run again, whole, whenever the trace grows; it wrote the note of the sender's root span
(``run_inspector.run.note``) over the one written here, and a step's note written here went with the
step as the step was written again. Real HTTP to a real receiver on 127.0.0.1, a real SQLite file,
the notes written as ``runs note`` and the window write them."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from inspector.capture import ReceiverOptions, TraceReceiver
from inspector.runs.trace_ids import leg_span_id, trace_id
from inspector.store import RunStore, open_database
from inspector.store.notes import step_id_of, write_run_note, write_step_note
from tests.support.sample_runs import mixed_run

TRACE = "0af7651916cd43dd8448eb211c80319c"
ROOT, CLIENT, SERVER, OTHER = "1111111111111111", "2222222222222222", "3333333333333333", "4444444444444444"


def _span(span: str, name: str, *, parent: str = "", kind: int = 1, start: int = 1_000,
          attributes: dict[str, str] | None = None, trace: str = TRACE) -> dict[str, object]:
    return {"traceId": trace, "spanId": span, "parentSpanId": parent, "name": name, "kind": kind,
            "startTimeUnixNano": str(start), "endTimeUnixNano": str(start + 500),
            "attributes": [{"key": key, "value": {"stringValue": value}} for key, value in (attributes or {}).items()]}


def _call(span: str, *, parent: str = ROOT, kind: int = 3, start: int = 2_000, trace: str = TRACE
          ) -> dict[str, object]:
    return _span(span, "tools/call echo", parent=parent, kind=kind, start=start, trace=trace,
                 attributes={"mcp.method.name": "tools/call", "gen_ai.tool.name": "echo"})


def _post(url: str, *spans: dict[str, object]) -> None:
    body = {"resourceSpans": [{"scopeSpans": [{"spans": list(spans)}]}]}
    answer = httpx.post(url, content=json.dumps(body).encode(), headers={"Content-Type": "application/json"},
                        timeout=10)
    assert answer.status_code == 200 and "partialSuccess" not in answer.json(), answer.text


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[TraceReceiver]:
    with TraceReceiver(tmp_path / "received.db", ReceiverOptions(port=0, quiet_s=30)) as running:
        yield running


@pytest.fixture
def store(receiver: TraceReceiver) -> Iterator[RunStore]:
    opened = RunStore(open_database(receiver.db_path))
    yield opened
    opened.db.conn.close()


def _run_id(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT id FROM runs WHERE uid = ?", (f"otlp-{TRACE}",)).fetchone()[0])


def _notes(db: Path) -> tuple[str, list[tuple[str, str]]]:
    with sqlite3.connect(db) as conn:
        run = conn.execute("SELECT note FROM runs WHERE uid = ?", (f"otlp-{TRACE}",)).fetchone()[0]
        steps = conn.execute("SELECT json_extract(payload, '$.raw.otlp.spanId'), json_extract(payload, '$.note')"
                             " FROM steps ORDER BY sequence").fetchall()
    return run, steps


def test_the_senders_run_note_does_not_replace_one_written_here(receiver: TraceReceiver, store: RunStore) -> None:
    _post(receiver.url, _call(CLIENT))  # the root span has not come yet: the run has no note
    write_run_note(store, _run_id(receiver.db_path), "the reviewer's finding")
    _post(receiver.url, _span(ROOT, "invoke_agent", attributes={"run_inspector.run.note": "the sender's note"}))
    assert _notes(receiver.db_path)[0] == "the reviewer's finding"  # before: "the sender's note"


def test_the_senders_run_note_fills_a_run_without_one(receiver: TraceReceiver) -> None:
    _post(receiver.url, _call(CLIENT))
    _post(receiver.url, _span(ROOT, "invoke_agent", attributes={"run_inspector.run.note": "the sender's note"}))
    assert _notes(receiver.db_path)[0] == "the sender's note"


def test_a_step_note_written_here_stays_as_the_trace_grows(receiver: TraceReceiver, store: RunStore) -> None:
    _post(receiver.url, _span(ROOT, "invoke_agent"), _call(CLIENT))
    run_id = _run_id(receiver.db_path)
    write_step_note(store, step_id_of(store, run_id, 2), "this call was slow")
    _post(receiver.url, _call(OTHER, start=3_000))
    _post(receiver.url, _call(SERVER, parent=CLIENT, kind=2, start=2_100))  # its server side joins the step
    run_note, steps = _notes(receiver.db_path)
    assert (CLIENT, "this call was slow") in steps  # before: (CLIENT, None), the note gone
    assert (OTHER, None) in steps and run_note == ""


def test_a_step_note_written_here_wins_over_the_senders(receiver: TraceReceiver, store: RunStore) -> None:
    _post(receiver.url, _span(ROOT, "invoke_agent"), _call(SERVER, parent=CLIENT, kind=2, start=2_100))
    run_id = _run_id(receiver.db_path)
    step = next(number for number, (span, _) in enumerate(_notes(receiver.db_path)[1], 1) if span == SERVER)
    write_step_note(store, step_id_of(store, run_id, step), "mine")
    client = _call(CLIENT)
    client["attributes"].append({"key": "run_inspector.step.note", "value": {"stringValue": "the sender's"}})
    _post(receiver.url, client)  # the client side arrives: the server span's step becomes the joined call's
    steps = _notes(receiver.db_path)[1]
    assert (CLIENT, "mine") in steps, steps


def test_notes_on_a_run_of_ours_and_the_server_spans_joined_to_it_stay_as_more_arrive(
        receiver: TraceReceiver, store: RunStore) -> None:
    """A server's spans in the trace of a run recorded here join that run (capture/live_joins.py): its own
    steps are never written again, the joined steps only added to, each span once. A note written on the
    run, on one of its own steps and on a joined step stays as more of the trace arrives (new spans, the
    same spans again, a child of the noted span, a span carrying the sender's note) and as it settles."""
    run_id = mixed_run(store)
    uid = store.get_run(run_id).uid
    trace, leg = trace_id(uid), leg_span_id(uid, 2, 0)  # the server's spans hang under our write_note call
    _post(receiver.url, _call(SERVER, parent=leg, kind=2, start=2_100, trace=trace))
    joined = next(number for number, (span, _) in enumerate(_steps_of(receiver.db_path, run_id), 1) if span == SERVER)
    write_run_note(store, run_id, "the reviewer's finding")
    write_step_note(store, step_id_of(store, run_id, 2), "our call")
    write_step_note(store, step_id_of(store, run_id, joined), "the server was slow here")
    noted = [(None, "our call"), (SERVER, "the server was slow here")]
    sender = _call(OTHER, parent=leg, kind=2, start=3_000, trace=trace)
    sender["attributes"].append({"key": "run_inspector.step.note", "value": {"stringValue": "the sender's"}})
    for more in ([_span(CLIENT, "SELECT", parent=SERVER, start=2_200, trace=trace)],  # a child of the noted span
                 [_call(SERVER, parent=leg, kind=2, start=2_100, trace=trace)],  # sent again
                 [sender]):
        _post(receiver.url, *more)
        steps = _steps_of(receiver.db_path, run_id)
        assert all(pair in steps for pair in noted), steps
    receiver.stop()  # settles the trace: written once more
    steps = _steps_of(receiver.db_path, run_id)
    assert all(pair in steps for pair in noted) and (OTHER, "the sender's") in steps, steps
    assert [span for span, _ in steps].count(SERVER) == 1
    with sqlite3.connect(receiver.db_path) as conn:
        assert conn.execute("SELECT note FROM runs WHERE id = ?", (run_id,)).fetchone()[0] == "the reviewer's finding"
        assert conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 1  # no run of its own


def _steps_of(db: Path, run_id: int) -> list[tuple[str | None, str | None]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT json_extract(payload, '$.raw.otlp.spanId'), json_extract(payload, '$.note')"
                            " FROM steps WHERE run_id = ? ORDER BY sequence", (run_id,)).fetchall()
