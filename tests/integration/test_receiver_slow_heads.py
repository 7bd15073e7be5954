"""The OTLP receiver against clients that send their request's head slowly (a header byte just before each
read timeout held a thread for as long as the client liked: 5,000 such connections made 2,118 threads). A
head must arrive whole within its deadline (else 408, closed); at most so many connections are held, a newcomer
taking the place of the one that has waited longest for a head; a real exporter is answered meanwhile.

Real sockets and opentelemetry's own OTLP exporter against a real receiver on 127.0.0.1.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from inspector.capture import ReceiverOptions, TraceReceiver
from inspector.capture.connections import ConnectionSlots
from tests.support.receiver_turns import CountedGate, wait_until

JSON = {"Content-Type": "application/json"}
EMPTY = b'{"resourceSpans": []}'
HEAD = b"POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[TraceReceiver]:
    with TraceReceiver(tmp_path / "received.db", ReceiverOptions(port=0, quiet_s=0.4)) as running:
        running.connections = ConnectionSlots(most=8, idle_s=3.0, head_s=1.5)
        running.gate = CountedGate(wait_s=1.0, deadline_s=5.0)
        yield running


def _connected(receiver: TraceReceiver) -> socket.socket:
    return socket.create_connection(receiver.address, timeout=10)


def _answer(connection: socket.socket) -> str:
    answer = b""
    try:
        while True:
            piece = connection.recv(4096)
            if not piece:
                break
            answer += piece
    except OSError:
        pass
    return answer.decode("latin-1")


def _handler_threads() -> int:
    return sum(1 for thread in threading.enumerate() if "process_request_thread" in thread.name)


def _export_one(receiver: TraceReceiver) -> tuple[str, float]:
    """One span through opentelemetry's OTLP/HTTP exporter (protobuf): its result, and how long it took."""
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    kept = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(kept))
    with provider.get_tracer("slow-heads").start_as_current_span("tools/call echo",
                                                                 attributes={"mcp.method.name": "tools/call"}):
        pass
    exporter = OTLPSpanExporter(endpoint=receiver.url, timeout=10)
    started = time.monotonic()
    result = exporter.export(kept.get_finished_spans())
    took = time.monotonic() - started
    exporter.shutdown()
    return result.name, took


def test_a_head_sent_a_byte_at_a_time_is_answered_408_at_its_deadline(receiver: TraceReceiver) -> None:
    connection = _connected(receiver)
    connection.settimeout(0.3)
    started = time.monotonic()
    answer = ""
    for byte in (HEAD * 10)[:60]:  # a byte every 0.3 s: each well within the idle time
        try:
            connection.sendall(bytes([byte]))
            answer = connection.recv(4096).decode("latin-1")
            connection.settimeout(5)  # the answer's body may come in a segment of its own: read to the close
            while chunk := connection.recv(4096):
                answer += chunk.decode("latin-1")
            break
        except TimeoutError:
            continue
        except OSError:
            break
    took = time.monotonic() - started
    connection.close()
    assert answer.startswith("HTTP/1.1 408"), answer
    assert "did not arrive within 1.5 s" in answer
    assert 1.2 < took < 4
    assert httpx.post(receiver.url, content=EMPTY, headers=JSON).status_code == 200


def test_a_connection_that_sends_nothing_is_closed_after_the_idle_time(receiver: TraceReceiver) -> None:
    connection = _connected(receiver)
    connection.settimeout(10)
    started = time.monotonic()
    assert _answer(connection) == ""  # closed without an answer: no request was begun
    assert 2.5 < time.monotonic() - started < 6
    connection.close()


def test_slow_heads_hold_no_more_than_the_slots_and_an_exporter_is_answered(receiver: TraceReceiver) -> None:
    before = _handler_threads()
    slow = []
    try:
        for _ in range(60):
            connection = _connected(receiver)
            connection.sendall(HEAD[:1])
            slow.append(connection)
        time.sleep(0.5)
        assert _handler_threads() - before <= 8
        assert receiver.connections.held <= 8
        result, took = _export_one(receiver)  # takes the place of the slow head that waited longest
        assert (result, took < 3) == ("SUCCESS", True)
        assert receiver.connections.evicted >= 53
    finally:
        for connection in slow:
            connection.close()
    deadline = time.monotonic() + 5
    while receiver.connections.held and time.monotonic() < deadline:
        time.sleep(0.05)
    assert receiver.connections.held == 0


def test_a_newcomer_is_answered_503_when_every_connection_is_busy_with_a_request(receiver: TraceReceiver) -> None:
    receiver.connections = ConnectionSlots(most=2, idle_s=3.0, head_s=1.5)
    reading = []
    try:
        for _ in range(2):  # each in its body: busy, never closed to make room
            connection = _connected(receiver)
            connection.sendall(HEAD + b"Content-Length: 1000\r\n\r\n{")
            reading.append(connection)
        # Both heads read (their connections busy, never closed to make room), their bodies being read.
        wait_until(lambda: receiver.gate.holding == 2, "both connections busy reading their bodies")
        answer = httpx.post(receiver.url, content=EMPTY, headers=JSON, timeout=10)
        assert answer.status_code == 503 and answer.headers["Connection"] == "close"
        assert answer.json()["code"] == 14 and "retry later" in answer.json()["message"]
    finally:
        for connection in reading:
            connection.close()
    wait_until(lambda: receiver.connections.held == 0, "the slots given back once their clients are gone")
    answer = httpx.post(receiver.url, content=EMPTY, headers=JSON, timeout=10)
    assert answer.status_code == 200 and json.loads(answer.content) == {}
