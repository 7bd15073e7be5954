"""Our servers answer a kept connection at once: Nagle's algorithm is off on what they accept.

With it on, every answer after a connection's first waited ~40 ms for the client's delayed ACK
(the answer's head and body leave in two writes): a `call` of three legs took 0.05 s a leg against
the demo server, and the official Inspector CLI's calls were slowed the same way."""

from __future__ import annotations

import socket
import statistics
import time

import httpx

from inspector.capture.proxy.server import _bind as bind_proxy
from inspector.capture.receiver import _Handler
from inspector.demo import DemoServer
from inspector.demo.runner import _bind as bind_demo

META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {}}


def test_the_listening_sockets_say_tcp_so_that_asyncio_turns_nagle_off() -> None:
    for sock in (bind_demo(0), bind_proxy("127.0.0.1", 0)):
        try:
            assert sock.proto == socket.IPPROTO_TCP
        finally:
            sock.close()
    assert _Handler.disable_nagle_algorithm is True


def test_the_demo_server_answers_each_request_of_a_kept_connection_without_waiting() -> None:
    with DemoServer() as server, httpx.Client() as client:
        took = []
        for _ in range(9):
            started = time.perf_counter()
            answer = client.post(server.url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
                "name": "echo", "arguments": {"text": "x"}, "_meta": META}}, headers={
                "accept": "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28",
                "mcp-method": "tools/call", "mcp-name": "echo"})
            took.append(time.perf_counter() - started)
            assert answer.status_code == 200
    # With Nagle on, every request after the first takes 40 ms or more; without, a few ms.
    assert statistics.median(took[1:]) < 0.035, took
