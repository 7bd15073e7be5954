"""The listening session of a server of the stateless era: ``subscriptions/listen`` (one POST whose
response is the stream) instead of a session and a GET stream, against the official SDK's server
and a scripted one on loopback: acknowledged and list changes heard, a drop listened to again
after the floor (doubling), a graceful end stops it quietly, a stop is prompt and closes the stream."""

from __future__ import annotations

import asyncio
import time

from inspector.mcp import ServerEndpoint
from inspector.mcp.eras import RememberedEras
from inspector.mcp.listening import ListenerState, ListenerStatus, ServerListener
from inspector.mcp.standalone import ServerNotification
from inspector.mcp.stream_limits import MIN_RECONNECT_S
from tests.support.asgi_server import serve_asgi
from tests.support.hostile_streams import run_bounded
from tests.support.listen_servers import ScriptedListens, build_listen_server, call_stateless, listen_handler

ACK = "notifications/subscriptions/acknowledged"
SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId"


async def until(condition, limit_s: float = 10) -> None:
    end = time.monotonic() + limit_s
    while not condition():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.01)


def test_the_sdk_server_acknowledges_and_its_tool_list_change_is_heard_and_stop_closes_the_stream() -> None:
    server = build_listen_server()
    handler = listen_handler(server)
    heard: list[ServerNotification] = []
    states: list[ListenerStatus] = []

    async def go() -> tuple[ServerListener, float]:
        # auto, remembered stateless (what an operation found): listened to the stateless way
        eras = RememberedEras()
        endpoint = ServerEndpoint(url)
        eras.remember(endpoint.key, "stateless")
        listener = ServerListener(endpoint, eras=eras, on_notification=heard.append, on_status=states.append)
        task = asyncio.create_task(listener.run())
        await until(lambda: listener.status.state is ListenerState.LISTENING)
        assert len(handler._streams) == 1  # the SDK holds one subscription stream for us
        answer = await call_stateless(url, "tools/call", {"name": "announce_tools", "arguments": {}})
        assert answer["result"]["content"][0]["text"] == "announced"
        await until(lambda: bool(heard))
        started = time.monotonic()
        await listener.stop(task)
        took = time.monotonic() - started
        await until(lambda: not handler._streams, 5)  # the server saw the stream closed
        return listener, took

    with serve_asgi(server.streamable_http_app()) as url:
        listener, stop_took = run_bounded(go, 30)
    assert [note.method for note in heard] == ["notifications/tools/list_changed"]
    assert heard[0].via == "subscriptions/listen"
    assert heard[0].params["_meta"][SUBSCRIPTION_ID]
    assert [status.state for status in states][:2] == [ListenerState.CONNECTING, ListenerState.LISTENING]
    assert states[-1] == ListenerStatus(ListenerState.STOPPED)  # stopped by us: no error
    assert stop_took < 2.0, stop_took  # the documented bound is a second and a half


def test_the_listen_request_carries_meta_and_the_standard_headers_and_asks_for_the_three_lists() -> None:
    scripted = ScriptedListens(["ack-hold"])

    async def go() -> None:
        listener = ServerListener(ServerEndpoint(url, headers={"Authorization": "Bearer t0k"}, era="stateless"))
        task = asyncio.create_task(listener.run())
        await until(lambda: listener.status.state is ListenerState.LISTENING)
        await listener.stop(task)

    with serve_asgi(scripted.app()) as url:
        run_bounded(go, 20)
    [(_when, message, headers)] = scripted.listens
    params = message["params"]
    assert params["notifications"] == {"toolsListChanged": True, "promptsListChanged": True,
                                       "resourcesListChanged": True}
    assert params["_meta"]["io.modelcontextprotocol/protocolVersion"] == "2026-07-28"
    assert params["_meta"]["io.modelcontextprotocol/clientInfo"]["name"] == "run-inspector"
    assert "io.modelcontextprotocol/clientCapabilities" in params["_meta"]
    assert headers["mcp-method"] == "subscriptions/listen"
    assert headers["mcp-protocol-version"] == "2026-07-28"
    assert headers["authorization"] == "Bearer t0k"
    assert "text/event-stream" in headers["accept"]


def test_a_dropped_stream_is_listened_to_again_after_the_floor_with_a_new_id() -> None:
    scripted = ScriptedListens(["ack-drop", "ack-hold-change"])
    heard: list[ServerNotification] = []
    states: list[ListenerStatus] = []

    async def go() -> ServerListener:
        listener = ServerListener(ServerEndpoint(url, era="stateless"), on_notification=heard.append,
                                  on_status=states.append)
        task = asyncio.create_task(listener.run())
        await until(lambda: bool(heard))
        await listener.stop(task)
        return listener

    with serve_asgi(scripted.app()) as url:
        listener = run_bounded(go, 20)
    assert len(scripted.listens) == 2
    assert scripted.gaps()[0] >= MIN_RECONNECT_S
    first, second = (message["id"] for _when, message, _headers in scripted.listens)
    assert first != second
    assert listener.reconnects == 1
    shown = [status.state for status in states]
    assert shown.index(ListenerState.RECONNECTING) < len(shown) - 1 - shown[::-1].index(ListenerState.LISTENING)
    assert heard[0].method == "notifications/tools/list_changed"


def test_streams_that_drop_at_once_are_listened_to_again_no_faster_than_the_doubling_floor() -> None:
    scripted = ScriptedListens(["drop"])

    async def go() -> None:
        listener = ServerListener(ServerEndpoint(url, era="stateless"))
        task = asyncio.create_task(listener.run())
        await until(lambda: len(scripted.listens) >= 3)
        await listener.stop(task)

    with serve_asgi(scripted.app()) as url:
        run_bounded(go, 30)
    gaps = scripted.gaps()
    assert gaps[0] >= MIN_RECONNECT_S, gaps
    assert gaps[1] >= 2 * MIN_RECONNECT_S, gaps


def test_a_graceful_end_stops_listening_quietly_without_listening_again() -> None:
    scripted = ScriptedListens(["complete"])
    states: list[ListenerStatus] = []

    async def go() -> None:
        listener = ServerListener(ServerEndpoint(url, name="modern", era="stateless"), on_status=states.append)
        await asyncio.wait_for(listener.run(), 10)  # ends by itself

    with serve_asgi(scripted.app()) as url:
        run_bounded(go, 20)
    assert len(scripted.listens) == 1
    assert ListenerState.RECONNECTING not in [status.state for status in states]
    assert states[-1].state is ListenerState.STOPPED
    assert str(states[-1].error) == "The server modern ended its subscription."


def test_the_sdk_servers_graceful_end_is_heard_as_one() -> None:
    server = build_listen_server()
    states: list[ListenerStatus] = []

    async def go() -> None:
        listener = ServerListener(ServerEndpoint(url, name="sdk", era="stateless"), on_status=states.append)
        task = asyncio.create_task(listener.run())
        await until(lambda: listener.status.state is ListenerState.LISTENING)
        await call_stateless(url, "tools/call", {"name": "end_subscriptions", "arguments": {}})
        await asyncio.wait_for(task, 10)

    with serve_asgi(server.streamable_http_app()) as url:
        run_bounded(go, 20)
    assert str(states[-1].error) == "The server sdk ended its subscription."


def test_a_server_without_subscriptions_is_said_once_and_not_asked_again() -> None:
    scripted = ScriptedListens(["unknown"])

    async def go() -> ServerListener:
        listener = ServerListener(ServerEndpoint(url, era="stateless"))
        task = asyncio.create_task(listener.run())
        await until(lambda: listener.status.state is ListenerState.NO_STREAM)
        await listener.stop(task)
        return listener

    with serve_asgi(scripted.app()) as url:
        listener = run_bounded(go, 20)
    assert len(scripted.listens) == 1
    assert listener.status.state is ListenerState.STOPPED
