"""A call's server span that joined a run of ours first, its client span later: one step with two sides.

The real mcp SDK's spans (tests/fixtures/otel/mcp_sdk.jsonl: line 1 the agent's client spans, ``MCP send
tools/call ...``; line 2 the server's spans under them), moved into the trace of a run recorded here. The
server half arrives first and each call's server span becomes a step of its own; when the client half
follows, that step becomes the call's two-sided step, keeping its number and the note written on it. Before,
the server span stayed in its step and came again in a new client+server step (only a step's own span id
counted as stored). Through a real receiver on 127.0.0.1 (real HTTP, a real SQLite file) and through
``import`` of two files, and in the other orders too: every span once, in one step.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from inspector.capture import ReceiverOptions, RunReceived, TraceReceiver
from inspector.runs.trace_ids import trace_id
from inspector.store import RunStore, open_database
from inspector.store.notes import step_id_of, write_step_note
from inspector.transfer import import_trace
from tests.support.sample_runs import mixed_run

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "otel" / "mcp_sdk.jsonl"
SDK_TRACE = "bde65e33"
LOOKUP_SERVER, LOOKUP_CLIENT = "9cfa74f58e79d651", "ffc80d7ee74d5927"
OUR_STEPS = 6  # mixed_run's


def _halves(trace: str) -> tuple[str, str]:
    """The fixture's client half and server half, their agent trace moved into ``trace``."""
    client, server = FIXTURE.read_text().splitlines()
    full = next(span["traceId"] for span in json.loads(client)["resourceSpans"][0]["scopeSpans"][0]["spans"])
    assert full.startswith(SDK_TRACE)
    return client.replace(full, trace), server.replace(full, trace)


def _steps(db: Path, run_id: int) -> list[tuple[int, str | None, str | None, str | None]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT sequence, json_extract(payload, '$.raw.otlp.spanId'), json_extract(payload, "
            "'$.raw.otlp.server.spanId'), json_extract(payload, '$.note') FROM steps WHERE run_id = ? AND sequence > ?"
            " ORDER BY sequence", (run_id, OUR_STEPS)).fetchall()


def _each_span_once(steps: list[tuple[int, str | None, str | None, str | None]]) -> None:
    spans = [span for _, *sides, _ in steps for span in sides if span]
    assert len(spans) == len(set(spans)), steps


def _sequence_of(steps: list[tuple[int, str | None, str | None, str | None]], span: str) -> int:
    return next(sequence for sequence, own, server, _ in steps if span in (own, server))


@pytest.fixture
def events() -> list[RunReceived]:
    return []


@pytest.fixture
def receiver(tmp_path: Path, events: list[RunReceived]) -> Iterator[TraceReceiver]:
    with TraceReceiver(tmp_path / "received.db", ReceiverOptions(port=0, quiet_s=30), on_run=events.append
                       ) as running:
        yield running


def _post(url: str, line: str) -> None:
    answer = httpx.post(url, content=line.encode(), headers={"Content-Type": "application/json"}, timeout=10)
    assert answer.status_code == 200 and "partialSuccess" not in answer.json(), answer.text


def _without_agent_span(line: str) -> str:
    document = json.loads(line)
    for group in document["resourceSpans"]:
        for scope in group["scopeSpans"]:
            scope["spans"] = [span for span in scope["spans"] if not span["name"].startswith("invoke_agent")]
    return json.dumps(document)


def test_received_server_side_first_becomes_the_calls_two_sided_step(receiver: TraceReceiver,
                                                                     events: list[RunReceived]) -> None:
    store = RunStore(open_database(receiver.db_path))
    run_id = mixed_run(store)
    client, server = _halves(trace_id(store.get_run(run_id).uid))
    _post(receiver.url, server)
    before = _steps(receiver.db_path, run_id)
    lookup = _sequence_of(before, LOOKUP_SERVER)
    assert (lookup, LOOKUP_SERVER, None, None) in before
    write_step_note(store, step_id_of(store, run_id, lookup), "the lookup was slow")
    events.clear()
    _post(receiver.url, _without_agent_span(client))  # only the client sides: nothing added, six steps changed
    assert [(event.run_id, event.steps, event.created) for event in events] == [(run_id, 6, False)]
    _post(receiver.url, client)
    receiver.stop()  # settled: written once more
    after = _steps(receiver.db_path, run_id)
    _each_span_once(after)  # before the change: every server span twice, alone and beside its client
    assert (lookup, LOOKUP_CLIENT, LOOKUP_SERVER, "the lookup was slow") in after
    servers = [server for _, _, server, _ in after if server]
    assert len(servers) == 6  # initialize, tools/list and the four tools/call: two sides each
    store.db.close()


def test_a_client_side_received_by_a_receiver_started_again_joins_the_stored_server_side(tmp_path: Path) -> None:
    """The server half received, the receiver stopped and started again (its held spans gone), then the
    client half: the stored server spans of the trace are read back, so each call is still one step."""
    db = tmp_path / "received.db"
    store = RunStore(open_database(db))
    run_id = mixed_run(store)
    client, server = _halves(trace_id(store.get_run(run_id).uid))
    with TraceReceiver(db, ReceiverOptions(port=0, quiet_s=30)) as first:
        _post(first.url, server)
    lookup = _sequence_of(_steps(db, run_id), LOOKUP_SERVER)
    write_step_note(store, step_id_of(store, run_id, lookup), "the lookup was slow")
    with TraceReceiver(db, ReceiverOptions(port=0, quiet_s=30)) as again:
        _post(again.url, client)
    after = _steps(db, run_id)
    _each_span_once(after)  # before: each client span a step of its own, beside its server span's
    assert (lookup, LOOKUP_CLIENT, LOOKUP_SERVER, "the lookup was slow") in after
    assert len(after) == 7
    store.db.close()


@pytest.mark.parametrize("first", ["server", "client"])
def test_imported_half_then_whole_gives_each_call_one_step(tmp_path: Path, first: str) -> None:
    store = RunStore(open_database(tmp_path / "runs.db"))
    run_id = mixed_run(store)
    client, server = _halves(trace_id(store.get_run(run_id).uid))
    (tmp_path / "half.jsonl").write_text((server if first == "server" else client) + "\n")
    (tmp_path / "whole.jsonl").write_text(client + "\n" + server + "\n")
    import_trace(store, tmp_path / "half.jsonl")
    before = _steps(tmp_path / "runs.db", run_id)
    noted = LOOKUP_SERVER if first == "server" else LOOKUP_CLIENT
    lookup = _sequence_of(before, noted)
    write_step_note(store, step_id_of(store, run_id, lookup), "the lookup was slow")
    import_trace(store, tmp_path / "whole.jsonl")
    after = _steps(tmp_path / "runs.db", run_id)
    _each_span_once(after)
    # (the client half first: before the change, its steps were kept and the server spans were lost)
    assert (lookup, LOOKUP_CLIENT, LOOKUP_SERVER, "the lookup was slow") in after
    # Each step of the half is still there, under its number; the whole adds only the agent's own span.
    assert [sequence for sequence, *_ in after][:len(before)] == [sequence for sequence, *_ in before]
    assert len(after) == 7 and sum(1 for *_, server, _ in after if server) == 6
    # The whole again, then the half again: nothing changes.
    import_trace(store, tmp_path / "whole.jsonl")
    import_trace(store, tmp_path / "half.jsonl")
    assert _steps(tmp_path / "runs.db", run_id) == after
    store.db.close()


def test_imported_whole_then_server_half_adds_nothing(tmp_path: Path) -> None:
    store = RunStore(open_database(tmp_path / "runs.db"))
    run_id = mixed_run(store)
    client, server = _halves(trace_id(store.get_run(run_id).uid))
    (tmp_path / "server.jsonl").write_text(server + "\n")
    (tmp_path / "whole.jsonl").write_text(client + "\n" + server + "\n")
    import_trace(store, tmp_path / "whole.jsonl")
    whole = _steps(tmp_path / "runs.db", run_id)
    import_trace(store, tmp_path / "server.jsonl")
    assert _steps(tmp_path / "runs.db", run_id) == whole  # before: each server span again, alone
    store.db.close()


def test_a_calls_sides_stored_apart_become_one_step_with_both_notes(tmp_path: Path) -> None:
    """The client half, then the server half (two imports: neither pairs a call), then the whole: each
    call's two stored steps become one, the earlier; the notes written on both stay on it."""
    store = RunStore(open_database(tmp_path / "runs.db"))
    run_id = mixed_run(store)
    client, server = _halves(trace_id(store.get_run(run_id).uid))
    for name, text in (("client", client), ("server", server), ("whole", client + "\n" + server)):
        (tmp_path / f"{name}.jsonl").write_text(text + "\n")
    import_trace(store, tmp_path / "client.jsonl")
    import_trace(store, tmp_path / "server.jsonl")
    apart = _steps(tmp_path / "runs.db", run_id)
    client_step, server_step = _sequence_of(apart, LOOKUP_CLIENT), _sequence_of(apart, LOOKUP_SERVER)
    assert client_step < server_step
    write_step_note(store, step_id_of(store, run_id, client_step), "asked twice")
    write_step_note(store, step_id_of(store, run_id, server_step), "the lookup was slow")
    import_trace(store, tmp_path / "whole.jsonl")
    after = _steps(tmp_path / "runs.db", run_id)
    _each_span_once(after)
    assert (client_step, LOOKUP_CLIENT, LOOKUP_SERVER, "asked twice\n\nthe lookup was slow") in after
    assert len(after) == 7
    store.db.close()
