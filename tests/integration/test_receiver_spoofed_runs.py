"""Spans that claim, in our own attribute names, the run of another trace. The receiver replaces a run it
made whenever its trace grows; a span of trace A whose ``run_inspector.run.uid`` named ``otlp-<B>``
replaced the run of trace B (its steps gone, its title, server and note the sender's). Real HTTP to a
real receiver on 127.0.0.1, a real SQLite file."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from inspector.capture import ReceiverOptions, TraceReceiver
from inspector.runs.trace_ids import trace_id

JSON = {"Content-Type": "application/json"}
VICTIM = "0af7651916cd43dd8448eb211c80319c"
SENDER = "5b8efff798038103d269b633813fc60c"


def _span(trace: str, span: str, name: str, attributes: dict[str, str] | None = None) -> dict[str, object]:
    return {"traceId": trace, "spanId": span, "name": name, "kind": 3, "startTimeUnixNano": "1",
            "endTimeUnixNano": "2", "attributes": [{"key": key, "value": {"stringValue": value}}
                                                   for key, value in (attributes or {}).items()]}


def _post(url: str, *spans: dict[str, object]) -> httpx.Response:
    body = {"resourceSpans": [{"scopeSpans": [{"spans": list(spans)}]}]}
    return httpx.post(url, content=json.dumps(body).encode(), headers=JSON, timeout=10)


def _run_span(trace: str, uid: str, title: str = "SPOOFED", span: str = "1111111111111111") -> dict[str, object]:
    return _span(trace, span, title, {
        "run_inspector.span": "run", "run_inspector.run.uid": uid, "run_inspector.run.title": title,
        "run_inspector.run.source": "live", "run_inspector.outcome": "ok", "run_inspector.run.note": "not mine",
        "run_inspector.run.server": "http://evil.example"})


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[TraceReceiver]:
    with TraceReceiver(tmp_path / "received.db", ReceiverOptions(port=0, quiet_s=0.2)) as running:
        yield running


def _runs(db: Path) -> list[tuple[str, str, str, int]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT uid, title, note, (SELECT COUNT(*) FROM steps WHERE run_id = runs.id) "
                            "FROM runs ORDER BY id").fetchall()


@pytest.mark.parametrize("uid", [f"otlp-{VICTIM}", "a-uid-of-ours"], ids=["a trace's run", "a run of ours"])
def test_a_run_span_naming_another_traces_run_is_refused_and_that_run_kept(receiver: TraceReceiver,
                                                                           uid: str) -> None:
    victim = VICTIM if uid.startswith("otlp-") else trace_id(uid)
    first = [_span(victim, "2222222222222222", "tools/call echo", {"mcp.method.name": "tools/call"})]
    if not uid.startswith("otlp-"):  # a run of ours, pushed to the receiver: its run span in its own trace
        first.insert(0, _run_span(victim, uid, "mine", "3333333333333333"))
    assert _post(receiver.url, *first).status_code == 200
    before = _runs(receiver.db_path)
    answer = _post(receiver.url, _run_span(SENDER, uid))
    assert answer.status_code == 200
    said = answer.json()["partialSuccess"]
    assert said == {"rejectedSpans": "1", "errorMessage": f"trace {SENDER}: its run span names the run {uid}, "
                                                          "which belongs to another trace; its spans are refused"}
    assert _runs(receiver.db_path) == before  # before: ('otlp-…', 'SPOOFED', 'not mine', 0)
    assert before[0][:2] == (uid, "tools/call echo" if uid.startswith("otlp-") else "mine")
