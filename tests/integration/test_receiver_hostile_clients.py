"""The OTLP receiver against clients that hold it: bodies sent a byte at a time, many bodies at once.

Real sockets to a real receiver on 127.0.0.1. Each connection has a thread; what the receiver
holds is bounded by how many bodies it reads at once and how long one may take
(:mod:`inspector.capture.request_body`), and the others are answered with a clear status
(503: retry later; 408: too slow) while the receiver goes on serving.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from inspector.capture import ReceiverOptions, TraceReceiver
from inspector.capture.request_body import READERS
from tests.support.receiver_turns import CountedGate, wait_until

JSON = {"Content-Type": "application/json"}
EMPTY = b'{"resourceSpans": []}'


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[TraceReceiver]:
    with TraceReceiver(tmp_path / "received.db", ReceiverOptions(port=0, quiet_s=0.4)) as running:
        running.gate = CountedGate(wait_s=1.0, deadline_s=2.0)
        yield running


def _opened(receiver: TraceReceiver, length: int) -> socket.socket:
    host, port = receiver.address
    connection = socket.create_connection((host, port), timeout=10)
    connection.sendall(b"POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                       b"Content-Length: %d\r\n\r\n{" % length)
    return connection


def _answer(connection: socket.socket) -> str:
    answer = b""
    while b"\r\n\r\n" not in answer:
        piece = connection.recv(4096)
        if not piece:
            break
        answer += piece
    return answer.decode("latin-1")


def test_a_body_sent_a_byte_at_a_time_is_refused_at_its_deadline(receiver: TraceReceiver) -> None:
    connection = _opened(receiver, 10_000)
    started = time.monotonic()
    connection.settimeout(0.5)
    answer = ""
    while time.monotonic() - started < 8:  # a byte every half second: each within the socket's timeout
        try:
            connection.sendall(b" ")
            answer = _answer(connection)
            break
        except TimeoutError:
            continue
        except OSError:
            break
    took = time.monotonic() - started
    connection.close()
    assert answer.startswith("HTTP/1.1 408"), answer
    assert 1.5 < took < 5
    assert "did not arrive within 2 s" in answer or "408" in answer
    assert httpx.post(receiver.url, content=EMPTY, headers=JSON).status_code == 200


def test_bodies_beyond_those_it_reads_at_once_are_answered_503_and_it_goes_on(receiver: TraceReceiver) -> None:
    holding = [_opened(receiver, 16 * 1024 * 1024) for _ in range(READERS)]
    try:
        wait_until(lambda: receiver.gate.holding == READERS, "each holds a turn, its body not yet whole")
        started = time.monotonic()
        answer = httpx.post(receiver.url, content=EMPTY, headers=JSON, timeout=10)
        assert answer.status_code == 503
        assert time.monotonic() - started < 3
        assert answer.json()["code"] == 14 and "retry later" in answer.json()["message"]
    finally:
        for connection in holding:
            connection.close()
    wait_until(lambda: receiver.gate.holding == 0, "the turns given back once their clients are gone")
    answer = httpx.post(receiver.url, content=EMPTY, headers=JSON, timeout=10)
    assert answer.status_code == 200 and json.loads(answer.content) == {}


def _spans(count: int, per_trace: int) -> bytes:
    spans = [{"traceId": "%032x" % (index // per_trace + 1), "spanId": "%016x" % (index + 1), "name": "tiny",
              "startTimeUnixNano": "1000", "endTimeUnixNano": "2000"} for index in range(count)]
    return json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}).encode()


def test_a_request_of_very_many_tiny_spans_does_not_keep_other_exporters_waiting(receiver: TraceReceiver) -> None:
    import threading

    big = _spans(30_000, 100)  # 300 traces: several seconds of the writer's work
    answered: dict[str, float] = {}

    def send_big() -> None:
        response = httpx.post(receiver.url, content=big, headers=JSON, timeout=120)
        assert response.status_code == 200
        answered["big"] = time.monotonic()

    sender = threading.Thread(target=send_big)
    sender.start()
    # The writer has begun the big request's first slice: the small one is taken before its later slices.
    wait_until(lambda: receiver.begun >= 1, "the writer began the big request", timeout_s=60)
    small = httpx.post(receiver.url, content=_spans(3, 3), headers=JSON, timeout=120)
    answered["small"] = time.monotonic()
    sender.join(120)
    assert small.status_code == 200
    assert answered["small"] < answered["big"]


def _stored_text(db: Path) -> str:
    import sqlite3

    connection = sqlite3.connect(db)
    try:
        tables = [row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return "\n".join(value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
                         for table in tables for row in connection.execute(f'SELECT * FROM "{table}"')  # noqa: S608
                         for value in row)
    finally:
        connection.close()


@pytest.mark.parametrize("encoding", ["json", "protobuf"])
def test_the_receivers_token_quoted_in_a_span_is_not_stored(tmp_path: Path, encoding: str) -> None:
    # An agent whose instrumentation records the headers of its requests (or a log line quoting
    # them) sends the receiver's own token inside its spans: it must not end up in a run.
    from google.protobuf.json_format import ParseDict
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

    db = tmp_path / "r.db"
    with TraceReceiver(db, ReceiverOptions(host="0.0.0.0", port=0, quiet_s=0.2)) as receiver:
        token = receiver.token
        assert token
        attributes = [{"key": "http.request.header.authorization", "value": {"stringValue": f"Bearer {token}"}},
                      {"key": "note", "value": {"stringValue": f"exporting with {token} now"}}]
        span = {"traceId": "0af7651916cd43dd8448eb211c80319c", "spanId": "b7ad6b7169203331", "name": "tools/call echo",
                "kind": 3, "startTimeUnixNano": "1000000000", "endTimeUnixNano": "2000000000",
                "attributes": attributes}
        document = {"resourceSpans": [{"resource": {"attributes": [{"key": "service.name", "value": {
            "stringValue": f"agent {token}"}}]}, "scopeSpans": [{"scope": {"name": "s"}, "spans": [span]}]}]}
        if encoding == "json":
            body, kind = json.dumps(document).encode(), JSON
        else:
            for item in document["resourceSpans"][0]["scopeSpans"][0]["spans"]:
                for field in ("traceId", "spanId"):
                    item[field] = __import__("base64").b64encode(bytes.fromhex(item[field])).decode()
            body = ParseDict(document, ExportTraceServiceRequest()).SerializeToString()
            kind = {"Content-Type": "application/x-protobuf"}
        url = f"http://127.0.0.1:{receiver.address[1]}/v1/traces"
        answer = httpx.post(url, content=body, headers={**kind, "Authorization": f"Bearer {token}"})
        assert answer.status_code == 200
    stored = _stored_text(db)
    assert "tools/call echo" in stored and "exporting with [REDACTED] now" in stored
    assert token not in stored
