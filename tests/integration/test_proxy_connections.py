"""The recording proxy's connections are bounded as the receiver's are: a request's head must come whole
within a deadline, and idle connections beyond the bound make way (busy ones: 503), so that agents sending
nothing, or their heads a byte at a time, cannot hold every connection or every open file. Real sockets
on 127.0.0.1, a real proxy (in process, and ``run-inspector proxy`` under a lowered limit of open files)
in front of the demo server."""

from __future__ import annotations

import json
import os
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from inspector.capture.proxy import ProxyServer
from inspector.demo import DemoServer
from tests.integration.test_cli_proxy import _ours_through
from tests.integration.test_proxy_hostile import AGENT, PING, HostileServer

GET_STREAM = b"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[HostileServer, ProxyServer]]:
    """A proxy in front of a server that answers as told (see test_proxy_hostile.py)."""
    behind = HostileServer()
    try:
        with ProxyServer(behind.url, tmp_path / "runs.db") as proxy:
            yield behind, proxy
    finally:
        behind.close()


def _port(proxy: ProxyServer) -> int:
    return int(str(proxy.url).rsplit(":", 1)[1].split("/")[0])


def _closed_by_peer(sock: socket.socket, within_s: float) -> bytes | None:
    """What the proxy sent before it closed the connection, or ``None`` if it is still open after ``within_s``."""
    sock.settimeout(within_s)
    got = b""
    try:
        while chunk := sock.recv(4096):
            got += chunk
    except TimeoutError:
        return None
    except ConnectionResetError:
        pass
    return got


def test_a_head_sent_a_byte_now_and_then_is_answered_408(proxied: tuple[HostileServer, ProxyServer]) -> None:
    server, proxy = proxied
    proxy.connections.head_s = 0.6  # 10 s in use, as the receiver's
    with socket.create_connection(("127.0.0.1", _port(proxy)), timeout=3) as agent:
        agent.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        started, answer = time.monotonic(), b""
        agent.settimeout(0.05)
        while b"\r\n\r\n" not in answer:
            try:
                agent.sendall(b"a")  # a byte now and then, well within any read timeout
                answer += agent.recv(4096)
            except TimeoutError:
                time.sleep(0.05)
            except OSError:
                break
            assert time.monotonic() - started < 3, "the proxy still waits for the head"  # before: for ever
    assert answer.startswith(b"HTTP/1.1 408 ")
    assert b"waited 0.6 s for the request's head" in answer
    assert server.bodies == []


def test_a_connection_that_sends_nothing_is_closed(proxied: tuple[HostileServer, ProxyServer]) -> None:
    proxy = proxied[1]
    proxy.connections.idle_s = 0.5  # 30 s in use
    with socket.create_connection(("127.0.0.1", _port(proxy))) as idle:
        assert _closed_by_peer(idle, 3) == b""  # before: held for ever


def test_idle_connections_beyond_the_bound_make_way_for_an_agent(proxied: tuple[HostileServer, ProxyServer]) -> None:
    proxy = proxied[1]
    proxy.connections.most = 20
    idle = [socket.create_connection(("127.0.0.1", _port(proxy))) for _ in range(200)]
    try:
        started = time.monotonic()
        answer = httpx.post(proxy.url, json=PING, headers=AGENT, timeout=3)
        assert answer.status_code == 200 and time.monotonic() - started < 2
        closed = sum(_closed_by_peer(sock, 0.01) is not None for sock in idle)
        assert closed >= 180  # the oldest made way: before, all 200 were held
        assert proxy.connections.held <= 20
    finally:
        for sock in idle:
            sock.close()


def test_when_every_connection_is_busy_a_newcomer_is_answered_503(
        proxied: tuple[HostileServer, ProxyServer]) -> None:
    server, proxy = proxied
    proxy.connections.most = 5
    server.answer = "hold streams"
    streams = [socket.create_connection(("127.0.0.1", _port(proxy))) for _ in range(5)]
    try:
        for stream in streams:
            stream.sendall(GET_STREAM)
        deadline = time.monotonic() + 3
        while len(server.streams) < 5 and time.monotonic() < deadline:
            time.sleep(0.02)
        answer = httpx.post(proxy.url, json=PING, headers=AGENT, timeout=3)
        assert answer.status_code == 503 and answer.headers["retry-after"] == "1"
        assert "holds 5 connections, all busy; retry later" in answer.json()["error"]["message"]
        assert all(_closed_by_peer(stream, 0.05) is None for stream in streams)  # the streams go on
    finally:
        for stream in streams:
            stream.close()


def _low_file_limit() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))


def test_under_a_low_limit_of_open_files_idle_connections_do_not_starve_an_agent(tmp_path: Path) -> None:
    """`run-inspector proxy` allowed 256 open files: 1,000 connections that send nothing, then an agent's call."""
    with DemoServer() as demo:
        process = subprocess.Popen([sys.executable, "-m", "inspector", "proxy", "--to", demo.url, "--db",
                                    str(tmp_path / "runs.db"), "--json", "--stop-with-stdin"],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   env={**os.environ, "PYTHONUNBUFFERED": "1"}, preexec_fn=_low_file_limit)
        idle: list[socket.socket] = []
        try:
            url = json.loads(process.stdout.readline())["url"]
            port = int(url.rsplit(":", 1)[1].split("/")[0])
            for _ in range(1_000):
                idle.append(socket.create_connection(("127.0.0.1", port)))
            time.sleep(0.3)  # taken by the proxy
            # Before: the proxy ran out of open files taking them; this call was never answered.
            assert _ours_through(url) == "via the proxy"
        finally:
            for sock in idle:
                sock.close()
            process.stdin.close()
            try:
                process.wait(10)
            finally:
                if process.poll() is None:
                    process.kill()
                    process.wait()
    assert "Traceback" not in process.stderr.read()
