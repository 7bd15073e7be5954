"""The trace receiver keeps a run's server as a file's import does: a stranger's spans naming a server by an address
with a password and a query, or by a command line with a token (of a megabyte, too), were stored as sent."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from inspector.capture import ReceiverOptions, TraceReceiver
from inspector.runs.trace_ids import trace_id

TOKEN, PASSWORD, QUERY_KEY = "tok3nS3cretValue", "pa55wordValue", "qu3ryKeyValue"
SERVERS = {"address": f"http://bob:{PASSWORD}@tools.example/mcp?api_key={QUERY_KEY}",
           "command": f"stdio:srv --token {TOKEN}",
           "huge": f"stdio:sh -c 'srv --token {TOKEN} {'a ' * 500_000}'"}


def _run_span(uid: str, server: str) -> dict[str, object]:
    attributes = {"run_inspector.span": "run", "run_inspector.run.uid": uid, "run_inspector.run.title": uid,
                  "run_inspector.run.source": "live", "run_inspector.outcome": "ok", "run_inspector.run.server": server}
    return {"traceId": trace_id(uid), "spanId": "1111111111111111", "name": uid, "kind": 3, "startTimeUnixNano": "1",
            "endTimeUnixNano": "2",
            "attributes": [{"key": key, "value": {"stringValue": value}} for key, value in attributes.items()]}


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[TraceReceiver]:
    with TraceReceiver(tmp_path / "received.db", ReceiverOptions(port=0, quiet_s=0.2)) as running:
        yield running


def _stored(db: Path) -> dict[str, str]:
    with sqlite3.connect(db) as conn:
        return dict(conn.execute("SELECT title, server FROM runs").fetchall())


def test_a_received_runs_server_is_kept_without_its_credentials(receiver: TraceReceiver, tmp_path: Path) -> None:
    body = {"resourceSpans": [{"scopeSpans": [{"spans": [_run_span(uid, server) for uid, server in SERVERS.items()]}]}]}
    started = time.process_time()  # the receiver's threads too, not the loaded machine's wall clock
    answer = httpx.post(receiver.url, content=json.dumps(body).encode(), headers={"Content-Type": "application/json"},
                        timeout=120)
    assert answer.status_code == 200
    deadline = time.monotonic() + 60
    while len(stored := _stored(tmp_path / "received.db")) < len(SERVERS) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert time.process_time() - started < 8.0
    assert stored["address"] == "http://tools.example/mcp"
    assert stored["command"] == "stdio:srv --token …"
    assert stored["huge"].startswith("stdio:sh -c 'srv --token … a a ") and len(stored["huge"]) < 4_000
    assert not any(secret in server for server in stored.values() for secret in (TOKEN, PASSWORD, QUERY_KEY))
