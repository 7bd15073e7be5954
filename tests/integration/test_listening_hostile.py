"""The listening session and an operation's standalone stream against hostile servers on loopback:
a flood of requests on the stream, replies the server never takes, a stream that closes at once
with ``retry: 0``. What must hold: few answers in flight, reconnects no faster than the floor,
``stop()`` bounded."""

from __future__ import annotations

import asyncio
import time

import httpx

from inspector.mcp import McpClient, ServerEndpoint, ServerRequestSeen
from inspector.mcp.listening import ListenerState, ServerListener
from inspector.mcp.standalone import ServerNotification, StandaloneStream
from inspector.mcp.stream_limits import MAX_REQUESTS_IN_FLIGHT, MIN_RECONNECT_S, RequestsDropped
from tests.support.fault_server import FaultServer, default_work
from tests.support.hostile_streams import ReplyTaker, ping_flood, retry_zero_and_close, run_bounded

FLOOD = 30_000
#: Tasks on the loop besides the answers: the test's, the listener's, a connection being opened.
OTHER_TASKS = MAX_REQUESTS_IN_FLIGHT + 4


def test_a_flood_of_30000_pings_is_answered_a_few_at_a_time_and_stop_returns_promptly() -> None:
    taker = ReplyTaker(hold_s=0.05)
    answered: list[ServerRequestSeen] = []

    async def go() -> tuple[ServerListener, int, float]:
        seen: list[ServerNotification] = []
        listener = ServerListener(ServerEndpoint(server.url), on_notification=seen.append,
                                  on_request=answered.append)
        task = asyncio.create_task(listener.run())
        most_tasks = 0
        while not seen:  # the end notice: every ping before it has been read
            await asyncio.sleep(0.01)
            most_tasks = max(most_tasks, len(asyncio.all_tasks()))
        while taker.taken < MAX_REQUESTS_IN_FLIGHT:  # answers are on their way: stop with work in flight
            await asyncio.sleep(0.01)
            most_tasks = max(most_tasks, len(asyncio.all_tasks()))
        started = time.monotonic()
        await listener.stop(task)
        return listener, most_tasks, time.monotonic() - started

    with FaultServer("session", get=ping_flood(FLOOD), notification=taker) as server:
        listener, most_tasks, stop_took = run_bounded(go, 60)
        assert server.wait_idle(5)  # the client left no connection behind
    assert stop_took < 2.0, stop_took
    assert most_tasks <= OTHER_TASKS + MAX_REQUESTS_IN_FLIGHT, most_tasks  # on main: thousands, then stuck
    assert taker.peak <= MAX_REQUESTS_IN_FLIGHT
    assert listener.replies.peak <= MAX_REQUESTS_IN_FLIGHT
    # Every ping was answered, dropped, or cut short by the stop (at most one full gate of those).
    cut_short = FLOOD - len(answered) - listener.replies.dropped
    assert 0 <= cut_short <= MAX_REQUESTS_IN_FLIGHT
    assert listener.replies.dropped > FLOOD // 2


def test_replies_the_server_never_takes_hold_few_places_and_stop_is_bounded() -> None:
    """The server never takes the POSTed replies and never closes its stream."""
    taker = ReplyTaker(stall=True)
    dropped: list[RequestsDropped] = []

    async def go() -> tuple[int, float]:
        seen: list[ServerNotification] = []
        listener = ServerListener(ServerEndpoint(server.url), on_notification=seen.append,
                                  on_requests_dropped=dropped.append)
        task = asyncio.create_task(listener.run())
        while not seen:
            await asyncio.sleep(0.01)
        tasks = len(asyncio.all_tasks())  # every ping has been read: its answer started, or not
        while taker.now < MAX_REQUESTS_IN_FLIGHT:
            await asyncio.sleep(0.01)
        started = time.monotonic()
        await listener.stop(task)
        return tasks, time.monotonic() - started

    with FaultServer("session", get=ping_flood(500), notification=taker) as server:
        tasks, stop_took = run_bounded(go, 30)
        assert server.wait_idle(5)  # the stalled replies' connections were closed by the stop
    assert tasks <= OTHER_TASKS + MAX_REQUESTS_IN_FLIGHT, tasks  # on main: one task per ping
    assert taker.peak <= MAX_REQUESTS_IN_FLIGHT
    assert stop_took < 2.0, stop_took
    # Counted notes, not one per request (said when the note's two seconds are up, or at the stop).
    assert dropped and sum(note.count for note in dropped) == 500 - MAX_REQUESTS_IN_FLIGHT
    assert "more than 16 were waiting at once" in str(dropped[0].message)


def test_a_stream_closing_at_once_with_retry_0_is_reopened_no_faster_than_the_floor() -> None:
    opened: list[float] = []

    def get(exchange) -> None:
        opened.append(time.monotonic())
        retry_zero_and_close(exchange)

    async def go() -> tuple[ServerListener, float]:
        listener = ServerListener(ServerEndpoint(server.url))
        task = asyncio.create_task(listener.run())
        end = time.monotonic() + 15
        while len(opened) < 3 and time.monotonic() < end:  # two reconnects: 1 s, then 2 s later
            await asyncio.sleep(0.01)
        started = time.monotonic()
        await listener.stop(task)
        return listener, time.monotonic() - started

    with FaultServer("session", get=get) as server:
        listener, stop_took = run_bounded(go, 30)
    window = opened[-1] - opened[0]
    gaps = [opened[n + 1] - opened[n] for n in range(len(opened) - 1)]
    # On main: three GETs within a few milliseconds (hundreds a second).
    assert len(opened) == 3 and len(opened) - 1 <= window / MIN_RECONNECT_S, (len(opened), window)
    assert gaps[0] >= 0.9 * MIN_RECONNECT_S and gaps[1] >= 1.8 * MIN_RECONNECT_S, gaps  # floor, then backoff
    assert stop_took < 2.0


def test_a_server_forgetting_each_session_at_once_is_given_new_ones_no_faster_than_the_floor() -> None:
    """Its stream answers 404 (session unknown) every time: each new session waits, longer each time."""
    handshakes: list[float] = []

    def initialize(exchange) -> None:
        handshakes.append(time.monotonic())
        exchange.server.answer_initialize(exchange)

    def get(exchange) -> None:
        exchange.send(404, b"", content_type=None)

    async def go() -> None:
        listener = ServerListener(ServerEndpoint(server.url))
        task = asyncio.create_task(listener.run())
        end = time.monotonic() + 15
        while len(handshakes) < 3 and listener.status.state is not ListenerState.STOPPED \
                and time.monotonic() < end:
            await asyncio.sleep(0.01)
        await listener.stop(task)

    with FaultServer("session", get=get, initialize=initialize) as server:
        run_bounded(go, 30)
    # On main: six sessions within milliseconds, then it gave up. Now: 1 s, then 2 s between them.
    gaps = [handshakes[n + 1] - handshakes[n] for n in range(len(handshakes) - 1)]
    assert len(handshakes) == 3 and gaps[0] >= 0.9 * MIN_RECONNECT_S and gaps[1] >= 1.8 * MIN_RECONNECT_S, gaps


def test_an_operations_stream_closing_with_retry_0_is_resumed_no_faster_than_the_floor() -> None:
    opened: list[float] = []

    def get(exchange) -> None:
        opened.append(time.monotonic())
        retry_zero_and_close(exchange)

    async def go() -> int:
        async with httpx.AsyncClient() as http:
            stream = StandaloneStream(http, ServerEndpoint(server.url), {"Mcp-Session-Id": "s"},
                                      answer=lambda request: asyncio.sleep(0))
            await stream.open()
            end = time.monotonic() + 10
            while len(opened) < 2 and time.monotonic() < end:
                await asyncio.sleep(0.01)
            await stream.close()
            return stream.reconnects

    with FaultServer("session", get=get) as server:
        reconnects = run_bounded(go, 20)
    assert len(opened) == 2 and opened[1] - opened[0] >= 0.9 * MIN_RECONNECT_S, opened  # main: 21 at once
    assert reconnects >= 1


def test_a_flood_on_an_operations_own_stream_leaves_the_operation_its_budget() -> None:
    """An operation opens the stream of its session (as the command line does); the server floods
    it while the tool call waits for the first answers, and the call still ends within its budget."""
    taker = ReplyTaker(hold_s=0.05)

    def work(exchange) -> None:
        if exchange.request.rpc_method == "tools/call":
            server = exchange.server
            server.wait_until(lambda: sum(r.rpc_method is None for r in server.posts()) >= MAX_REQUESTS_IN_FLIGHT, 5)
        default_work(exchange)

    async def go() -> tuple[object, float]:
        client = McpClient(standalone_stream=True)
        started = time.monotonic()
        result = await client.call_tool(ServerEndpoint(server.url), "echo", {"text": "hi"}, budget_s=10)
        took = time.monotonic() - started
        await client.drain()
        return result, took

    with FaultServer("session", get=ping_flood(FLOOD), work=work, notification=taker) as server:
        result, took = run_bounded(go, 40)
    assert result.content == '{"text": "hi"}'
    assert took < 10, took
    assert MAX_REQUESTS_IN_FLIGHT <= taker.taken and taker.peak <= MAX_REQUESTS_IN_FLIGHT
