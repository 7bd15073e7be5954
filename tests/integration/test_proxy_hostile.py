"""The recording proxy between an agent and a server that misbehave on purpose.

A raw server on 127.0.0.1 answers as told (a body that is not what its ``Content-Encoding`` says, a
gzip bomb, event streams held open); raw agents leave mid-request. The proxy must pass on what it
can, record what happened, and keep serving everyone else. Real sockets, a real database.
"""

from __future__ import annotations

import gzip
import json
import socket
import threading
import time
import tracemalloc
import zlib
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from inspector.capture.proxy import ProxyServer
from inspector.mcp.server_requests import clipped
from inspector.store import RunStore
from tests.integration.test_proxy_secrets import everything_stored

PING = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
CALL = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "echo", "arguments": {}}}
AGENT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
SET_COOKIE = "setcookie-4b1d9e"
LONG_STREAM_NOTES = 60_000
#: Log messages a chatty tool sends before it asks the agent something: more than a leg keeps of them.
CHATTY_LOGS = 1_200
#: Log messages, and progress notes, of 1 MB each that a tool sends before its result (_large_messages).
LARGE_MESSAGES = 40
BIG_ROWS = ["r" * 1000] * 1000


class HostileServer:
    """Answers each request as :attr:`answer` says; counts the requests whose body it read whole."""

    def __init__(self) -> None:
        self.answer = "ok"
        #: An answer made beforehand, sent as it is (when :attr:`answer` is "raw").
        self.raw = b""
        self.bodies: list[bytes] = []
        self.streams: list[socket.socket] = []
        self._sock = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._sock.getsockname()[1]}/mcp"
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        reader = conn.makefile("rb")
        try:
            head = b""
            while not head.endswith(b"\r\n\r\n"):
                line = reader.readline()
                if not line:
                    return
                head += line
            length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                           if line.lower().startswith(b"content-length:")), 0)
            self.bodies.append(reader.read(length))
            if head.startswith(b"GET") and self.answer == "hold streams":
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                             b"Transfer-Encoding: chunked\r\n\r\n")
                self.streams.append(conn)  # held open, never ended
                return
            conn.sendall(self._echo(head) if self.answer == "echo" else self.raw if self.answer == "raw" else
                         self._answer())
            conn.close()
        except OSError:
            conn.close()

    @staticmethod
    def _echo(head: bytes) -> bytes:
        """A tool result repeating the request's head (its path and headers), and a cookie set."""
        text = head.decode("latin-1")
        result = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": text}],
                                                                   "isError": False}}).encode()
        return (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nSet-Cookie: sid=" + SET_COOKIE.encode() +
                b"; HttpOnly\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % len(result) + result)

    def _answer(self) -> bytes:
        result = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {}}).encode()
        encoding = b""
        if self.answer == "not gzip":
            result, encoding = b"plain text, not gzip as announced", b"Content-Encoding: gzip\r\n"
        elif self.answer == "deep event":  # one event of 100,000 nested brackets, then the result
            deep = b"[" * 100_000 + b"]" * 100_000
            result = b"event: message\ndata: " + deep + b"\n\nevent: message\ndata: " + result + b"\n\n"
            return (b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: %d\r\n"
                    b"Connection: close\r\n\r\n" % len(result) + result)
        elif self.answer == "long stream":  # 60,000 progress notes (9 MB, as a long tool's), then the result
            notes = ({"jsonrpc": "2.0", "method": "notifications/progress",
                      "params": {"progressToken": 1, "progress": n, "total": LONG_STREAM_NOTES, "message": "x" * 60}}
                     for n in range(1, LONG_STREAM_NOTES + 1))
            events = b"".join(b"event: message\ndata: " + json.dumps(note).encode() + b"\n\n" for note in notes)
            done = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "all done"}],
                                                                     "isError": False}}).encode()
            result = events + b"event: message\ndata: " + done + b"\n\n"
            return (b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: %d\r\n"
                    b"Connection: close\r\n\r\n" % len(result) + result)
        elif self.answer == "logs, then a question":  # 1,200 log messages, then the server asks for the roots
            logs = ({"jsonrpc": "2.0", "method": "notifications/message",
                     "params": {"level": "info", "data": f"line {n}"}} for n in range(CHATTY_LOGS))
            asks = {"jsonrpc": "2.0", "id": "ask-1", "method": "roots/list"}
            events = b"".join(b"event: message\ndata: " + json.dumps(message).encode() + b"\n\n"
                              for message in (*logs, asks, {"jsonrpc": "2.0", "id": 1, "result": {
                                  "content": [{"type": "text", "text": "done"}], "isError": False}}))
            return (b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: %d\r\n"
                    b"Connection: close\r\n\r\n" % len(events) + events)
        elif self.answer == "large":  # a tool's answer of 9 MB, more than the proxy reads
            block = {"type": "text", "text": "y" * 9_000_000}
            result = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"content": [block]}}).encode()
        elif self.answer == "gzip bomb":  # 200 MB of spaces after the result's first byte, 200 KB packed
            packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
            spaces = b" " * (1 << 20)
            result = packer.compress(result[:1]) + b"".join(packer.compress(spaces) for _ in range(200)) + \
                packer.compress(result[1:]) + packer.flush()
            encoding = b"Content-Encoding: gzip\r\n"
        return (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + encoding +
                b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(result) + result)

    def close(self) -> None:
        self._sock.close()
        for stream in self.streams:
            stream.close()


@pytest.fixture
def server() -> Iterator[HostileServer]:
    found = HostileServer()
    yield found
    found.close()


@pytest.fixture
def proxy(server: HostileServer, tmp_path: Path) -> Iterator[ProxyServer]:
    with ProxyServer(server.url, tmp_path / "runs.db") as started:
        yield started


def runs_of(db: Path) -> list[tuple[str, str]]:
    with RunStore.open(db) as store:
        return [(run.title, run.status) for run in store.list_runs(limit=None)]


def wait_for_runs(db: Path, count: int) -> list[tuple[str, str]]:
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        found = runs_of(db)
        if len(found) >= count and all(status != "running" for _title, status in found):
            return found
        time.sleep(0.05)
    return runs_of(db)


def test_an_answer_that_is_not_what_its_encoding_says_reaches_the_agent_as_it_came(
        server: HostileServer, proxy: ProxyServer, tmp_path: Path) -> None:
    server.answer = "not gzip"
    with httpx.Client() as agent, agent.stream("POST", proxy.url, json=CALL, headers=AGENT) as answer:
        got = b"".join(answer.iter_raw())  # before: the proxy dropped the connection, the agent got nothing
    assert answer.status_code == 200 and answer.headers["content-encoding"] == "gzip"
    assert got == b"plain text, not gzip as announced"
    # Recorded as a failure of the server's (not a cancel of the agent's, as it was).
    assert wait_for_runs(tmp_path / "runs.db", 1) == [("tools/call echo · proxy", "failed")]


def test_a_gzip_bomb_is_passed_on_but_not_unpacked_past_what_is_parsed(
        server: HostileServer, proxy: ProxyServer, tmp_path: Path) -> None:
    server.answer = "gzip bomb"
    tracemalloc.start()
    try:
        with httpx.Client() as agent, agent.stream("POST", proxy.url, json=CALL, headers=AGENT) as answer:
            packed = b"".join(answer.iter_raw())
        wait_for_runs(tmp_path / "runs.db", 1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # Before: each piece of the answer was unpacked whole to be parsed, up to 64 MB at once (a 150 MB peak).
    assert peak < 40 * 1024 * 1024
    assert len(gzip.decompress(packed)) > 200 * 1024 * 1024  # passed on whole, compressed
    assert wait_for_runs(tmp_path / "runs.db", 1) == [("tools/call echo · proxy", "failed")]


def test_a_long_stream_is_read_to_its_result_and_its_progress_notes_counted(
        server: HostileServer, proxy: ProxyServer, tmp_path: Path) -> None:
    """A stream was parsed for its first 8 MB only: a long tool's result after 60,000 progress notes was
    recorded failed ('could not read the server's answer'), its last note 47,997 of 60,000."""
    server.answer = "long stream"
    tracemalloc.start()
    try:
        with httpx.Client(timeout=60) as agent, agent.stream("POST", proxy.url, json=CALL, headers=AGENT) as answer:
            got = b"".join(answer.iter_raw())
        assert wait_for_runs(tmp_path / "runs.db", 1) == [("tools/call echo · proxy", "ok")]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert got.endswith(b'"all done"}], "isError": false}}\n\n') and len(got) > 8 * 1024 * 1024
    with RunStore.open(tmp_path / "runs.db") as store:
        step = next(store.iter_steps(store.list_runs()[0].id)).payload
    assert step["toolResult"] == "all done"
    assert len(step["progress"]) + step["progressDropped"] == LONG_STREAM_NOTES
    assert step["progress"][-1]["progress"] == LONG_STREAM_NOTES
    assert peak < 40 * 1024 * 1024  # the notes between the first and the last ones are not held


def test_a_request_of_the_servers_after_many_log_messages_is_still_recorded(
        server: HostileServer, proxy: ProxyServer, tmp_path: Path) -> None:
    """A leg keeps the first 1,000 of the server's notifications; its requests (which the agent answers,
    and by which the proxy knows whose answer a later POST is) were dropped with them: the step said the
    server had asked nothing."""
    server.answer = "logs, then a question"
    with httpx.Client(timeout=30) as agent, agent.stream("POST", proxy.url, json=CALL, headers=AGENT) as answer:
        got = b"".join(answer.iter_raw())
    assert b'"roots/list"' in got
    assert wait_for_runs(tmp_path / "runs.db", 1) == [("tools/call echo · proxy", "ok")]
    with RunStore.open(tmp_path / "runs.db") as store:
        step = next(store.iter_steps(store.list_runs()[0].id)).payload
    assert [asked["method"] for asked in step.get("serverRequests", [])] == ["roots/list"]


def test_the_servers_large_messages_are_not_held_whole_until_the_call_ends(
        server: HostileServer, proxy: ProxyServer, tmp_path: Path) -> None:
    """A leg held every message of the server's it kept whole until its call ended, though a step keeps only
    a few thousand characters of each: 200 log messages of 5 MB made the proxy's peak 1.1 GB (89 MB now),
    and a leg keeps up to 1,000 of them. The step keeps what it kept before."""
    server.answer, server.raw = "raw", _large_messages()
    tracemalloc.start()
    try:
        with httpx.Client(timeout=60) as agent, agent.stream("POST", proxy.url, json=CALL, headers=AGENT) as answer:
            got = sum(len(piece) for piece in answer.iter_raw())
        assert wait_for_runs(tmp_path / "runs.db", 1) == [("tools/call echo · proxy", "ok")]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert got > 2 * LARGE_MESSAGES * 1_000_000
    with RunStore.open(tmp_path / "runs.db") as store:
        step = next(store.iter_steps(store.list_runs()[0].id)).payload
    data = {"message": "line 0", "rows": BIG_ROWS}
    assert step["serverNotifications"][0] == {"method": "notifications/message", "via": "tools/call", "level": "info",
                                              "logger": "big", "data": clipped(data)}
    assert step["serverNotifications"][0]["data"]["clippedJson"].startswith('{"message":"line 0","rows":["rrr')
    assert [note["message"] for note in step["progress"]] == ["p" * 499 + "…"] * LARGE_MESSAGES
    assert peak < 40 * 1024 * 1024, f"{peak / 1e6:.0f} MB"  # 88 MB before: each message held whole


def _large_messages() -> bytes:
    """An event stream of log messages and progress notes of 1 MB each, then the result."""
    logs = ({"jsonrpc": "2.0", "method": "notifications/message",
             "params": {"level": "info", "logger": "big", "data": {"message": f"line {n}", "rows": BIG_ROWS}}}
            for n in range(LARGE_MESSAGES))
    notes = ({"jsonrpc": "2.0", "method": "notifications/progress",
              "params": {"progressToken": 1, "progress": n, "total": LARGE_MESSAGES, "message": "p" * 1_000_000}}
             for n in range(1, LARGE_MESSAGES + 1))
    done = {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "done"}], "isError": False}}
    events = b"".join(b"event: message\ndata: " + json.dumps(message).encode() + b"\n\n"
                      for message in (*logs, *notes, done))
    return (b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: %d\r\n"
            b"Connection: close\r\n\r\n" % len(events) + events)


def test_an_agents_header_of_a_megabyte_is_passed_on_and_its_run_recorded(
        server: HostileServer, proxy: ProxyServer, tmp_path: Path) -> None:
    """Header text was kept whole in a leg's exchange: a 1 MB header made it larger than a leg takes, and the
    run was not recorded ('The proxy could not record ping · proxy (exchange must take at most 262144
    characters).'), its row left running, then 'interrupted'."""
    with httpx.Client(timeout=30) as agent:
        answer = agent.post(proxy.url, json=PING, headers={**AGENT, "X-Big": "a" * 1_000_000})
    assert answer.json() == {"jsonrpc": "2.0", "id": 1, "result": {}}
    assert len(server.bodies) == 1  # passed on
    assert wait_for_runs(tmp_path / "runs.db", 1) == [("ping · proxy", "ok")]
    with RunStore.open(tmp_path / "runs.db") as store:
        step = next(store.iter_steps(store.list_runs()[0].id)).payload
    exchange = step["legs"][0]["exchange"]
    sent = {name.lower(): value for name, value in exchange["request"]["headers"]}
    assert sent["x-big"].startswith("aaaa") and len(sent["x-big"]) < 70_000
    assert exchange["cut"]["bytes"] > 900_000


def test_an_answer_larger_than_the_proxy_reads_is_passed_on_and_said_so(
        server: HostileServer, proxy: ProxyServer, tmp_path: Path) -> None:
    """It was recorded 'The proxy could not read the server's answer to tools/call (not JSON-RPC it knows).'"""
    server.answer = "large"
    with httpx.Client(timeout=60) as agent:
        answer = agent.post(proxy.url, json=CALL, headers=AGENT)
    assert answer.status_code == 200 and len(answer.json()["result"]["content"][0]["text"]) == 9_000_000
    assert wait_for_runs(tmp_path / "runs.db", 1) == [("tools/call echo · proxy", "failed")]
    with RunStore.open(tmp_path / "runs.db") as store:
        step = next(store.iter_steps(store.list_runs()[0].id)).payload
    assert step["toolResult"] == ("The server's answer to tools/call is larger than the 8 MiB the proxy reads of it: "
                                  "it was passed on to the agent whole, but what it said is not recorded.")


def test_a_request_cut_short_by_its_agent_is_neither_forwarded_nor_recorded(
        server: HostileServer, proxy: ProxyServer, tmp_path: Path) -> None:
    body = json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                       "params": {"name": "delete_files", "arguments": {"all": True}}}).encode()
    port = int(proxy.url.rsplit(":", 1)[1].split("/")[0])
    for _ in range(5):
        with socket.create_connection(("127.0.0.1", port)) as agent:
            agent.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                          b"Content-Length: %d\r\n\r\n" % len(body) + body[:20])
            time.sleep(0.05)
    answer = httpx.post(proxy.url, json=PING, headers=AGENT, timeout=5)  # the proxy serves the next agent
    assert answer.status_code == 200
    # Before: each cut request went to the server (an empty or cut body) and was recorded, as ok.
    assert [json.loads(body) for body in server.bodies] == [PING]
    assert wait_for_runs(tmp_path / "runs.db", 1) == [("ping · proxy", "ok")]


def test_a_hundred_open_event_streams_do_not_make_the_next_request_wait(
        server: HostileServer, proxy: ProxyServer) -> None:
    server.answer = "hold streams"
    streams = []
    try:
        for _ in range(105):
            agent = socket.create_connection(("127.0.0.1", int(proxy.url.rsplit(":", 1)[1].split("/")[0])))
            agent.sendall(b"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
            streams.append(agent)
        deadline = time.monotonic() + 5
        while len(server.streams) < 105 and time.monotonic() < deadline:
            time.sleep(0.02)
        server.answer = "ok"
        started = time.monotonic()
        # Before: the proxy's connections to the server were bounded at 100, all taken by the streams, and this
        # request waited for ever (so did every request after it).
        answer = httpx.post(proxy.url, json=PING, headers=AGENT, timeout=3)
        assert answer.status_code == 200
        assert time.monotonic() - started < 2
    finally:
        for agent in streams:
            agent.close()


def test_credentials_in_odd_shapes_are_stored_nowhere(server: HostileServer, proxy: ProxyServer,
                                                     tmp_path: Path) -> None:
    """The server repeats the agent's headers and path in its result; the run keeps none of the credentials."""
    server.answer = "echo"
    secrets = {"lower-bearer-55aa01", "UPPER-BEARER-66bb02", "proxy-pass-77cc03", "cookie-88dd04",
               "x-api-key-99ee05", "x-auth-10ff06", "query-key-11aa07", "query-sig-12bb08", "query-code-13cc09",
               "query-token-14dd10"}
    headers = [("authorization", "bearer lower-bearer-55aa01"), ("X-Upstream-AUTHORIZATION", "UPPER-BEARER-66bb02"),
               ("Proxy-Authorization", "Basic proxy-pass-77cc03"), ("cookie", "sid=cookie-88dd04"),
               ("x-api-key", "x-api-key-99ee05"), ("X-Auth", "x-auth-10ff06"), *AGENT.items()]
    query = "?key=query-key-11aa07&sig=query-sig-12bb08&code=query-code-13cc09&access_token=query-token-14dd10"
    answer = httpx.post(proxy.url + query, json=CALL, headers=headers, timeout=5)
    assert answer.status_code == 200
    assert "query-key-11aa07" in answer.text  # the server did hear them: the agent's traffic is passed on
    assert wait_for_runs(tmp_path / "runs.db", 1) == [("tools/call echo · proxy", "ok")]
    stored = everything_stored(tmp_path / "runs.db")  # runs, steps, legs (the wire view), the server's health
    # Before: X-Auth's value and the key, sig and code of the query were kept (in the wire view and the result).
    assert [secret for secret in sorted(secrets | {SET_COOKIE}) if secret in stored] == []


def test_a_body_sent_a_byte_now_and_then_is_not_waited_for_without_end(server: HostileServer, proxy: ProxyServer,
                                                                       tmp_path: Path) -> None:
    proxy._app.body_deadline_s = 0.6  # 30 s in use
    port = int(proxy.url.rsplit(":", 1)[1].split("/")[0])
    with socket.create_connection(("127.0.0.1", port), timeout=3) as agent:
        agent.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 100\r\n\r\n{")
        started = time.monotonic()
        answer = b""
        while b"\r\n\r\n" not in answer:
            for _ in range(2):  # a byte now and then, well within any read timeout
                agent.sendall(b" ")
                time.sleep(0.1)
            agent.settimeout(0.05)
            try:
                answer += agent.recv(4096)
            except TimeoutError:
                pass
            assert time.monotonic() - started < 3, "the proxy still waits for the body"  # before: for ever
    assert answer.startswith(b"HTTP/1.1 408 ")
    assert server.bodies == [] and runs_of(tmp_path / "runs.db") == []


def test_messages_nested_too_deeply_to_read_pass_both_ways(server: HostileServer, proxy: ProxyServer,
                                                           tmp_path: Path) -> None:
    deep = b"[" * 100_000 + b"]" * 100_000
    answer = httpx.post(proxy.url, content=deep, headers=AGENT, timeout=5)
    assert answer.status_code == 200  # before: 500 from the proxy, nothing forwarded
    assert server.bodies == [deep]
    server.answer = "deep event"
    with httpx.Client() as agent, agent.stream("POST", proxy.url, json=CALL, headers=AGENT) as streamed:
        got = b"".join(streamed.iter_raw())  # before: cut off mid-stream (RemoteProtocolError)
    assert got.endswith(b'"result": {}}\n\n') and len(got) > 200_000
    assert sorted(wait_for_runs(tmp_path / "runs.db", 2)) == [("POST · proxy", "ok"), ("tools/call echo · proxy", "ok")]
