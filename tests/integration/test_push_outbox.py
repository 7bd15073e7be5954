"""Pushing finished runs to an OTLP/HTTP collector through the outbox (inspector/capture/pusher.py).

The collector is tests/support/otlp_collector.py: a real HTTP server on 127.0.0.1 that reads every
request into opentelemetry-proto's ExportTraceServiceRequest. Time is a clock the test moves (the
backoff's arithmetic only); every request really goes over the loopback.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time
import tracemalloc
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime
from pathlib import Path

import pytest

from inspector.capture.backoff import BASE_S, CAP_S, backoff_s
from inspector.capture.pusher import Pusher, drain
from inspector.runs import RunStep, RunTrace, StepKind, ToolResult
from inspector.store import RunStore
from inspector.store.outbox import Outbox
from inspector.traces import otlp
from inspector.transfer import import_trace
from tests.support.asgi_server import ReservedPort, closed_port
from tests.support.otlp_collector import Answer, OtlpCollector, running_collector
from tests.support.sample_runs import mixed_run

T0 = datetime(2026, 12, 2, 9, 0, tzinfo=timezone.utc)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def store(tmp_path: Path):
    with RunStore.open(tmp_path / "runs.db") as opened:
        yield opened


def _runs(store: RunStore, count: int) -> list[int]:
    return [mixed_run(store, f"run {number}", started_at=T0 - timedelta(minutes=count - number))
            for number in range(count)]


def _trace_ids(collector: OtlpCollector) -> list[str]:
    return [span.trace_id.hex() for span in collector.spans() if not span.parent_span_id]


def test_every_run_arrives_exactly_once_while_the_collector_goes_down_and_comes_back(store: RunStore) -> None:
    run_ids = _runs(store, 3)
    reserved = ReservedPort()  # refused until the collector starts on it
    clock = Clock()
    endpoint = f"http://127.0.0.1:{reserved.port}"
    assert Outbox(store.db.conn).enqueue(run_ids, endpoint, clock()) == 3
    assert Outbox(store.db.conn).enqueue(run_ids, endpoint, clock()) == 0  # queued once
    with Pusher(store, endpoint, clock=clock, rng=random.Random(1)) as pusher:
        down = pusher.push_due()  # nothing listens yet
        assert (down.sent, down.retried) == (0, 1)
        assert down.last_reason == ("cannot reach the collector: the connection was refused, which means "
                                    "nothing listens at that address and port"), down.last_reason
        assert down.next_due is not None and down.next_due > clock()
        # Not due yet: a round now sends nothing and asks the collector nothing.
        assert pusher.push_due().retried == 0
        collector = OtlpCollector(reserved.release())
        collector.start()
        try:
            clock.advance(1)  # the first retry waits between 0.5 and 1 s
            first = pusher.push_due()
            assert first.sent == 3 and first.next_due is None
            collector.stop()  # goes down again: nothing is sent twice, nothing is queued again
            clock.advance(3600)
            assert pusher.push_due() == type(first)(0, 0, 0, None, "")
            collector.start()
            assert pusher.push_due().sent == 0
        finally:
            collector.stop()
    expected = sorted(otlp.trace_id(store.get_run(run_id).uid) for run_id in run_ids)
    assert sorted(_trace_ids(collector)) == expected
    span_ids = [span.span_id for span in collector.spans()]
    assert len(span_ids) == len(set(span_ids))
    assert {entry.state for entry in Outbox(store.db.conn).entries()} == {"sent"}
    assert [entry.attempts for entry in Outbox(store.db.conn).entries()] == [2, 1, 1]  # the first was retried


def test_a_restart_takes_over_what_a_dead_process_was_sending(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    with RunStore.open(path) as store:
        run_ids = _runs(store, 2)
        Outbox(store.db.conn).enqueue(run_ids, "http://127.0.0.1:9/", T0)
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                              text=True, check=True)
    dead_pid = int(finished.stdout)
    with running_collector() as collector:
        with RunStore.open(path) as store:
            conn = store.db.conn
            conn.execute("UPDATE outbox SET endpoint = ?", (collector.endpoint,))
            # A process that died while sending holds the first row; a live one (us, as another
            # process would) must not take the second from its holder.
            held = Outbox(conn, pid=dead_pid).claim_due(collector.endpoint, T0)
            assert held is not None
            with Pusher(store, collector.endpoint, clock=lambda: T0) as pusher:
                assert pusher.push_due().sent == 2
                assert pusher.push_due().sent == 0
            # The dead process's late word changes nothing: the transition is guarded.
            assert not Outbox(conn, pid=dead_pid).mark_retry(held.id, T0, "late")
            assert {entry.state for entry in Outbox(conn).entries()} == {"sent"}
    assert len(_trace_ids(collector)) == 2


def test_two_pushers_on_one_database_send_each_run_once(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    with RunStore.open(path) as store:
        run_ids = _runs(store, 12)
    with running_collector() as collector:
        with RunStore.open(path) as store:
            Outbox(store.db.conn).enqueue(run_ids, collector.endpoint)
        sent: list[int] = []

        def push() -> None:
            with RunStore.open(path) as own, Pusher(own, collector.endpoint) as pusher:
                sent.append(pusher.push_due().sent)

        threads = [threading.Thread(target=push) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    assert sum(sent) == 12
    assert len(_trace_ids(collector)) == len(set(_trace_ids(collector))) == 12


def test_429_and_503_wait_as_long_as_retry_after_says(store: RunStore) -> None:
    run_id = _runs(store, 1)[0]
    clock = Clock()
    with running_collector() as collector:
        collector.answers = [Answer(429, {"Retry-After": "7"}, b'{"message": "slow down"}'),
                             Answer(503, {"Retry-After": format_datetime(T0 + timedelta(seconds=67), usegmt=True)})]
        Outbox(store.db.conn).enqueue([run_id], collector.endpoint, clock())
        with Pusher(store, collector.endpoint, clock=clock) as pusher:
            first = pusher.push_due()
            assert first.retried == 1 and first.next_due == T0 + timedelta(seconds=7)
            entry = Outbox(store.db.conn).entries()[0]
            assert (entry.state, entry.attempts) == ("queued", 1)
            assert entry.reason.startswith("HTTP 429") and "slow down" in entry.reason
            clock.advance(6.9)
            assert pusher.push_due().retried == 0 and collector.hits == 1  # not before it is due
            clock.advance(0.1)
            second = pusher.push_due()
            assert second.retried == 1 and second.next_due == T0 + timedelta(seconds=67)
            assert Outbox(store.db.conn).entries()[0].reason.startswith("HTTP 503")
            clock.now = T0 + timedelta(seconds=67)
            assert pusher.push_due().sent == 1
    assert collector.hits == 3 and len(_trace_ids(collector)) == 1


@pytest.mark.parametrize("retry_after", ["0", format_datetime(T0 - timedelta(days=1), usegmt=True)])
def test_a_retry_after_asking_for_no_wait_is_not_a_retry_at_once(store: RunStore, retry_after: str) -> None:
    """A 503 with "Retry-After: 0" or a date past was retried at once, again and again, as fast as the
    loopback allows (`export --wait 5` against such a collector: 110 requests in 5 s). It is read as no
    Retry-After: the backoff waits."""
    run_id = _runs(store, 1)[0]
    clock = Clock()
    with running_collector() as collector:
        collector.answers = [Answer(503, {"Retry-After": retry_after}, b'{"message": "busy"}')]
        Outbox(store.db.conn).enqueue([run_id], collector.endpoint, clock())
        with Pusher(store, collector.endpoint, clock=clock, rng=random.Random(3)) as pusher:
            first = pusher.push_due()
            assert first.retried == 1 and first.next_due is not None
            assert BASE_S / 2 <= (first.next_due - T0).total_seconds() <= BASE_S
            assert pusher.push_due().retried == 0 and collector.hits == 1  # not asked again at once
            clock.now = first.next_due
            assert pusher.push_due().sent == 1
    assert collector.hits == 2


def test_the_backoff_grows_while_the_collector_is_down_however_many_runs_wait(store: RunStore) -> None:
    """Each queued run in turn was tried at its own first retry, so with many runs queued the wait never
    grew: 20 runs, the collector down, `export --wait 60` asked it 44 times in 57 s (waits of 1 to 4 s).
    The wait doubles with the attempts in a row that found it down, and starts again once one is sent."""
    run_ids = _runs(store, 6)
    reserved = ReservedPort()
    clock = Clock()
    endpoint = f"http://127.0.0.1:{reserved.port}"
    Outbox(store.db.conn).enqueue(run_ids, endpoint, clock())
    with Pusher(store, endpoint, clock=clock, rng=random.Random(5)) as pusher:
        for attempt in range(1, 7):
            down = pusher.push_due()
            assert down.retried == 1 and down.next_due is not None
            ceiling = BASE_S * 2 ** (attempt - 1)
            assert ceiling / 2 <= (down.next_due - clock()).total_seconds() <= ceiling, attempt
            clock.now = down.next_due
        with running_collector(reserved.release()) as collector:
            assert pusher.push_due().sent == 6
        assert len(_trace_ids(collector)) == 6
        Outbox(store.db.conn).enqueue([_runs(store, 1)[0]], endpoint, clock())
        again = pusher.push_due()  # down again: the first wait of a new outage
        assert again.retried == 1 and again.next_due is not None
        assert (again.next_due - clock()).total_seconds() <= BASE_S


def test_a_permanent_400_drops_the_run_with_the_reason_and_never_sends_it_again(store: RunStore) -> None:
    refused, accepted = _runs(store, 2)
    clock = Clock()
    with running_collector() as collector:
        collector.answers = [Answer(400, body=b'{"code": 3, "message": "bad span"}')]
        Outbox(store.db.conn).enqueue([refused, accepted], collector.endpoint, clock())
        with Pusher(store, collector.endpoint, clock=clock) as pusher:
            round_ = pusher.push_due()
            assert (round_.sent, round_.failed, round_.next_due) == (1, 1, None)
            clock.advance(86_400)
            assert pusher.push_due().sent == 0
        assert collector.hits == 2
    states = Outbox(store.db.conn).of_runs([refused, accepted])
    assert states[refused].state == "failed"
    assert states[refused].reason == 'HTTP 400 Bad Request: {"code": 3, "message": "bad span"}'
    assert states[accepted].state == "sent"


def test_spans_the_collector_rejected_are_kept_as_the_reason_of_a_run_sent(store: RunStore) -> None:
    """A 2xx with a partialSuccess is sent (sending it again would be rejected again), and what the collector
    said of the spans it rejected is kept; it was dropped, so `runs list --json` said nothing of them."""
    partly, wholly, warned = _runs(store, 3)
    with running_collector() as collector:
        collector.answers = [
            Answer(200, body=b'{"partialSuccess": {"rejectedSpans": "2", "errorMessage": "spans older than 7 days"}}'),
            Answer(200, body=b'{"partialSuccess": {}}'),
            Answer(200, body=b'{"partialSuccess": {"rejectedSpans": "0", "errorMessage": "slow down soon"}}')]
        Outbox(store.db.conn).enqueue([partly, wholly, warned], collector.endpoint)
        with Pusher(store, collector.endpoint) as pusher:
            assert pusher.push_due().sent == 3
    states = Outbox(store.db.conn).of_runs([partly, wholly, warned])
    assert {entry.state for entry in states.values()} == {"sent"}
    assert states[partly].reason == "the collector took the run but rejected 2 of its spans: spans older than 7 days"
    assert states[wholly].reason == states[warned].reason == ""  # all kept (a message alone is a warning)


@pytest.mark.parametrize("status", [200, 503])
def test_an_answer_sent_a_byte_at_a_time_is_not_waited_for_without_end(store: RunStore, status: int) -> None:
    """The answer's status decides; its body was read to the end, however slowly it came: a collector
    answering 200 and then a byte a second held `export --wait 5` for as long as it went on (still
    pushing after 90 s). The body is now read until the request's time-out, then left."""
    run_id = _runs(store, 1)[0]
    with running_collector() as collector:
        collector.answers = [Answer(status, body=b" " * 400, trickle_s=0.1)]  # 40 s to send it all
        Outbox(store.db.conn).enqueue([run_id], collector.endpoint)
        started = time.monotonic()
        with Pusher(store, collector.endpoint, timeout_s=1.0) as pusher:
            done = pusher.push_due()
        assert time.monotonic() - started < 10
    assert (done.sent, done.retried) == ((1, 0) if status == 200 else (0, 1))
    entry = Outbox(store.db.conn).entries()[0]
    assert entry.state == ("sent" if status == 200 else "queued")
    if status == 503:
        assert entry.reason == "HTTP 503 Service Unavailable"  # the blanks it had sent: no words


def test_a_huge_answer_is_not_read_whole(store: RunStore) -> None:
    """A 400 whose body is 50 MB: its words are the first 300 characters, and no more than 64 KB is read."""
    run_id = _runs(store, 1)[0]
    with running_collector() as collector:
        collector.answers = [Answer(400, body=b"no. " + b"x" * 50_000_000)]
        Outbox(store.db.conn).enqueue([run_id], collector.endpoint)
        with Pusher(store, collector.endpoint) as pusher:
            tracemalloc.start()
            try:
                assert pusher.push_due().failed == 1
                peak = tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()
    assert peak < 10_000_000, peak
    reason = Outbox(store.db.conn).entries()[0].reason
    assert reason.startswith("HTTP 400 Bad Request: no. xxx") and len(reason) < 330


def test_a_redirect_is_a_permanent_failure_and_is_not_followed(store: RunStore) -> None:
    run_id = _runs(store, 1)[0]
    with running_collector() as collector, running_collector() as elsewhere:
        collector.answers = [Answer(307, {"Location": f"{elsewhere.endpoint}/v1/traces"}, b"")]
        Outbox(store.db.conn).enqueue([run_id], collector.endpoint)
        with Pusher(store, collector.endpoint) as pusher:
            assert pusher.push_due().failed == 1
        assert elsewhere.hits == 0
    assert "not followed" in Outbox(store.db.conn).entries()[0].reason


def test_the_backoff_doubles_up_to_its_cap_with_jitter() -> None:
    rng = random.Random(7)
    for attempts in range(1, 30):
        ceiling = min(CAP_S, BASE_S * 2 ** (attempts - 1))
        waits = [backoff_s(attempts, rng) for _ in range(50)]
        assert all(ceiling / 2 <= wait <= ceiling for wait in waits)
        assert len(set(waits)) > 40  # jittered, not one fixed wait
    assert backoff_s(10_000, rng) <= CAP_S


def test_a_cancelled_step_comes_back_cancelled_after_the_round_trip(store: RunStore, tmp_path: Path) -> None:
    run_id = mixed_run(store)
    with running_collector() as collector:
        Outbox(store.db.conn).enqueue([run_id], collector.endpoint)
        with Pusher(store, collector.endpoint) as pusher:
            assert pusher.push_due().sent == 1
    back = tmp_path / "from-the-collector.json"
    back.write_text(json.dumps(collector.as_otlp_json()))
    with RunStore.open(tmp_path / "elsewhere.db") as other:
        report = import_trace(other, back)
        assert report.runs_imported == 1
        pulled = other.get_run(report.run_ids[0])
        original = store.get_run(run_id)
        assert (pulled.uid, pulled.status, pulled.title) == (original.uid, "cancelled", original.title)
        outcomes = [step.outcome for step in other.iter_steps(pulled.id)]
        assert outcomes == [step.outcome for step in store.iter_steps(run_id)]
        assert "cancelled" in outcomes and "failed" in outcomes
        assert [step.step.legs for step in other.iter_steps(pulled.id)] == \
            [step.step.legs for step in store.iter_steps(run_id)]


def test_credentials_never_leave_in_the_pushed_spans_and_headers_do_reach_the_collector(store: RunStore) -> None:
    trace = RunTrace()
    step = trace.record_tool_result(1, "fetch", {"url": "https://user:hunter2@example.org/", "api_key": "sk-live-1234"},
                                    ToolResult.text("Authorization: Bearer eyJsecret.token.value"), 5.0)
    run_id = store.start_run("secrets", "live", "http://127.0.0.1:1/mcp?access_token=qwerty99")
    store.append_step(run_id, step)
    store.append_step(run_id, RunStep(kind=StepKind.LLM, round=1, duration_ms=1.0, content="password=opensesame"))
    store.finish_run(run_id, "ok")
    with running_collector() as collector:
        Outbox(store.db.conn).enqueue([run_id], collector.endpoint)
        with Pusher(store, collector.endpoint, {"Authorization": "Bearer team-token"}) as pusher:
            assert pusher.push_due().sent == 1
        received = json.dumps(collector.as_otlp_json())
        assert collector.headers_seen[0]["authorization"] == "Bearer team-token"
    for secret in ("hunter2", "sk-live-1234", "eyJsecret", "qwerty99", "opensesame", "team-token"):
        assert secret not in received


def test_a_collector_quoting_the_credentials_it_was_sent_leaves_them_nowhere(store: RunStore) -> None:
    """A 401 whose body quotes the API key it refused: the key was kept in the outbox as the reason, and so said
    by `export --json`, `runs list --json` and the Pushed column's tooltip. A partialSuccess's words likewise."""
    refused, partly = _runs(store, 2)
    with running_collector() as collector:
        collector.answers = [
            Answer(401, body=b'{"message": "invalid key: Bearer team-token-123 (X-Api-Key sk-abc-987)"}'),
            Answer(200, body=b'{"partialSuccess": {"rejectedSpans": 1, "errorMessage": "key sk-abc-987: over quota"}}')]
        Outbox(store.db.conn).enqueue([refused, partly], collector.endpoint)
        headers = {"Authorization": "Bearer team-token-123", "X-Api-Key": "sk-abc-987"}
        with Pusher(store, collector.endpoint, headers) as pusher:
            done = pusher.push_due()
    assert (done.failed, done.sent) == (1, 1)
    kept = " ".join(str(row) for row in store.db.conn.execute("SELECT * FROM outbox"))
    assert "team-token-123" not in kept and "sk-abc-987" not in kept, kept
    states = Outbox(store.db.conn).of_runs([refused, partly])
    assert states[refused].reason == \
        'HTTP 401 Unauthorized: {"message": "invalid key: [REDACTED] (X-Api-Key [REDACTED])"}'
    assert states[partly].reason == "the collector took the run but rejected 1 of its spans: key [REDACTED]: over quota"


def test_drain_leaves_what_it_could_not_send_queued(store: RunStore) -> None:
    run_ids = _runs(store, 2)
    endpoint = f"http://127.0.0.1:{closed_port()}"
    Outbox(store.db.conn).enqueue(run_ids, endpoint)
    with Pusher(store, endpoint) as pusher:
        report = drain(pusher, 0.0)
    assert (report.sent, report.failed, report.waiting) == (0, 0, 2)
    assert "cannot reach the collector" in report.last_reason
    with running_collector() as collector, Pusher(store, collector.endpoint) as pusher:
        store.db.conn.execute("UPDATE outbox SET endpoint = ?", (collector.endpoint,))
        assert drain(pusher, 5.0).sent == 2


def test_only_finished_runs_of_ours_are_queued_by_the_setting(store: RunStore) -> None:
    ours = mixed_run(store, "ours", source="live")
    mixed_run(store, "imported", source="imported")
    running = store.start_run("still running", "live")
    outbox = Outbox(store.db.conn)
    since = T0 - timedelta(days=1)
    assert outbox.enqueue_finished("http://collector", since) == 1
    assert outbox.enqueue_finished("http://collector", since) == 0
    assert [entry.run_id for entry in outbox.entries()] == [ours]
    store.finish_run(running, "ok")
    assert outbox.enqueue_finished("http://collector", since) == 1
    assert outbox.enqueue_finished("http://collector", datetime.now(timezone.utc) + timedelta(hours=1)) == 0
