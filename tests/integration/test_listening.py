"""The long-lived listening session (inspector/mcp/listening.py) against small fault servers, and roots
configured per server on the command line."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

from inspector.cli import main
from inspector.mcp import ServerEndpoint, ServerRequestSeen
from inspector.mcp.listening import ListenerState, ListenerStatus, ServerListener
from inspector.mcp.standalone import ServerNotification
from tests.support.asgi_server import closed_port, serve_asgi
from tests.support.fault_server import Exchange, FaultServer
from tests.support.sdk_server import build_sdk_server


def listen(url: str, until, *, timeout: float = 5.0, on_status=None, **options):
    """Run a listener until ``until(listener, seen, requests)`` holds; stop it; return what it saw."""
    seen: list[ServerNotification] = []
    requests: list[ServerRequestSeen] = []
    states: list[ListenerState] = []

    def status_seen(status: ListenerStatus) -> None:
        states.append(status.state)
        if on_status is not None:
            on_status(status)

    async def go() -> ServerListener:
        listener = ServerListener(ServerEndpoint(url), on_notification=seen.append, on_request=requests.append,
                                  on_status=status_seen, **options)
        task = asyncio.create_task(listener.run())
        end = time.monotonic() + timeout
        while not until(listener, seen, requests) and time.monotonic() < end:
            await asyncio.sleep(0.02)
        await listener.stop(task)
        return listener

    listener = asyncio.run(go())
    return listener, seen, requests, states


def test_a_dropped_stream_is_resumed_with_last_event_id_and_the_session_ended_on_stop() -> None:
    opened: list[str | None] = []

    def get(exchange: Exchange) -> None:
        opened.append(exchange.request.headers.get("last-event-id"))
        exchange.open_stream()
        note = {"jsonrpc": "2.0", "method": "notifications/message",
                "params": {"level": "info", "data": f"message {len(opened)}"}}
        exchange.write_raw(f"id: e-{len(opened)}\nretry: 50\ndata: \n\n")
        exchange.write_raw(f"data: {json.dumps(note)}\n\n")
        if len(opened) == 1:
            return  # the stream drops
        exchange.hold_open()

    with FaultServer("session", get=get) as server:
        statuses: list[ListenerStatus] = []
        listener, seen, _requests, states = listen(server.url, lambda lis, seen, req: len(seen) == 2,
                                                   on_status=statuses.append)
        assert [note.params["data"] for note in seen] == ["message 1", "message 2"]
        assert opened == [None, "e-1"]
        assert listener.reconnects == 1
        assert ListenerState.RECONNECTING in states and states[-1] is ListenerState.STOPPED
        # It had listened: the reconnect is after a break (the window says the stream broke).
        assert all(status.listened for status in statuses if status.state is ListenerState.RECONNECTING)
        [delete] = [r for r in server.received if r.http_method == "DELETE"]
        assert delete.headers["mcp-session-id"] == server.sessions_issued[0]


def test_requests_on_the_stream_get_answers_and_none_hangs() -> None:
    asked = [
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "id": 2, "method": "something/unknown"},
        {"jsonrpc": "2.0", "id": 3, "method": 42},
        {"jsonrpc": "2.0", "id": 4, "method": "roots/list"},
        {"jsonrpc": "2.0", "id": 5, "method": "elicitation/create",
         "params": {"message": "Name?", "requestedSchema": {"type": "object", "properties": {}}}},
        {"jsonrpc": "2.0", "id": 6, "method": "sampling/createMessage", "params": {"messages": []}},
    ]

    def get(exchange: Exchange) -> None:
        exchange.open_stream()
        for request in asked:
            exchange.write_event(request)
        exchange.hold_open()

    with FaultServer("session", get=get) as server:
        started = time.monotonic()
        _listener, _seen, requests, _states = listen(server.url, lambda lis, seen, req: len(req) == len(asked))
        assert time.monotonic() - started < 3
        replies = {i: server.reply_to(i).message for i in range(1, 7)}
    assert replies[1]["result"] == {}
    assert replies[2]["error"]["code"] == -32601
    assert replies[3]["error"]["code"] == -32600
    assert replies[4]["error"]["code"] == -32601  # no roots configured: none offered
    assert "outside any operation" in replies[5]["error"]["message"]
    assert "outside any operation" in replies[6]["error"]["message"]
    assert {seen.method: seen.declined for seen in requests}["elicitation/create"] is True


def test_a_server_answering_405_offers_no_stream_and_is_not_asked_again() -> None:
    with FaultServer("session") as server:
        statuses = []

        def refused(listener, seen, requests) -> bool:
            statuses.append(listener.status)
            return listener.status.state is ListenerState.NO_STREAM

        _listener, _seen, _requests, states = listen(server.url, refused)
        assert ListenerState.NO_STREAM in states and statuses[-1].http_status == 405
        assert [r.http_method for r in server.received].count("GET") == 1


def test_a_server_refusing_the_log_level_is_listened_to_and_the_refusal_reported() -> None:
    refusals = []
    with FaultServer("session") as server:
        server.initialize = lambda ex: server.answer_initialize(ex, capabilities={"tools": {}, "logging": {}})
        server.work = lambda ex: ex.send_rpc_error(-32601, "Method not found")

        def settled(listener, seen, requests) -> bool:
            return listener.status.state in (ListenerState.NO_STREAM, ListenerState.STOPPED)

        _listener, _seen, _requests, states = listen(server.url, settled, log_level="info",
                                                     on_log_level_refused=refusals.append)
        assert [r.rpc_method for r in server.posts("logging/setLevel")] == ["logging/setLevel"]
        # Refused, said, and the session goes on (to its stream: this server offers none).
        assert ListenerState.NO_STREAM in states
        [refused] = refusals
        assert refused.level == "info" and refused.error.rpc_code == -32601


def test_an_unreachable_server_is_retried_with_backoff_then_given_up() -> None:
    with FaultServer("session") as server:
        url = server.url
    # The server is gone: each attempt fails at once; the waits grow (1 s, 2 s, ...), so in a
    # second and a half there are two attempts and a reconnecting state naming the next wait.
    waits: list[float] = []

    async def go() -> None:
        listener = ServerListener(ServerEndpoint(url),
                                  on_status=lambda s: waits.append(s.retry_in_s) if s.retry_in_s else None)
        task = asyncio.create_task(listener.run())
        await asyncio.sleep(1.5)
        await listener.stop(task)

    asyncio.run(go())
    assert waits[:2] == [1.0, 2.0]


def test_servers_set_keeps_roots_and_calls_use_them(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "runs.db")
    with serve_asgi(build_sdk_server().streamable_http_app()) as url:
        assert main(["call", url, "--era", "handshake", "show_roots", "--db", db, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["content"].startswith("roots failed")  # none by default
        folder = tmp_path / "project"
        folder.mkdir()
        assert main(["servers", "--json", "set", url, "--root", str(folder), "--db", db]) == 0
        assert json.loads(capsys.readouterr().out)["saved"]["roots"] == [folder.as_uri()]
        assert main(["call", url, "--era", "handshake", "show_roots", "--db", db, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["content"] == f"roots: {folder.as_uri()}"
        # --root on the call wins over the stored roots.
        assert main(["call", url, "--era", "handshake", "show_roots", "--db", db, "--json", "--root",
                     str(tmp_path)]) == 0
        assert json.loads(capsys.readouterr().out)["content"] == f"roots: {tmp_path.as_uri()}"
        # Setting another thing keeps the roots; --clear-roots clears them.
        assert main(["servers", "set", url, "--name", "sdk", "--db", db]) == 0
        assert main(["servers", "--json", "--db", db]) == 0
        assert json.loads(capsys.readouterr().out.splitlines()[-1])["servers"][0]["roots"] == [folder.as_uri()]
        assert main(["servers", "set", url, "--clear-roots", "--db", db]) == 0
        capsys.readouterr()
        assert main(["call", url, "--era", "handshake", "show_roots", "--db", db, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["content"].startswith("roots failed")
        assert main(["servers", "set", url, "--root", "https://example.invalid/x", "--db", db]) == 2


def test_a_server_never_reached_is_tried_again_not_said_to_have_broken() -> None:
    """Nobody listens at the address: the listener tries again, and its status says it never listened
    (the window says the server did not answer yet, not that its stream broke)."""
    statuses: list[ListenerStatus] = []
    listen(f"http://127.0.0.1:{closed_port()}/mcp",
           lambda lis, seen, req: any(status.state is ListenerState.RECONNECTING for status in statuses),
           on_status=statuses.append)
    retries = [status for status in statuses if status.state is ListenerState.RECONNECTING]
    assert retries and not any(status.listened for status in retries)
