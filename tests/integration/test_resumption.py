"""Resumption: a server that closes the answer stream after a priming event (an id, empty data)
and a ``retry:`` delay serves the rest on ``GET`` with ``Last-Event-ID``; the client comes back
after the delay, as a leg of its own, while the deadline allows."""

from __future__ import annotations

# These cases are the handshake era's (sessions, the standalone stream, requests from the server,
# resumption): their servers are spoken to in that era, pinned (era="handshake"); the stateless
# era's counterparts are in test_stateless_era.py.
import json
import time

from inspector.mcp import ErrorKind, LegOutcome, ServerEndpoint
from tests.support.fault_server import Exchange, FaultServer, operate


class DroppingServer:
    """Closes the ``tools/call`` stream after a priming event and a progress note; the answer
    waits for a ``GET`` that names the last event id."""

    def __init__(self, retry_ms: int) -> None:
        self.retry_ms = retry_ms
        self.pending_id = None
        self.closed_at = 0.0
        self.resumed_at = 0.0

    def work(self, exchange: Exchange) -> None:
        self.pending_id = exchange.request.rpc_id
        exchange.open_stream()
        exchange.write_raw(f"id: call-1\nretry: {self.retry_ms}\ndata: \n\n")
        progress = {"jsonrpc": "2.0", "method": "notifications/progress",
                    "params": {"progressToken": "run-inspector", "progress": 1, "message": "half way"}}
        exchange.write_raw(f"id: call-2\ndata: {json.dumps(progress)}\n\n")
        self.closed_at = time.monotonic()
        # Returning ends the stream: the answer has not been sent.

    def get(self, exchange: Exchange) -> None:
        self.resumed_at = time.monotonic()
        if exchange.request.headers.get("last-event-id") != "call-2":
            exchange.send(400, b"resume from call-2", content_type="text/plain")
            return
        exchange.open_stream()
        answer = {"jsonrpc": "2.0", "id": self.pending_id,
                  "result": {"content": [{"type": "text", "text": "answered after resuming"}]}}
        exchange.write_raw(f"id: call-3\ndata: {json.dumps(answer)}\n\n")
        exchange.hold_open()


def test_the_answer_is_fetched_with_get_and_last_event_id_after_the_retry_delay() -> None:
    dropping = DroppingServer(retry_ms=300)
    with FaultServer("session", work=dropping.work, get=dropping.get) as server:
        [ran] = operate(ServerEndpoint(server.url, era="handshake"), budget_s=10)
        assert ran.error is None, ran.error
        assert ran.result.content == "answered after resuming"
        waited = dropping.resumed_at - dropping.closed_at
        assert 0.28 <= waited < 1.5, waited
        [resume] = [r for r in server.received if r.http_method == "GET"]
        assert resume.headers["last-event-id"] == "call-2"
        assert resume.headers["mcp-session-id"] == server.sessions_issued[0]
        assert resume.headers["mcp-protocol-version"] == "2025-11-25"
        assert resume.headers["accept"] == "text/event-stream"
    # The reconnect is a leg of its own, reported like the others (the budget bar shows it).
    assert [(leg.method, leg.outcome) for leg in ran.recorder.legs] == [
        ("initialize", LegOutcome.OK), ("notifications/initialized", LegOutcome.OK),
        ("tools/call", LegOutcome.OK), ("tools/call (resumed)", LegOutcome.OK)]
    assert [leg.method for leg in ran.recorder.legs_started][-1] == "tools/call (resumed)"
    assert [seen.message for seen in ran.recorder.progress_seen] == ["half way"]


def test_the_deadline_ending_during_the_retry_wait_stops_the_operation_at_once() -> None:
    dropping = DroppingServer(retry_ms=5000)
    with FaultServer("session", work=dropping.work, get=dropping.get) as server:
        [ran] = operate(ServerEndpoint(server.url, era="handshake"), budget_s=2)
        assert ran.error is not None and ran.error.kind is ErrorKind.TIMED_OUT
        assert "asked the client to come back in 5 seconds" in ran.error.message
        assert "seconds were left of the 2-second budget" in ran.error.message
        # It did not wait out the budget: the resume could not fit, so it stopped at once.
        assert ran.recorder.finished.elapsed_ms < 1900, "the client waited although the deadline could not allow it"
        assert not [r for r in server.received if r.http_method == "GET"]
        # The server still works on the request: it is told that the client stopped waiting.
        assert server.wait_until(lambda: bool(server.posts("notifications/cancelled")))
        [notice] = server.posts("notifications/cancelled")
        assert notice.params["requestId"] == dropping.pending_id


def test_a_priming_event_before_a_normal_answer_is_not_malformed() -> None:
    def primed(exchange: Exchange) -> None:
        exchange.open_stream()
        exchange.write_raw("id: a-1\ndata: \n\n")
        answer = {"jsonrpc": "2.0", "id": exchange.request.rpc_id,
                  "result": {"content": [{"type": "text", "text": "fine"}]}}
        exchange.write_raw(f"id: a-2\ndata: {json.dumps(answer)}\n\n")

    with FaultServer("stateless", work=primed) as server:
        [ran] = operate(ServerEndpoint(server.url, era="handshake"))
        assert ran.error is None, ran.error
        assert ran.result.content == "fine"
        assert [leg.method for leg in ran.recorder.legs][-1] == "tools/call"


def test_a_stream_without_ids_that_ends_without_an_answer_is_still_malformed() -> None:
    def silent(exchange: Exchange) -> None:
        exchange.send_events(['{"jsonrpc": "2.0", "method": "notifications/message", "params": {}}'])

    with FaultServer("stateless", work=silent) as server:
        [ran] = operate(ServerEndpoint(server.url, era="handshake"))
        assert ran.error is not None and ran.error.kind is ErrorKind.MALFORMED
        assert not [r for r in server.received if r.http_method == "GET"]
