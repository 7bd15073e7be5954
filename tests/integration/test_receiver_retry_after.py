"""The OTLP receiver's refusals for load say when to retry (``Retry-After``, as OTLP/HTTP allows for 503):
a second when every turn to read a body is taken, ten when its writer cannot store a request's spans
(another program holds the database for longer than the lock wait: a minute, half a second here; or the
writer does not take them within a minute, see test_receiver_503_stores_nothing.py). The OpenTelemetry
SDK's own exporter waits what it is told.

Real sockets to a real receiver on 127.0.0.1, a real SQLite file, the SDK's real OTLP/HTTP exporter."""

from __future__ import annotations

import logging
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from inspector.capture import ReceiverOptions, TraceReceiver
from inspector.capture.receiver import BUSY_RETRY_AFTER_S, WRITER_RETRY_AFTER_S
from inspector.capture.request_body import READERS
from tests.support.receiver_turns import CountedGate, wait_until

JSON = {"Content-Type": "application/json"}
SPAN = (b'{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "%032x", "spanId": "%016x", "name": "one",'
        b' "startTimeUnixNano": "1000", "endTimeUnixNano": "2000"}]}]}]}')


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[TraceReceiver]:
    running = TraceReceiver(tmp_path / "received.db", ReceiverOptions(port=0, quiet_s=0.4))
    running.lock_wait_s = 0.5  # the receiver's own wait is a minute
    with running:
        running.gate = CountedGate(wait_s=0.5, deadline_s=5.0)
        running.answer_wait_s = 0.5
        yield running


@pytest.fixture
def held_database(receiver: TraceReceiver) -> Iterator[sqlite3.Connection]:
    """Another program holds the receiver's database for writing: the writer takes nothing meanwhile."""
    other = sqlite3.connect(str(receiver.db_path), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    yield other
    other.execute("ROLLBACK")
    other.close()


def test_a_request_beyond_the_bodies_read_at_once_is_told_to_retry_in_a_second(receiver: TraceReceiver) -> None:
    host, port = receiver.address
    holding = []
    for _ in range(READERS):
        connection = socket.create_connection((host, port), timeout=10)
        connection.sendall(b"POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                           b"Content-Length: 100000\r\n\r\n{")
        holding.append(connection)
    try:
        wait_until(lambda: receiver.gate.holding == READERS, "each holds a turn, its body not yet whole")
        answer = httpx.post(receiver.url, content=SPAN % (1, 1), headers=JSON, timeout=10)
        assert answer.status_code == 503
        assert answer.headers["Retry-After"] == str(BUSY_RETRY_AFTER_S) == "1"
    finally:
        for connection in holding:
            connection.close()


def test_a_request_the_writer_cannot_store_is_told_to_retry_in_ten_seconds(receiver: TraceReceiver,
                                                                           held_database: sqlite3.Connection) -> None:
    answer = httpx.post(receiver.url, content=SPAN % (2, 2), headers=JSON, timeout=30)
    assert answer.status_code == 503 and answer.json()["code"] == 14
    assert answer.headers["Retry-After"] == str(WRITER_RETRY_AFTER_S) == "10"


def test_the_sdk_exporter_waits_as_long_as_it_is_told(receiver: TraceReceiver, held_database: sqlite3.Connection,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor

    exporter = OTLPSpanExporter(endpoint=receiver.url, timeout=60)
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    caplog.set_level(logging.WARNING, logger="opentelemetry")

    def export() -> None:
        with provider.get_tracer("retry-test").start_as_current_span("one span"):
            pass  # exported as it ends, on this thread

    sender = threading.Thread(target=export)
    sender.start()
    try:
        deadline = time.monotonic() + 20
        while not any("retrying in" in record.getMessage() for record in caplog.records):
            assert time.monotonic() < deadline, "the exporter never retried"
            time.sleep(0.05)
        retrying = [record.getMessage() for record in caplog.records if "retrying in" in record.getMessage()]
        assert retrying[0].endswith(f"retrying in {WRITER_RETRY_AFTER_S:.2f}s."), retrying
    finally:
        exporter.shutdown()  # its wait ends at once
        sender.join(timeout=30)
        provider.shutdown()
    assert not sender.is_alive()
