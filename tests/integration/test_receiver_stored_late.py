"""A request whose exporter stopped waiting (its time-out ran out) before its spans were stored: they are stored,
and the receiver says so, with what the exporter may report. Before, the exporter logged "Failed to export span
batch due to timeout" (the OpenTelemetry Python SDK's, after its default 10 s; it does not send the batch again)
while the receiver said only that the runs had come, so each side contradicted the other without a word of why:
a request of 50,000 one-span traces took 19 s of CPU to store (60 s at load 5 on two cores).

Real sockets to a real receiver on 127.0.0.1; the write is held back by a real SQLite file locked by another
connection (``BEGIN IMMEDIATE``, as a sqlite3 shell holding a transaction does) until the client has gone."""

from __future__ import annotations

import os
import resource
import socket
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.capture import ReceiverOptions, TraceReceiver
from inspector.i18n.messages import Message, translate
from inspector.store import RunStore

SPANS = 3
BODY = b'{"resourceSpans": [{"scopeSpans": [{"spans": [%s]}]}]}' % b", ".join(
    b'{"traceId": "%032x", "spanId": "%016x", "name": "one", "startTimeUnixNano": "1000", '
    b'"endTimeUnixNano": "2000"}' % (number, number) for number in range(1, SPANS + 1))


@pytest.fixture
def said() -> list[Message]:
    return []


@pytest.fixture
def receiver(tmp_path: Path, said: list[Message]) -> Iterator[TraceReceiver]:
    running = TraceReceiver(tmp_path / "received.db", ReceiverOptions(port=0, quiet_s=0.2), on_refused=said.append)
    running.lock_wait_s = 60  # the write waits for the other connection as long as the test holds it
    running.start()
    try:
        yield running
    finally:
        running.stop()


def _request(receiver: TraceReceiver) -> bytes:
    host, port = receiver.address
    return (f"POST /v1/traces HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(BODY)}\r\n\r\n").encode() + BODY


def _stored(path: Path, timeout_s: float = 30.0) -> int:
    deadline = time.monotonic() + timeout_s
    while True:
        with RunStore.open(path) as store:
            runs = len(store.list_runs(limit=None))
        if runs == SPANS or time.monotonic() > deadline:
            return runs
        time.sleep(0.05)


def test_spans_stored_after_the_exporter_stopped_waiting_are_said_stored(tmp_path: Path, receiver: TraceReceiver,
                                                                         said: list[Message]) -> None:
    held = sqlite3.connect(tmp_path / "received.db", isolation_level=None)
    held.execute("BEGIN IMMEDIATE")
    try:
        with socket.create_connection(receiver.address, timeout=10) as client:
            client.sendall(_request(receiver))
            time.sleep(0.3)  # the exporter's time-out: it closes its connection without the answer
        time.sleep(0.3)
    finally:
        held.execute("ROLLBACK")
        held.close()
    assert _stored(tmp_path / "received.db") == SPANS
    deadline = time.monotonic() + 10
    while not said and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(said) == 1
    sentence = translate(said[0])
    assert sentence.startswith("The exporter of a request of 3 spans stopped waiting for its answer (its time-out) "
                               "before the spans were stored, 0.")
    assert sentence.endswith(" s after they were sent: they are stored, though the exporter may report them as not "
                             "exported. Smaller batches are answered sooner.")


@pytest.mark.usefixtures("german")
def test_the_sentence_is_german_in_german() -> None:
    said: list[Message] = []
    TraceReceiver(Path("unused.db"), on_refused=said.append).stored_late(50_000, 22.34)
    assert translate(said[0]) == (
        "Der Exporter einer Anfrage mit 50.000 Spans hat aufgehört, auf seine Antwort zu warten (seine "
        "Zeitüberschreitung), bevor die Spans gespeichert waren, 22,3 s nachdem sie gesendet wurden: Sie sind "
        "gespeichert, auch wenn der Exporter sie womöglich als nicht exportiert meldet. Kleinere Stapel werden "
        "schneller beantwortet.")


def test_an_exporter_that_waits_for_its_answer_is_told_nothing_more(tmp_path: Path, receiver: TraceReceiver,
                                                                    said: list[Message]) -> None:
    with socket.create_connection(receiver.address, timeout=10) as client:
        client.sendall(_request(receiver))
        answer = client.recv(4096)
    assert answer.startswith(b"HTTP/1.1 200 ")
    assert _stored(tmp_path / "received.db") == SPANS
    assert said == []


@pytest.fixture
def many_files_open() -> Iterator[None]:
    """More than 1,024 files open in this process (a process allowed them, as a raised ``ulimit -n`` allows), so the
    receiver's next connections have descriptors past 1,023, which select refuses."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 1024 + 200
    assert hard == resource.RLIM_INFINITY or hard >= wanted, f"this machine allows only {hard} open files"
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1024)]
    try:
        yield
    finally:
        for descriptor in held:
            os.close(descriptor)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@pytest.mark.usefixtures("many_files_open")
def test_a_connection_numbered_past_1023_that_waits_is_told_nothing_more(tmp_path: Path, receiver: TraceReceiver,
                                                                         said: list[Message]) -> None:
    """Before, the check whether the exporter had gone (select) failed on such a connection, and every request was
    said stopped waiting, its exporter reading the answer all the while."""
    with socket.create_connection(receiver.address, timeout=10) as client:
        assert client.fileno() > 1023
        client.sendall(_request(receiver))
        answer = client.recv(4096)
    assert answer.startswith(b"HTTP/1.1 200 ")
    assert _stored(tmp_path / "received.db") == SPANS
    assert said == []
