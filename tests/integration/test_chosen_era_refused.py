"""A server of the handshake era spoken to in the stateless era chosen for it (--era stateless, or
Stateless in the server dialog) refuses the first request as it refuses one without initialize:
server-everything (the TypeScript SDK's server with sessions) answers HTTP 400, JSON-RPC -32000
"Bad Request: Server not initialized". That was all the operation said; now one more sentence says that
the stateless era was chosen, and what to choose instead. Not said when the refusal is of a later
request, or of the method or its params. The window's listening session to such a server stops with
the refusal instead of trying again. The servers: the fault server on 127.0.0.1, answering as the
TypeScript SDK does."""

from __future__ import annotations

import asyncio
import json

from inspector.cli import main
from inspector.mcp import ServerEndpoint
from inspector.mcp.listening import ListenerState, ListenerStatus, ServerListener
from tests.support.fault_server import Exchange, FaultServer
from tests.support.hostile_streams import run_bounded

HINT = ("The stateless era (2026-07-28) was chosen for this server, and a server of the handshake era refuses "
        "a request so when no initialize came first: if this one speaks the handshake era, choose the era "
        "automatic or handshake for it.")
ECHO = {"name": "echo", "inputSchema": {"type": "object"}}


def handshake_only(exchange: Exchange) -> None:
    """As server-everything: a request outside a session is refused; in one, tools are listed and called."""
    if "mcp-session-id" not in exchange.request.headers:
        exchange.send_json({"jsonrpc": "2.0", "id": None,
                            "error": {"code": -32000, "message": "Bad Request: Server not initialized"}}, status=400)
    elif exchange.request.rpc_method == "tools/list":
        exchange.send_result({"tools": [ECHO]})
    else:
        exchange.send_result({"content": [{"type": "text", "text": "echoed"}]})


def test_the_chosen_stateless_era_is_named_when_a_handshake_server_refuses(capsys) -> None:
    with FaultServer("session", work=handshake_only) as server:
        assert main(["call", server.url, "--era", "stateless", "echo", "--no-store"]) == 1
        out = capsys.readouterr().out
        assert "JSON-RPC error -32000: Bad Request: Server not initialized. " + HINT in out
        assert main(["tools", server.url, "--era", "stateless", "--no-store", "--json"]) == 1
        assert json.loads(capsys.readouterr().out)["error"]["message"].endswith(HINT)
        assert main(["call", server.url, "--era", "auto", "echo", "--no-store"]) == 0  # as the sentence says
        assert "echoed" in capsys.readouterr().out


def test_german(capsys) -> None:
    with FaultServer("session", work=handshake_only) as server:
        assert main(["call", server.url, "--era", "stateless", "echo", "--no-store", "--lang", "de"]) == 1
        assert ("Für diesen Server wurde die zustandslose Ära (2026-07-28) gewählt" in capsys.readouterr().out)


def test_not_said_of_a_later_request_or_of_refused_params(capsys) -> None:
    def later(exchange: Exchange) -> None:
        if exchange.request.rpc_method == "tools/list":
            exchange.send_result({"tools": [ECHO]})
        else:
            exchange.send_json({"jsonrpc": "2.0", "id": exchange.request.rpc_id,
                                "error": {"code": -32000, "message": "the tool broke"}}, status=400)

    def params(exchange: Exchange) -> None:
        exchange.send_json({"jsonrpc": "2.0", "id": exchange.request.rpc_id,
                            "error": {"code": -32602, "message": "no such cursor"}}, status=400)

    for work in (later, params):
        with FaultServer(work=work) as server:
            assert main(["call", server.url, "--era", "stateless", "echo", "--no-store"]) == 1
            out = capsys.readouterr().out
            assert "JSON-RPC error" in out and "was chosen for this server" not in out


def test_the_window_listener_stops_with_the_refusal_instead_of_trying_again() -> None:
    """The listening session (the window's Server log) of such a server: its subscriptions/listen is refused
    the same way, the error's id null (the server read no request: JSON-RPC's rule). That was taken for no
    answer at all: "everything did not answer yet; trying again in 1 s…", a POST at each try until given up;
    now listening stops at once with the reason."""
    states: list[ListenerStatus] = []

    async def go() -> None:
        listener = ServerListener(ServerEndpoint(url, name="everything", era="stateless"), on_status=states.append)
        await asyncio.wait_for(listener.run(), 10)  # ends by itself

    with FaultServer("session", work=handshake_only) as server:
        url = server.url
        run_bounded(go, 20)
        listens = server.posts("subscriptions/listen")
    assert len(listens) == 1
    assert ListenerState.RECONNECTING not in [status.state for status in states]
    assert states[-1].state is ListenerState.STOPPED
    assert str(states[-1].error) == ("The server everything rejected subscriptions/listen with JSON-RPC error -32000: "
                                     "Bad Request: Server not initialized.")
