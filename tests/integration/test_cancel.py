"""Cancel stops the request on the wire at once, whatever leg is running, and is never a failure."""

from __future__ import annotations

# These cases are the handshake era's (sessions, the standalone stream, requests from the server,
# resumption): their servers are spoken to in that era, pinned (era="handshake"); the stateless
# era's counterparts are in test_stateless_era.py.
import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from inspector.agent import execute_tool
from inspector.mcp import (
    CancelSignal,
    ErrorKind,
    LegOutcome,
    LegStarted,
    McpClient,
    McpTransportError,
    OperationRecorder,
    ServerEndpoint,
)
from inspector.runs import ToolOutcome, step_outcome
from tests.support.asgi_server import serve_asgi
from tests.support.fault_server import Exchange, FaultServer
from tests.support.sdk_server import ToolEvents, build_sdk_server

#: Generous: the benchmark measures the real latency (median in milliseconds).
PROMPT_S = 0.5


class FireWhenLegStarts(OperationRecorder):
    """Fires the signal from another thread shortly after the named leg started."""

    def __init__(self, cancel: CancelSignal, method: str, after_s: float = 0.15) -> None:
        super().__init__()
        self._cancel, self._method, self._after = cancel, method, after_s
        self.fired_at: float | None = None

    def leg_started(self, report: LegStarted) -> None:
        super().leg_started(report)
        if report.method == self._method and self.fired_at is None:
            def fire() -> None:
                self.fired_at = time.monotonic()
                self._cancel.fire()
            timer = threading.Timer(self._after, fire)
            timer.daemon = True
            timer.start()


def run_cancelled(server: FaultServer | str, operation: str, recorder: OperationRecorder,
                  cancel: CancelSignal) -> tuple[McpTransportError, float]:
    """Run one operation that must end cancelled; return the error and when it ended."""
    endpoint = ServerEndpoint(server if isinstance(server, str) else server.url, era="handshake")

    async def go() -> tuple[McpTransportError, float]:
        client = McpClient()
        try:
            if operation == "call":
                await client.call_tool(endpoint, "slow", {"seconds": 30}, budget_s=30, cancel=cancel,
                                       observer=recorder)
            else:
                await client.list_tools(endpoint, budget_s=30, cancel=cancel, observer=recorder)
        except McpTransportError as exc:
            ended = time.monotonic()
            await client.drain()
            return exc, ended
        raise AssertionError("the operation was not cancelled")

    return asyncio.run(go())


def stall(exchange: Exchange) -> None:
    exchange.stall()


def trickle(exchange: Exchange) -> None:
    exchange.trickle(0.05)


@pytest.mark.parametrize("profile", ["stateless", "session"])
@pytest.mark.parametrize("leg, server_options, in_flight", [
    ("initialize", {"delays": {"initialize": 30}}, False),
    ("notifications/initialized", {"delays": {"notifications/initialized": 30}}, False),
    ("tools/call", {"work": stall}, True),
    ("tools/call", {"work": trickle}, True),
], ids=["slow-initialize", "slow-initialized", "stalled-call", "trickling-stream"])
def test_cancel_during_each_leg(profile: str, leg: str, server_options: dict[str, Any], in_flight: bool) -> None:
    cancel = CancelSignal()
    with FaultServer(profile, **server_options) as server:
        recorder = FireWhenLegStarts(cancel, leg)
        error, ended = run_cancelled(server, "call", recorder, cancel)

        assert error.kind is ErrorKind.CANCELLED
        assert error.is_cancellation
        assert error.in_flight is in_flight
        assert server.url in error.message
        assert recorder.fired_at is not None
        assert ended - recorder.fired_at < PROMPT_S
        assert recorder.finished is not None and recorder.finished.outcome == "cancelled"
        assert recorder.legs[-1].method == leg
        assert recorder.legs[-1].outcome is LegOutcome.CANCELLED
        # The request on the wire was torn down: the server saw its client leave.
        assert server.wait_until(lambda: bool(server.gone) or leg != "tools/call", 3)
        # Never retried.
        assert len(server.posts("tools/call")) == (1 if leg == "tools/call" else 0)
        if leg == "tools/call" and server_options["work"] is trickle:
            assert recorder.progress_seen, "the trickling stream's progress was not reported"


def test_a_cancelled_call_tells_the_server() -> None:
    cancel = CancelSignal()
    with FaultServer("session", work=stall) as server:
        recorder = FireWhenLegStarts(cancel, "tools/call")
        error, _ = run_cancelled(server, "call", recorder, cancel)
        assert error.in_flight is True
        assert server.wait_until(lambda: bool(server.posts("notifications/cancelled")), 3)
        (call,) = server.posts("tools/call")
        (notice,) = server.posts("notifications/cancelled")
        assert notice.params["requestId"] == call.rpc_id
        assert notice.params.get("reason")
        assert notice.is_notification
        assert notice.headers.get("mcp-session-id") == call.headers["mcp-session-id"]
        assert notice.headers.get("mcp-protocol-version") == "2025-11-25"
        assert recorder.finished.server_told_to_stop is True
        assert "no session id" not in error.message


def test_a_cancel_without_a_session_says_the_server_was_not_told() -> None:
    """Without a session id a notice cannot name the running request (every client numbers its
    requests from 1): none is sent, and the record and the message say the server was not told."""
    cancel = CancelSignal()
    with FaultServer("stateless", work=stall) as server:
        recorder = FireWhenLegStarts(cancel, "tools/call")

        async def go() -> Any:
            client = McpClient()
            record = await execute_tool(client, ServerEndpoint(server.url, era="handshake"), "slow", {"seconds": 30},
                                        cancel=cancel, observer=recorder)
            await client.drain()
            return record

        record = asyncio.run(go())
        assert record.status == "cancelled" and record.error.in_flight is True
        assert record.server_told_to_stop is False
        assert "The server gave no session id, so it was not told to stop" in record.error.message
        payload = record.step.to_payload()
        assert payload["serverToldToStop"] is False
        assert "was not told to stop" in payload["toolResult"]
        assert server.posts("notifications/cancelled") == []


def test_the_stateless_sdk_server_runs_the_tool_to_its_end() -> None:
    """What the record warns about, seen on the official SDK: the cancel does not reach the tool."""
    events = ToolEvents()
    app = build_sdk_server(events).streamable_http_app(stateless_http=True, json_response=True)
    with serve_asgi(app) as url:
        cancel = CancelSignal()
        recorder = OperationRecorder()

        def fire_when_tool_runs() -> None:
            if events.started.wait(10):
                cancel.fire()

        threading.Thread(target=fire_when_tool_runs, daemon=True).start()

        async def go() -> Any:
            client = McpClient()
            record = await execute_tool(client, ServerEndpoint(url, era="handshake"), "slow", {"seconds": 0.5},
                                        cancel=cancel,
                                        observer=recorder)
            await client.drain()
            return record

        record = asyncio.run(go())
        assert record.status == "cancelled" and record.server_told_to_stop is False
        assert events.finished.wait(5), "the stateless server's tool did not run to its end"
        assert not events.cancelled.is_set()


@pytest.mark.parametrize("leg", ["initialize", "notifications/initialized"])
def test_no_cancel_notice_for_the_handshake(leg: str) -> None:
    cancel = CancelSignal()
    with FaultServer("session", delays={leg: 30}) as server:
        run_cancelled(server, "call", FireWhenLegStarts(cancel, leg), cancel)
        # The client has drained its housekeeping: anything it meant to send has been sent.
        assert server.posts("notifications/cancelled") == []
        assert server.posts("tools/call") == []


def test_cancel_between_catalogue_pages() -> None:
    def pages(exchange: Exchange) -> None:
        cursor = (exchange.request.params or {}).get("cursor")
        number = int(cursor) if cursor else 1
        exchange.send_result({"tools": [{"name": f"tool-{number}"}], "nextCursor": str(number + 1)})

    cancel = CancelSignal()

    class FireAfterFirstPage(OperationRecorder):
        def leg_finished(self, report: Any) -> None:
            super().leg_finished(report)
            if report.method == "tools/list":
                cancel.fire()  # on the loop's own thread, between two legs

    with FaultServer("session", work=pages) as server:
        recorder = FireAfterFirstPage()
        error, _ = run_cancelled(server, "list", recorder, cancel)
        assert error.kind is ErrorKind.CANCELLED
        # A page had gone out, none is on the wire: in flight by the record, nothing to tell.
        assert error.in_flight is True
        assert len(server.posts("tools/list")) == 1
        assert recorder.legs[-1].outcome is LegOutcome.CANCELLED
        assert recorder.legs[-1].granted_s is None  # never sent
        assert server.posts("notifications/cancelled") == []


def test_a_signal_fired_before_the_operation_sends_nothing() -> None:
    cancel = CancelSignal()
    cancel.fire()
    with FaultServer("stateless") as server:
        error, _ = run_cancelled(server, "call", OperationRecorder(), cancel)
        assert error.in_flight is False
        assert server.posts() == []


def test_a_late_signal_does_not_touch_the_next_operation() -> None:
    """Fired after an operation ended: the binding is gone, nothing else is cancelled."""
    cancel = CancelSignal()
    with FaultServer("stateless") as server:
        async def go() -> tuple[Any, Any]:
            client = McpClient()
            endpoint = ServerEndpoint(server.url, era="handshake")
            first = await client.call_tool(endpoint, "echo", {"text": "a"}, cancel=cancel)
            cancel.fire()
            second = await client.call_tool(endpoint, "echo", {"text": "b"})
            await client.drain()
            return first, second

        first, second = asyncio.run(go())
        assert first.is_error is False and second.is_error is False


@pytest.mark.parametrize("json_response", [False, True])
def test_sdk_server_tool_is_told_to_stop(json_response: bool) -> None:
    events = ToolEvents()
    app = build_sdk_server(events).streamable_http_app(json_response=json_response)
    with serve_asgi(app) as url:
        cancel = CancelSignal()
        recorder = OperationRecorder()

        def fire_when_tool_runs() -> None:
            if events.started.wait(10):
                recorder.fired_at = time.monotonic()  # type: ignore[attr-defined]
                cancel.fire()

        threading.Thread(target=fire_when_tool_runs, daemon=True).start()
        error, ended = run_cancelled(url, "call", recorder, cancel)
        assert error.kind is ErrorKind.CANCELLED and error.in_flight is True
        assert ended - recorder.fired_at < PROMPT_S  # type: ignore[attr-defined]
        assert events.cancelled.wait(5), "the SDK did not cancel the tool's handler"
        assert not events.finished.is_set()


def test_the_adapter_records_cancelled_not_failed() -> None:
    cancel = CancelSignal()
    with FaultServer("session", work=stall) as server:
        recorder = FireWhenLegStarts(cancel, "tools/call")

        async def go() -> Any:
            client = McpClient()
            record = await execute_tool(client, ServerEndpoint(server.url, era="handshake"), "slow", {"seconds": 30},
                                        cancel=cancel, observer=recorder)
            await client.drain()
            return record

        record = asyncio.run(go())
    assert record.tool_result.outcome is ToolOutcome.CANCELLED
    assert record.tool_result.cancelled_in_flight is True
    assert record.status == "cancelled" and record.health == "cancelled"
    payload = record.step.to_payload()
    assert payload["toolOutcome"] == "cancelled" and payload["toolIsError"] is True
    assert payload["cancelledInFlight"] is True
    assert step_outcome(payload) == "cancelled"
    assert payload["legs"][-1]["outcome"] == "cancelled"


@pytest.mark.parametrize("work, expected", [
    (lambda exchange: exchange.send(500, b"boom", content_type="text/plain"), "failed"),
    (lambda exchange: exchange.send_result({"content": [{"type": "text", "text": "no"}], "isError": True}),
     "failed"),
    (lambda exchange: exchange.send_result({"content": [{"type": "text", "text": "yes"}]}), "ok"),
])
def test_the_adapter_maps_failures_and_tool_errors(work: Callable[[Exchange], None], expected: str) -> None:
    with FaultServer("stateless", work=work) as server:
        async def go() -> Any:
            client = McpClient()
            record = await execute_tool(client, ServerEndpoint(server.url, era="handshake"), "t", {})
            await client.drain()
            return record

        record = asyncio.run(go())
    assert record.tool_result.outcome.value == expected
    assert record.status == expected
    assert step_outcome(record.step.to_payload()) == expected


def test_a_timed_out_call_also_tells_the_server() -> None:
    """The protocol: a sender that stops waiting on a time-out SHOULD send the cancellation."""
    with FaultServer("session", work=stall) as server:
        async def go() -> McpTransportError:
            client = McpClient()
            try:
                await client.call_tool(ServerEndpoint(server.url, era="handshake"), "slow", {}, budget_s=1)
            except McpTransportError as exc:
                await client.drain()
                return exc
            raise AssertionError("the stalled call did not time out")

        error = asyncio.run(go())
        assert error.kind is ErrorKind.TIMED_OUT and not error.is_cancellation
        assert server.wait_until(lambda: bool(server.posts("notifications/cancelled")), 3)
        (call,) = server.posts("tools/call")
        (notice,) = server.posts("notifications/cancelled")
        assert notice.params["requestId"] == call.rpc_id
        assert "timed out" in notice.params["reason"]
        assert notice.headers.get("mcp-session-id") == call.headers["mcp-session-id"]
