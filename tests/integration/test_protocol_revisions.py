"""Older servers: 2025-03-26 and 2024-11-05 are negotiated revisions the client accepts; older ones are refused."""

from __future__ import annotations

# These cases are the handshake era's (sessions, the standalone stream, requests from the server,
# resumption): their servers are spoken to in that era, pinned (era="handshake"); the stateless
# era's counterparts are in test_stateless_era.py.
from inspector.mcp import ErrorKind, ServerEndpoint
from tests.support.fault_server import FaultServer, operate


def test_a_2025_03_26_server_is_spoken_to() -> None:
    with FaultServer("session", protocol_version="2025-03-26") as server:
        [called, pinged] = operate(ServerEndpoint(server.url, era="handshake"), tool="echo", operations=1) + \
            operate(ServerEndpoint(server.url, era="handshake"), "ping")
        assert called.error is None, called.error
        assert pinged.result.protocol_version == "2025-03-26"
        later = [post for post in server.posts() if post.rpc_method != "initialize"]
        assert later and all(post.headers.get("mcp-protocol-version") == "2025-03-26" for post in later)


def test_a_2024_11_05_server_is_accepted_as_the_older_servers_answer() -> None:
    with FaultServer("stateless", protocol_version="2024-11-05") as server:
        [ran] = operate(ServerEndpoint(server.url, era="handshake"), "ping")
        assert ran.error is None, ran.error
        assert ran.result.protocol_version == "2024-11-05"


def test_a_revision_older_still_is_refused_with_the_sentence_it_had() -> None:
    with FaultServer("stateless", protocol_version="2024-10-07") as server:
        [ran] = operate(ServerEndpoint(server.url, era="handshake"), "ping")
        assert ran.error is not None and ran.error.kind is ErrorKind.PROTOCOL_VERSION
        assert ran.error.message == (
            f"The server {server.url} speaks MCP protocol version 2024-10-07, which this client does not "
            "support (supported: 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05).")
