"""A small, deliberately misbehaving MCP server (HTTP/1.1 on 127.0.0.1) for fault cases.

It answers the MCP handshake correctly (``initialize`` with protocol version 2025-11-25, an
``Mcp-Session-Id`` header in the "session" profile, ``202`` for notifications) and hands every
other request to a per-test *work handler*, which decides how to misbehave through the helpers
of :class:`Exchange` (wrong status, wrong body, stall, trickle, oversize, ...).

Everything it receives is recorded (HTTP method, headers, body). It runs in background threads
and shuts down cleanly: stalled and trickling handlers are released, open connections are shut
down, and every handler thread is joined (``close`` raises if one is left hanging).
"""

from __future__ import annotations

import gzip
import json
import select
import socket
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PROTOCOL_VERSION = "2025-11-25"
MIB = 1024 * 1024
#: Errors a handler meets when the client goes away; expected, not a bug of the test server.
_GONE = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, socket.timeout, OSError)


@dataclass(frozen=True)
class Received:
    """One HTTP request as the server saw it. Header names are lower-cased."""

    http_method: str
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def message(self) -> Any:
        try:
            return json.loads(self.body) if self.body else None
        except ValueError:
            return None

    @property
    def rpc_method(self) -> str | None:
        message = self.message
        return message.get("method") if isinstance(message, dict) else None

    @property
    def rpc_id(self) -> Any:
        message = self.message
        return message.get("id") if isinstance(message, dict) else None

    @property
    def params(self) -> Any:
        message = self.message
        return message.get("params") if isinstance(message, dict) else None

    @property
    def is_notification(self) -> bool:
        message = self.message
        return isinstance(message, dict) and "method" in message and "id" not in message


class Exchange:
    """One request being answered. A work handler calls exactly one of the ``send_*``/``stall``/
    ``trickle`` helpers (or none: the server then answers 500)."""

    def __init__(self, handler: _Handler, server: FaultServer, request: Received) -> None:
        self._handler = handler
        self.server = server
        self.request = request
        self.answered = False

    # -- plain answers ----------------------------------------------------------------------

    def send(self, status: int, body: bytes = b"", *, content_type: str | None = "application/json",
             headers: dict[str, str] | None = None, framing: str = "length", reason: str | None = None) -> None:
        """Answer with ``body``. ``framing``: "length" (Content-Length), "chunked", or "close"
        (no length: the body ends when the server closes the connection). ``reason``: the status
        line's reason phrase instead of the standard one."""
        self._start(status, content_type, headers, framing, len(body), reason)
        self._write_body([body], framing)

    def send_json(self, obj: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> None:
        self.send(status, json.dumps(obj).encode(), headers=headers)

    def send_result(self, result: Any, *, headers: dict[str, str] | None = None) -> None:
        self.send_json({"jsonrpc": "2.0", "id": self.request.rpc_id, "result": result}, headers=headers)

    def send_rpc_error(self, code: Any, message: Any) -> None:
        self.send_json({"jsonrpc": "2.0", "id": self.request.rpc_id,
                        "error": {"code": code, "message": message}})

    def send_events(self, datas: list[str], *, framing: str = "length", newline: str = "\n") -> None:
        """An event stream with one event per data string (multi-line data split on ``\\n``)."""
        text = "".join(
            "event: message" + newline
            + "".join(f"data: {line}{newline}" for line in data.split("\n"))
            + newline
            for data in datas)
        self.send(200, text.encode(), content_type="text/event-stream", framing=framing)

    def send_big(self, size: int, *, framing: str = "length",
                 content_type: str = "application/json") -> None:
        """``size`` bytes of a JSON string, written in 64 KiB pieces (stops if the client leaves)."""
        head, tail = b'{"jsonrpc":"2.0","id":1,"result":{"pad":"', b'"}}'
        pad = size - len(head) - len(tail)
        self._start(200, content_type, None, framing, size)
        pieces = [head] + [b"x" * min(65536, pad - i) for i in range(0, pad, 65536)] + [tail]
        self._write_body(pieces, framing)

    def send_gzip_garbage(self) -> None:
        """Claims gzip encoding but sends bytes that are not gzip."""
        self.send(200, b"this is not gzip at all" * 10, headers={"Content-Encoding": "gzip"})

    def send_gzip_json(self, obj: Any) -> None:
        self.send(200, gzip.compress(json.dumps(obj).encode()), headers={"Content-Encoding": "gzip"})

    # -- answers that never end -------------------------------------------------------------

    def stall(self) -> None:
        """Never answer. Returns when the client closes the connection or the server stops."""
        self.answered = True
        self._handler.close_connection = True
        sock = self._handler.connection
        while not self.server.stopping.is_set():
            readable, _, _ = select.select([sock], [], [], 0.05)
            if readable:
                try:
                    data = sock.recv(1, socket.MSG_PEEK)
                except OSError:
                    data = b""
                if not data:
                    self.server._note_gone(self.request, "stall")
                    return
                time.sleep(0.05)
        self.server._note_released(self.request, "stall")

    def trickle(self, interval: float = 0.1, *, answer_after: int | None = None,
                newline: str = "\n") -> None:
        """An event stream with a progress notification every ``interval`` seconds, forever
        (or, with ``answer_after``, an answer after that many notifications, then keep the
        stream open without ever closing it)."""
        self._start(200, "text/event-stream", None, "close", 0)
        token = (self.request.params or {}).get("_meta", {}).get("progressToken", "t")
        count = 0
        while True:
            if answer_after is not None and count == answer_after:
                payload = {"jsonrpc": "2.0", "id": self.request.rpc_id,
                           "result": {"content": [{"type": "text", "text": "finally"}]}}
            else:
                payload = {"jsonrpc": "2.0", "method": "notifications/progress",
                           "params": {"progressToken": token, "progress": count, "message": "still here"}}
            frame = f"data: {json.dumps(payload)}{newline}{newline}".encode()
            if answer_after is None or count <= answer_after:
                try:
                    self._handler.wfile.write(frame)
                    self._handler.wfile.flush()
                except _GONE:
                    self.server._note_gone(self.request, "trickle")
                    return
            elif self._client_left():
                self.server._note_gone(self.request, "trickle")
                return
            count += 1
            if self.server.stopping.wait(interval):
                self.server._note_released(self.request, "trickle")
                return

    def break_off(self, *, reset: bool = True) -> None:
        """Start a JSON answer, send a piece of its body, then drop the connection: with a TCP reset
        (``reset``), else an orderly close, either way before the announced length."""
        body = json.dumps({"jsonrpc": "2.0", "id": self.request.rpc_id, "result": {"content": []}}).encode()
        self._start(200, "application/json", None, "length", len(body))
        handler = self._handler
        try:
            handler.wfile.write(body[:10])
            handler.wfile.flush()
            if reset:  # SO_LINGER on, zero seconds: close() sends RST instead of FIN
                handler.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                handler.connection.close()
            else:
                handler.connection.shutdown(socket.SHUT_RDWR)
        except _GONE:
            pass
        handler.close_connection = True

    # -- an event stream written piece by piece -------------------------------------------------

    def open_stream(self) -> None:
        """Start an event stream that ends when the connection closes; then :meth:`write_event`."""
        self._start(200, "text/event-stream", None, "close", 0)

    def write_event(self, message: Any) -> bool:
        """Write one JSON message as an event; False if the client has gone."""
        try:
            self._handler.wfile.write(f"data: {json.dumps(message)}\n\n".encode())
            self._handler.wfile.flush()
            return True
        except _GONE:
            self.server._note_gone(self.request, "stream")
            return False

    def write_raw(self, text: str) -> bool:
        """Write event-stream text as it is (ids, ``retry:``, priming events); False if the client has gone."""
        try:
            self._handler.wfile.write(text.encode())
            self._handler.wfile.flush()
            return True
        except _GONE:
            self.server._note_gone(self.request, "stream")
            return False

    def hold_open(self) -> None:
        """Keep an open stream open until the client leaves or the server stops."""
        while not self.server.stopping.wait(0.05):
            if self._client_left():
                self.server._note_gone(self.request, "hold")
                return
        self.server._note_released(self.request, "hold")

    def ask_client(self, requests: list[dict[str, Any]], *, answer: bool = True,
                   stray_answer: bool = False, timeout: float = 5.0) -> list[Received]:
        """Send the client each request on this request's event stream, wait for its replies
        (POSTed responses with the same ids), then answer the request with a text naming what
        came back, or (``answer=False``) keep the stream open without answering.
        ``stray_answer``: first send an answer with an id that is not the request's."""
        self.open_stream()
        for request in requests:
            if not self.write_event(request):
                return []
        ids = [request["id"] for request in requests]
        self.server.wait_until(lambda: all(self.server.reply_to(i) is not None for i in ids), timeout)
        replies = [self.server.reply_to(i) for i in ids]
        if not answer:
            self.hold_open()
            return [reply for reply in replies if reply is not None]
        if stray_answer:
            self.write_event({"jsonrpc": "2.0", "id": 9999,
                              "result": {"content": [{"type": "text", "text": "not yours"}]}})
        said = [("error %s" % reply.message["error"]["code"]) if reply and "error" in reply.message
                else ("result %s" % json.dumps(reply.message["result"])) if reply else "no reply"
                for reply in replies]
        self.write_event({"jsonrpc": "2.0", "id": self.request.rpc_id,
                          "result": {"content": [{"type": "text", "text": "; ".join(said)}]}})
        return [reply for reply in replies if reply is not None]

    # -- internals ---------------------------------------------------------------------------

    def _client_left(self) -> bool:
        sock = self._handler.connection
        readable, _, _ = select.select([sock], [], [], 0)
        if not readable:
            return False
        try:
            return sock.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            return True

    def _start(self, status: int, content_type: str | None, headers: dict[str, str] | None,
               framing: str, length: int, reason: str | None = None) -> None:
        if self.answered:
            raise RuntimeError("this request was already answered")
        self.answered = True
        self.server._note_status(self.request, status)
        handler = self._handler
        handler.send_response(status, reason)
        if content_type is not None:
            handler.send_header("Content-Type", content_type)
        for name, value in (headers or {}).items():
            handler.send_header(name, value)
        if framing == "length":
            handler.send_header("Content-Length", str(length))
        elif framing == "chunked":
            handler.send_header("Transfer-Encoding", "chunked")
        elif framing == "close":
            handler.send_header("Connection", "close")
            handler.close_connection = True
        else:
            raise ValueError(f"unknown framing {framing!r}")
        try:
            handler.end_headers()
        except _GONE:
            handler.close_connection = True

    def _write_body(self, pieces: list[bytes], framing: str) -> None:
        wfile = self._handler.wfile
        try:
            for piece in pieces:
                if not piece:
                    continue
                if framing == "chunked":
                    wfile.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
                else:
                    wfile.write(piece)
                if self.server.stopping.is_set():
                    raise BrokenPipeError("the server is stopping")
            if framing == "chunked":
                wfile.write(b"0\r\n\r\n")
            wfile.flush()
        except _GONE:
            self._handler.close_connection = True
            self.server._note_gone(self.request, "body")


WorkHandler = Callable[[Exchange], None]


def default_work(exchange: Exchange) -> None:
    """A well-behaved answer: one page of tools, an echoing ``tools/call``, ``{}`` otherwise."""
    method = exchange.request.rpc_method
    if method == "tools/list":
        exchange.send_result({"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]})
    elif method == "tools/call":
        params = exchange.request.params or {}
        text = json.dumps(params.get("arguments", {}), sort_keys=True)
        exchange.send_result({"content": [{"type": "text", "text": text}], "isError": False})
    else:
        exchange.send_result({})


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out in separate writes
    server: _HttpServer

    def setup(self) -> None:
        super().setup()
        self.server.owner._opened(self.connection)

    def finish(self) -> None:
        try:
            super().finish()
        except _GONE:
            pass
        finally:
            self.server.owner._closed(self.connection)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet test output
        pass

    def _receive(self) -> Received:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        headers = {name.lower(): value for name, value in self.headers.items()}
        return Received(self.command, self.path, headers, body)

    def do_POST(self) -> None:  # noqa: N802 - the http.server spelling
        owner = self.server.owner
        request = self._receive()
        owner._record(request)
        exchange = Exchange(self, owner, request)
        try:
            owner._dispatch(exchange)
        except _GONE:
            self.close_connection = True
            owner._note_gone(request, "dispatch")
            return
        if not exchange.answered:
            exchange.send(500, b"the work handler did not answer", content_type="text/plain")

    def do_DELETE(self) -> None:  # noqa: N802
        owner = self.server.owner
        request = self._receive()
        owner._record(request)
        Exchange(self, owner, request).send(owner.delete_status, b"", content_type=None)

    def do_GET(self) -> None:  # noqa: N802
        owner = self.server.owner
        request = self._receive()
        owner._record(request)
        exchange = Exchange(self, owner, request)
        if owner.get is None:
            exchange.send(405, b"", content_type=None)
            return
        try:
            owner.get(exchange)
        except _GONE:
            self.close_connection = True
            owner._note_gone(request, "get")
            return
        if not exchange.answered:
            exchange.send(405, b"", content_type=None)


class _HttpServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # FaultServer joins the handler threads itself, with a bound
    # socketserver's default backlog is 5: a burst of connections beyond it waits for the kernel's
    # SYN retry (1 s, then 3 s), which a test would take for the client's slowness.
    request_queue_size = 128
    owner: FaultServer

    def process_request(self, request: Any, client_address: Any) -> None:
        thread = threading.Thread(target=self.process_request_thread, args=(request, client_address),
                                  name=f"fault-server-handler-{self.server_address[1]}", daemon=True)
        self.owner._threads.append(thread)
        thread.start()

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys
        error = sys.exc_info()[1]
        if not isinstance(error, _GONE):
            self.owner.errors.append(error)


class FaultServer:
    """The server. Use as a context manager; ``url`` is its MCP endpoint.

    ``profile``: "stateless" (no session id) or "session" (``initialize`` issues a fresh
    ``Mcp-Session-Id`` each time). ``delays``: seconds to wait before answering, by JSON-RPC
    method (e.g. ``{"initialize": 2}``). ``work``: the handler for everything that is not the
    handshake; ``initialize`` / ``notification``: optional handlers replacing the correct
    ``initialize`` answer / the ``202`` for notifications.
    """

    def __init__(self, profile: str = "stateless", *, work: WorkHandler | None = None,
                 initialize: WorkHandler | None = None, notification: WorkHandler | None = None,
                 delays: dict[str, float] | None = None,
                 protocol_version: str = PROTOCOL_VERSION, delete_status: int = 200,
                 path: str = "/mcp", get: WorkHandler | None = None,
                 discover: WorkHandler | None = None) -> None:
        if profile not in ("stateless", "session"):
            raise ValueError(f"unknown profile {profile!r}")
        self.profile = profile
        self.work = work or default_work
        self.initialize = initialize
        self.notification = notification
        #: Answers the stateless era's ``server/discover`` probe (default: as the handshake era does).
        self.discover = discover
        #: Handles GET (the standalone stream, resumption); without it GET gets 405.
        self.get = get
        self.delays = dict(delays or {})
        self.protocol_version = protocol_version
        self.delete_status = delete_status
        self.stopping = threading.Event()
        self.errors: list[BaseException] = []
        self.sessions_issued: list[str] = []
        #: (JSON-RPC method, how) for every request whose client went away mid-answer.
        self.gone: list[tuple[str | None, str]] = []
        #: (JSON-RPC method, how) for every endless answer the server's shutdown had to release.
        self.released: list[tuple[str | None, str]] = []
        #: (JSON-RPC method, HTTP status) of every answer that was started.
        self.statuses: list[tuple[str | None, int]] = []
        self._received: list[Received] = []
        self._open: set[socket.socket] = set()
        self._threads: list[threading.Thread] = []
        self._changed = threading.Condition()
        self._httpd = _HttpServer(("127.0.0.1", 0), _Handler)
        self._httpd.owner = self
        self.port = self._httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}{path}"
        self._serve_thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                              name=f"fault-server-{self.port}", daemon=True)
        self._serve_thread.start()
        self._closed_already = False

    # -- what it saw --------------------------------------------------------------------------

    @property
    def received(self) -> list[Received]:
        with self._changed:
            return list(self._received)

    def posts(self, rpc_method: str | None = None) -> list[Received]:
        return [r for r in self.received if r.http_method == "POST"
                and (rpc_method is None or r.rpc_method == rpc_method)]

    @property
    def rpc_methods(self) -> list[str | None]:
        return [r.rpc_method for r in self.posts()]

    def reply_to(self, request_id: Any) -> Received | None:
        """The client's POSTed JSON-RPC response to the server's request ``request_id``, if any."""
        for received in self.posts():
            message = received.message
            if isinstance(message, dict) and "method" not in message and message.get("id") == request_id:
                return received
        return None

    @property
    def connections_accepted(self) -> int:
        """How many TCP connections clients opened (one handler thread each)."""
        with self._changed:
            return len(self._threads)

    @property
    def open_connections(self) -> int:
        with self._changed:
            return len(self._open)

    def wait_until(self, predicate: Callable[[], bool], timeout: float = 3.0) -> bool:
        end = time.monotonic() + timeout
        with self._changed:
            while not predicate():
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
            return True

    def wait_idle(self, timeout: float = 3.0) -> bool:
        """True once the client has closed every connection it opened."""
        return self.wait_until(lambda: not self._open, timeout)

    def wait_gone(self, timeout: float = 3.0) -> bool:
        """True once some endless or long answer saw its client leave."""
        return self.wait_until(lambda: bool(self.gone), timeout)

    # -- life -----------------------------------------------------------------------------------

    def close(self) -> None:
        """Stop: release endless answers, shut open connections, join every thread."""
        if self._closed_already:
            return
        self._closed_already = True
        self.stopping.set()
        self._httpd.shutdown()
        with self._changed:
            sockets = list(self._open)
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self._httpd.server_close()
        self._serve_thread.join(5)
        hanging = []
        for thread in self._threads:
            thread.join(5)
            if thread.is_alive():
                hanging.append(thread.name)
        if hanging or self._serve_thread.is_alive():
            raise AssertionError(f"fault server threads left hanging: {hanging}")

    def __enter__(self) -> FaultServer:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    # -- internals ------------------------------------------------------------------------------

    def _record(self, request: Received) -> None:
        with self._changed:
            self._received.append(request)
            self._changed.notify_all()

    def _opened(self, sock: socket.socket) -> None:
        with self._changed:
            self._open.add(sock)
            self._changed.notify_all()

    def _closed(self, sock: socket.socket) -> None:
        with self._changed:
            self._open.discard(sock)
            self._changed.notify_all()

    def _note_status(self, request: Received, status: int) -> None:
        with self._changed:
            self.statuses.append((request.rpc_method, status))

    def _note_gone(self, request: Received, how: str) -> None:
        if self.stopping.is_set():  # our own shutdown closed it, not the client
            self._note_released(request, how)
            return
        with self._changed:
            self.gone.append((request.rpc_method, how))
            self._changed.notify_all()

    def _note_released(self, request: Received, how: str) -> None:
        with self._changed:
            self.released.append((request.rpc_method, how))
            self._changed.notify_all()

    def _dispatch(self, exchange: Exchange) -> None:
        request = exchange.request
        method = request.rpc_method
        delay = self.delays.get(method or "", 0)
        if delay and self.stopping.wait(delay):
            exchange.send(503, b"stopping", content_type="text/plain")
            return
        if method == "server/discover" and self.discover is None:
            self.answer_discover_as_handshake_era(exchange)
        elif method == "server/discover":
            self.discover(exchange)
        elif method == "initialize":
            if self.initialize is not None:
                self.initialize(exchange)
            else:
                self.answer_initialize(exchange)
        elif request.is_notification or (isinstance(request.message, dict) and "method" not in request.message):
            if self.notification is not None:
                self.notification(exchange)
            else:
                exchange.send(202, b"", content_type=None)
        else:
            self.work(exchange)

    def answer_discover_as_handshake_era(self, exchange: Exchange) -> None:
        """How servers of the handshake era answer the stateless era's probe: the SDKs' servers with
        sessions refuse a request outside a session (HTTP 400), those without do not know the method."""
        if self.profile == "session":
            exchange.send_json({"jsonrpc": "2.0", "id": exchange.request.rpc_id,
                                "error": {"code": -32000, "message": "Bad Request: No valid session ID provided"}},
                               status=400)
        else:
            exchange.send_rpc_error(-32601, "Method not found")

    def answer_initialize(self, exchange: Exchange, version: str | None = None,
                          capabilities: dict[str, Any] | None = None) -> None:
        """The correct ``initialize`` answer (a fresh session id in the session profile)."""
        headers = {}
        if self.profile == "session":
            with self._changed:
                session = f"session-{len(self.sessions_issued) + 1}"
                self.sessions_issued.append(session)
            headers["Mcp-Session-Id"] = session
        exchange.send_result({
            "protocolVersion": version or self.protocol_version,
            "capabilities": capabilities if capabilities is not None else {"tools": {}},
            "serverInfo": {"name": "fault-server", "version": "1.0"},
        }, headers=headers)


@dataclass
class Ran:
    """How one client operation against a server ended (for tests)."""

    result: Any
    error: BaseException | None
    recorder: Any  # OperationRecorder
    elapsed_s: float


def operate(endpoint: Any, operation: str = "call", *, budget_s: object = None, tool: str = "echo",
            arguments: dict[str, Any] | None = None, operations: int = 1) -> list[Ran]:
    """Run ``operations`` client operations (``call``, ``list`` or ``ping``) one after another on a
    fresh event loop and one client, then wait for the client's housekeeping. Any exception is
    caught and returned, so that the caller can say what it expected instead."""
    import asyncio

    from inspector.mcp import McpClient, OperationRecorder

    async def go() -> list[Ran]:
        client = McpClient()
        runs = []
        for _ in range(operations):
            recorder = OperationRecorder()
            started = time.monotonic()
            result, error = None, None
            try:
                if operation == "call":
                    result = await client.call_tool(endpoint, tool, arguments if arguments is not None
                                                    else {"text": "hi"}, budget_s=budget_s, observer=recorder)
                elif operation == "list":
                    result = await client.list_tools(endpoint, budget_s=budget_s, observer=recorder)
                else:
                    result = await client.ping(endpoint, budget_s=budget_s, observer=recorder)
            except Exception as exc:  # noqa: BLE001 - reported to the test, which decides
                error = exc
            runs.append(Ran(result, error, recorder, time.monotonic() - started))
        await client.drain()
        return runs

    return asyncio.run(go())
