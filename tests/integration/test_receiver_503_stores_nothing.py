"""A 503 from the OTLP receiver means nothing of that request is stored, now or later: the exporter
sends it again, and that copy is the one kept.

- The writer busy (here: writing a request while another program holds the database): a request it has
  not begun within its wait is withdrawn and answered 503; it is never written, though the writer gets
  free a moment later. A request the writer began meanwhile is waited for and answered 200.
- The database locked by another program for longer than the lock wait: 503 with ``Retry-After``
  (exporters retry a 503, not a 500), nothing of the request kept (in the database or in memory), said
  once on the receiver's output, and again when the database is free.

Real sockets to a real receiver on 127.0.0.1, a real SQLite file held by another connection
(``BEGIN IMMEDIATE``, as a sqlite3 shell holding a transaction does), the SDK's real OTLP/HTTP exporter."""

from __future__ import annotations

import json
import logging
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from inspector.capture import ReceiverOptions, TraceReceiver
from inspector.capture.receiver import WRITER_RETRY_AFTER_S
from inspector.capture.request_body import BodyGate
from inspector.i18n.messages import Message
from inspector.store.database import LOCK_WAIT_S

JSON = {"Content-Type": "application/json"}
SPAN = (b'{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "%032x", "spanId": "%016x", "name": "one",'
        b' "startTimeUnixNano": "1000", "endTimeUnixNano": "2000"}]}]}]}')
QUIET_S = 0.3


@pytest.fixture
def problems() -> list[Message]:
    return []


@pytest.fixture
def receiver(tmp_path: Path, problems: list[Message]) -> Iterator[TraceReceiver]:
    running = TraceReceiver(tmp_path / "received.db", ReceiverOptions(port=0, quiet_s=QUIET_S),
                            on_problem=problems.append)
    running.answer_wait_s = 0.5
    running.lock_wait_s = 60  # a write begun waits for the other program as long as a test holds it
    running.start()
    try:
        yield running
    finally:
        running.stop()


class DoorAfter(BodyGate):
    """The receiver's real :class:`~inspector.capture.request_body.BodyGate`, letting the first ``passing``
    requests read their bodies and holding the ones after them (their heads read, their bodies not yet)
    until :meth:`open`: a request sent again arrives when the test is ready for it, not after a wait."""

    def __init__(self, passing: int) -> None:
        super().__init__()
        self._passing = passing
        self._count = threading.Lock()
        self._open = threading.Event()
        #: How many requests came after the passing ones (held until :meth:`open`, or let through after it).
        self.held = 0

    def open(self) -> None:
        self._open.set()

    @contextmanager
    def reading(self) -> Iterator[None]:
        with self._count:
            self._passing -= 1
            hold = self._passing < 0
            self.held += hold
        if hold:
            self._open.wait(timeout=60)
        with super().reading():
            yield


class Held:
    """Another program holding the database for writing until :meth:`release`."""

    def __init__(self, db: Path) -> None:
        self.connection = sqlite3.connect(str(db), isolation_level=None, check_same_thread=False)
        self.connection.execute("BEGIN IMMEDIATE")

    def release(self) -> None:
        if self.connection.in_transaction:
            self.connection.execute("ROLLBACK")


@pytest.fixture
def held(receiver: TraceReceiver) -> Iterator[Held]:
    holder = Held(receiver.db_path)
    yield holder
    holder.release()
    holder.connection.close()


def _steps(db: Path) -> dict[str, int]:
    """Each run's uid and its number of steps."""
    with sqlite3.connect(str(db)) as connection:
        rows = connection.execute("SELECT uid, (SELECT count(*) FROM steps WHERE run_id = runs.id) FROM runs")
        return dict(rows.fetchall())


def _until(condition: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def _post_in_background(url: str, body: bytes) -> tuple[threading.Thread, list[httpx.Response]]:
    answers: list[httpx.Response] = []
    thread = threading.Thread(target=lambda: answers.append(httpx.post(url, content=body, headers=JSON, timeout=60)))
    thread.start()
    return thread, answers


def test_a_request_the_writer_began_within_its_wait_is_answered_once_written(receiver: TraceReceiver,
                                                                             held: Held) -> None:
    receiver.answer_wait_s = 2.0  # long enough for an idle writer to begin it, on a loaded machine too
    sending, answers = _post_in_background(receiver.url, SPAN % (1, 1))
    _until(lambda: receiver.begun == 1, "the writer did not begin the request")  # and waits for the database
    time.sleep(receiver.answer_wait_s + 0.5)  # its wait, counted from no earlier than its submission, is over
    assert not answers, "answered before its spans were written"
    held.release()
    sending.join(timeout=30)
    assert answers[0].status_code == 200, answers[0].text
    assert _steps(receiver.db_path) == {f"otlp-{1:032x}": 1}


def test_a_request_answered_503_is_stored_only_when_the_sdk_exporter_sends_it_again(
        receiver: TraceReceiver, held: Held, caplog: pytest.LogCaptureFixture) -> None:
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor

    receiver.writer_retry_after_s = 1  # the exporter waits what it is told (10 s by default) before it sends again
    receiver.gate = door = DoorAfter(passing=2)  # the request ahead and the exporter's first; its second waits
    receiver.answer_wait_s = 60  # the request ahead: begun however loaded the machine is ...
    ahead, answers = _post_in_background(receiver.url, SPAN % (1, 1))
    _until(lambda: receiver.begun == 1, "the writer did not begin the request ahead")  # it waits for the database
    receiver.answer_wait_s = 0.5  # ... the exporter's: withdrawn after half a second, the writer held by the one ahead
    exporter = OTLPSpanExporter(endpoint=receiver.url, timeout=60)
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    caplog.set_level(logging.WARNING, logger="opentelemetry")
    trace_ids: list[int] = []

    def export() -> None:
        with provider.get_tracer("once-test").start_as_current_span("exported") as span:
            trace_ids.append(span.get_span_context().trace_id)

    sender = threading.Thread(target=export)
    sender.start()
    try:
        _until(lambda: any("retrying in" in record.getMessage() for record in caplog.records), "no 503")
        retrying = [record.getMessage() for record in caplog.records if "retrying in" in record.getMessage()]
        assert retrying[0].endswith(f"retrying in {receiver.writer_retry_after_s:.2f}s."), retrying
        held.release()  # the writer gets free: the request ahead is written, the one answered 503 is not
        _until(lambda: f"otlp-{1:032x}" in _steps(receiver.db_path), "the request ahead was not stored")
        time.sleep(QUIET_S * 5)
        exported = f"otlp-{trace_ids[0]:032x}"
        assert _steps(receiver.db_path) == {f"otlp-{1:032x}": 1}, "a request answered 503 was stored"
        ahead.join(timeout=30)
        assert answers[0].status_code == 200
        door.open()  # the exporter's second sending, held at the receiver's door since it came (if it came yet)
        sender.join(timeout=30)  # the exporter sends it again after the second it was told
        assert not sender.is_alive() and door.held == 1
        _until(lambda: exported in _steps(receiver.db_path), "the span sent again was not stored")
        assert _steps(receiver.db_path) == {f"otlp-{1:032x}": 1, exported: 1}
        assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
    finally:
        door.open()
        exporter.shutdown()
        sender.join(timeout=30)
        provider.shutdown()


def test_a_database_locked_longer_than_the_wait_is_a_503_and_nothing_is_kept(
        tmp_path: Path, problems: list[Message]) -> None:
    receiver = TraceReceiver(tmp_path / "received.db", ReceiverOptions(port=0, quiet_s=QUIET_S),
                             on_problem=problems.append)
    receiver.lock_wait_s = 0.5
    with receiver:
        holder = Held(receiver.db_path)
        try:
            for span in (1, 2):
                answer = httpx.post(receiver.url, content=SPAN % (7, span), headers=JSON, timeout=30)
                assert answer.status_code == 503, answer.text
                assert answer.headers["Retry-After"] == str(WRITER_RETRY_AFTER_S)
                assert answer.json()["code"] == 14 and "locked by another program" in answer.json()["message"]
            assert [str(problem) for problem in problems] == [
                f"The run database {receiver.db_path} is locked by another program (a sqlite3 shell or another tool "
                "holding a transaction open): the spans received meanwhile are not stored, and their exporters are "
                "told to send them again later (503). Close that program to go on receiving."]
            time.sleep(QUIET_S * 3)  # the writer settles what it holds: nothing of the refused requests
        finally:
            holder.release()
            holder.connection.close()
        time.sleep(QUIET_S * 3)
        assert _steps(receiver.db_path) == {}, "a request answered 503 was stored"
        answer = httpx.post(receiver.url, content=SPAN % (7, 3), headers=JSON, timeout=30)
        assert answer.status_code == 200
        _until(lambda: f"otlp-{7:032x}" in _steps(receiver.db_path), "the span was not stored")
        assert _steps(receiver.db_path) == {f"otlp-{7:032x}": 1}, "spans of a request answered 503 were kept"
        assert len(problems) == 2 and "is no longer locked" in str(problems[1])


def test_the_command_says_the_database_is_locked_on_stderr(tmp_path: Path) -> None:
    """The command waits ``--lock-wait`` for the lock (a minute unless given); German, as a user
    reads it."""
    db = tmp_path / "cli.db"
    process = subprocess.Popen([sys.executable, "-m", "inspector", "--lang", "de", "receive", "--port", "0",
                                "--quiet-after", "0.3", "--lock-wait", "0.5", "--json", "--db", str(db)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = json.loads(process.stdout.readline())["url"]
        holder = Held(db)
        try:
            began = time.monotonic()
            answer = httpx.post(url, content=SPAN % (9, 1), headers=JSON, timeout=60)
            took = time.monotonic() - began
        finally:
            holder.release()
            holder.connection.close()
        assert answer.status_code == 503 and answer.headers["Retry-After"] == str(WRITER_RETRY_AFTER_S)
        assert took < LOCK_WAIT_S, took  # it waited what --lock-wait says, not the store's own wait
        assert httpx.post(url, content=SPAN % (9, 2), headers=JSON, timeout=60).status_code == 200
        line = json.loads(process.stdout.readline())
        assert line["uid"] == f"otlp-{9:032x}" and line["steps"] == 1
    finally:
        process.terminate()
        out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    said = err.splitlines()
    assert said == [f"Die Laufdatenbank {db} ist von einem anderen Programm gesperrt (einer sqlite3-Shell oder einem "
                    "anderen Programm, das eine Transaktion offen hält): Die in dieser Zeit empfangenen Spans werden "
                    "nicht gespeichert, und ihren Exportern wird gesagt, sie später erneut zu senden (503). Schließen "
                    "Sie dieses Programm, um weiter zu empfangen.",
                    f"Die Laufdatenbank {db} ist nicht mehr gesperrt: Empfangene Spans werden wieder gespeichert."], err
