"""The recording proxy against a web page in the user's browser, and against bodies too large to hold.

The server behind the proxy here checks nothing (as many MCP servers do not): whatever reaches
it, it answers. A page's request (cross-site with its ``Origin``, or DNS-rebound with its own
``Host``) must stop at the proxy: not forwarded, not recorded. Agents (no ``Origin``, the address
they were given as ``Host``) pass as before. Real sockets on 127.0.0.1, a real database.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

from inspector.capture.proxy import ProxyServer
from inspector.capture.proxy.gate import MAX_AGENT_BODY_BYTES
from inspector.store import RunStore

CALL = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "delete_files", "arguments": {}}}
AGENT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


class TrustingServer:
    """An MCP-ish server that checks no header: it answers every POST with a tool result and counts them."""

    def __init__(self) -> None:
        self.heard: list[dict[str, str]] = []
        heard = self.heard

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                message = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                heard.append(dict(self.headers))
                body = json.dumps({"jsonrpc": "2.0", "id": message.get("id"),
                                   "result": {"content": [{"type": "text", "text": "done"}]}}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/mcp"
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture
def server() -> Iterator[TrustingServer]:
    found = TrustingServer()
    yield found
    found.close()


@pytest.fixture
def proxy(server: TrustingServer, tmp_path: Path) -> Iterator[ProxyServer]:
    with ProxyServer(server.url, tmp_path / "runs.db") as started:
        yield started


def run_titles(db: Path) -> list[str]:
    with RunStore.open(db) as store:
        return [run.title for run in store.list_runs(limit=None)]


def raw_exchange(url: str, head: str, body: bytes = b"") -> tuple[int, bytes]:
    """Send ``head`` (and ``body``) on a socket of its own; the answer's status and body."""
    parts = httpx.URL(url)
    with socket.create_connection((parts.host, parts.port), timeout=10) as sock:
        sock.sendall(head.encode("latin-1") + b"\r\n" + body)
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += sock.recv(65536)
        top, _, rest = answer.partition(b"\r\n\r\n")
        length = next(int(line.split(b":")[1]) for line in top.split(b"\r\n")
                      if line.lower().startswith(b"content-length"))
        while len(rest) < length:
            rest += sock.recv(65536)
        return int(top.split(b" ")[1]), rest


@pytest.mark.parametrize("origin", ["https://evil.example", "null", "http://127.0.0.1.evil.example:8808"])
def test_a_cross_site_request_of_a_web_page_stops_at_the_proxy(server, proxy, tmp_path, origin) -> None:
    # What a page's fetch(..., {mode: "no-cors"}) or a form can send: a "simple" request, no preflight.
    answer = httpx.post(proxy.url, content=json.dumps(CALL), timeout=10,
                        headers={"Origin": origin, "Content-Type": "text/plain"})
    assert answer.status_code == 403
    assert answer.json()["id"] is None and "refuses requests from web pages" in answer.json()["error"]["message"]
    assert server.heard == []
    assert run_titles(tmp_path / "runs.db") == []


def test_a_dns_rebound_page_stops_at_the_proxy(server, proxy, tmp_path) -> None:
    # After DNS rebinding, evil.example resolves to 127.0.0.1: the page's requests are same-origin
    # to it and carry its host name (a GET carries no Origin at all).
    port = httpx.URL(proxy.url).port
    for head in (f"GET /mcp HTTP/1.1\r\nHost: evil.example:{port}\r\nAccept: text/event-stream\r\n",
                 f"POST /mcp HTTP/1.1\r\nHost: evil.example:{port}\r\nContent-Type: application/json\r\n"
                 f"Content-Length: {len(json.dumps(CALL))}\r\n"):
        status, body = raw_exchange(proxy.url, head, json.dumps(CALL).encode() if head.startswith("POST") else b"")
        assert status == 421
        assert "evil.example" in json.loads(body)["error"]["message"]
    assert server.heard == []
    assert run_titles(tmp_path / "runs.db") == []


@pytest.mark.parametrize("extra", [{}, {"Host": "localhost:{port}"}, {"Host": "[::1]:{port}"},
                                   {"Origin": "http://localhost:6274"}, {"Origin": "http://127.0.0.1:{port}"}])
def test_agents_and_pages_of_this_computer_still_pass(server, proxy, tmp_path, extra) -> None:
    port = httpx.URL(proxy.url).port
    headers = {**AGENT, **{name: value.format(port=port) for name, value in extra.items()}}
    answer = httpx.post(proxy.url, content=json.dumps(CALL), headers=headers, timeout=10)
    assert answer.status_code == 200 and answer.json()["result"]["content"][0]["text"] == "done"
    assert len(server.heard) == 1
    deadline = time.monotonic() + 10
    while not run_titles(tmp_path / "runs.db") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert run_titles(tmp_path / "runs.db") == ["tools/call delete_files · proxy"]


def test_a_body_of_gigabytes_is_refused_before_it_is_read(server, proxy, tmp_path) -> None:
    parts = httpx.URL(proxy.url)
    started = time.monotonic()
    status, body = raw_exchange(proxy.url, f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{parts.port}\r\n"
                                           "Content-Type: application/json\r\nContent-Length: 5368709120\r\n")
    assert status == 413 and "at most 16 MiB" in json.loads(body)["error"]["message"]
    assert time.monotonic() - started < 5
    assert server.heard == [] and run_titles(tmp_path / "runs.db") == []


def test_a_chunked_body_growing_without_end_is_cut_off(server, proxy, tmp_path) -> None:
    parts = httpx.URL(proxy.url)
    chunk = b"%x\r\n%s\r\n" % (65536, b"[" * 65536)
    with socket.create_connection((parts.host, parts.port), timeout=10) as sock:
        sock.sendall(f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{parts.port}\r\nContent-Type: application/json\r\n"
                     "Transfer-Encoding: chunked\r\n\r\n".encode())
        sent = 0
        try:
            while sent < 4 * MAX_AGENT_BODY_BYTES:  # without the bound, the proxy would hold all of it
                sock.sendall(chunk)
                sent += 65536
        except OSError:
            pass  # the proxy answered and closed
        answer = b""
        try:
            while b"\r\n\r\n" not in answer:
                answer += sock.recv(65536)
        except OSError:
            pass
    assert sent <= MAX_AGENT_BODY_BYTES + 8 * 1024 * 1024
    assert answer.startswith(b"HTTP/1.1 413")
    assert server.heard == [] and run_titles(tmp_path / "runs.db") == []
    # and the proxy serves the next agent
    assert httpx.post(proxy.url, json=CALL, headers=AGENT, timeout=10).status_code == 200


def test_bodies_held_together_are_bounded_and_small_requests_still_pass(server, proxy, tmp_path) -> None:
    # Connections each sending most of a large body, and holding on: without a bound across them,
    # the proxy would hold every one (a few hundred such connections: gigabytes).
    from inspector.capture.proxy.gate import MAX_HELD_BODY_BYTES

    parts = httpx.URL(proxy.url)
    size = MAX_AGENT_BODY_BYTES - 1024
    holding = []
    refused = b""
    try:
        head = (f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{parts.port}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {size}\r\n\r\n").encode()
        holders = MAX_HELD_BODY_BYTES // size
        for _ in range(holders):
            sock = socket.create_connection((parts.host, parts.port), timeout=10)
            holding.append(sock)
            sock.sendall(head + b" " * (size - 1))
        # Every byte sent is held by the proxy (sendall returns with the last megabytes still on their way:
        # a fixed 0.5 s was a guess that they had arrived; had they not, one_more's took their room).
        deadline = time.monotonic() + 15
        while proxy._app.bodies.held < holders * (size - 1):
            assert time.monotonic() < deadline, f"the proxy holds {proxy._app.bodies.held} bytes"
            time.sleep(0.01)
        one_more = socket.create_connection((parts.host, parts.port), timeout=10)
        holding.append(one_more)
        one_more.sendall(head + b" " * 65536)
        # The answer whole: its head and body may come in two reads (the full run once got the head alone);
        # the proxy closes the connection after it.
        while chunk := one_more.recv(65536):
            refused += chunk
        small = httpx.post(proxy.url, json=CALL, headers=AGENT, timeout=10)
        assert small.status_code == 200
    finally:
        for sock in holding:
            sock.close()
    assert refused.startswith(b"HTTP/1.1 503") and b"retry later" in refused
    # Once the proxy has seen the held connections close (on a loaded machine that took more than the
    # 0.3 s once waited here), their bytes are free again: a whole large body passes.
    whole = json.dumps({**CALL, "params": {**CALL["params"], "arguments": {"pad": "x" * (size - 200)}}})
    deadline = time.monotonic() + 15
    while (status := httpx.post(proxy.url, content=whole, headers=AGENT, timeout=30).status_code) == 503:
        assert time.monotonic() < deadline, "the held bodies' bytes were never given back"
        time.sleep(0.1)
    assert status == 200
