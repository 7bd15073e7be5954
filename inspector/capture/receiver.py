"""The OTLP/HTTP trace receiver: ``POST /v1/traces`` on 127.0.0.1:4318, spans into the run database.

Each request is read (bounded), decoded (:mod:`.otlp_body`) and handed to one writer thread
(:mod:`.span_writer`), which owns the store and the live traces (:mod:`.live_traces`); the request is
answered once its spans are written, so an exporter that got 200 knows they are kept, and one that got
503 knows nothing of them is (it sends them again). Answers follow the OTLP/HTTP specification: 200
with an ``ExportTraceServiceResponse`` in the request's encoding (with ``partial_success`` when spans
were refused), 400 with a ``google.rpc.Status`` for a body that cannot be read, 413 for one too large,
415 for an unknown content type or encoding, 503 with ``Retry-After`` for load or a database another
program holds locked.

How many connections are held, and how long a request's head may take, is bounded as HTTP servers
bound them (:mod:`.connections`): a client sending its headers a byte at a time no longer holds a
thread for as long as it likes.

Loopback only by default. Listening on another address needs a token, generated here, sent by
clients as ``Authorization: Bearer TOKEN`` and compared in constant time (as the official MCP
Inspector protects its proxy). A request that carries an ``Origin`` header (a web page) is refused.
"""

from __future__ import annotations

import hmac
import io
import logging
import secrets
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from inspector.i18n import N_
from inspector.i18n.messages import NP_, Count, Message
from inspector.i18n.os_reasons import os_reason
from inspector.mcp.secrets import Secrets
from inspector.runs.loopback import is_loopback

from . import otlp_body
from .connections import ConnectionSlots, HeadClock, HeadTimedReader, client_left
from .live_traces import QUIET_S, RunReceived, Taken
from .request_body import BodyGate, BodyReader, content_length, too_large
from .span_writer import DatabaseLocked, ReceiverBusy, SpanWriter
from .unread_requests import unread_request

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 4318
TRACES_PATH = "/v1/traces"
ANSWER_WAIT_S = 60.0
"""How long a request waits for its spans to be written before it is answered 503 (retry later)."""
LOCK_WAIT_S = ANSWER_WAIT_S
"""How long a write waits while another program holds the database locked before its request is answered 503
(``--lock-wait``): as long as a request waits for the writer, not the store's own 10 s. An exporter gives up on
its own deadline (the OpenTelemetry Python SDK's: 10 s for an export, its retries included), so a 503 it could
still read is followed by retries that fail too, and one after its deadline is read by no one: either way the
batch was lost whenever the lock outlasted 10 s. A write that waits the lock out keeps it, though the exporter
logs a failure. Measured with the SDK's exporter and a batch processor, 20 spans a second, the database held by
``BEGIN EXCLUSIVE`` in another process: 15 s held, 98 of 690 spans lost with the store's 10 s wait (98 of 689
answered 503 within a second with ``Retry-After: 1``), none with 60 s; 30 s held, 392 of 983 lost (378 of 985),
none."""
BUSY_RETRY_AFTER_S = 1
"""The ``Retry-After`` (seconds) of a 503 for a request that found every connection or every turn to read a
body taken: one is free as soon as a body is read, which takes a moment (OTLP/HTTP lets a 503 or 429 say
when to retry; the OpenTelemetry Python SDK's exporter waits that long instead of its own backoff)."""
WRITER_RETRY_AFTER_S = 10
"""The ``Retry-After`` (seconds) of a 503 for a request whose spans the writer did not take within
:data:`ANSWER_WAIT_S`: it is that far behind (a flood of spans ahead of them), and an exporter retrying at
once would only add to what it has to write. The same for a request whose write found the database
locked by another program for longer than the lock wait (:data:`LOCK_WAIT_S`)."""
READ_TIMEOUT_S = 30.0
"""A connection that sends nothing for this long is closed."""
SAID_REFUSALS = frozenset({400, 403, 413, 415})
"""The refusals of a whole request said on the receiver's side too (:meth:`TraceReceiver.refused`), not only in the
answer: a body it cannot read (400), a web page's request (403), one over its limits (413), a content type or
encoding it does not take (415). An exporter may show no more than the status (the OpenTelemetry Python SDK's
logs the code and its reason phrase, ``Unsupported Media Type``), so its spans would be missing without a word of
why. Load (503) is not: the exporter sends the request again."""


class ReceiverError(Exception):
    """The receiver cannot start; ``sentence`` says why and what to do."""

    def __init__(self, sentence: object) -> None:
        super().__init__(str(sentence))
        self.sentence = sentence


@dataclass(frozen=True)
class ReceiverOptions:
    """Where to listen, and how long a trace may be quiet before it counts as finished."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    quiet_s: float = QUIET_S


class TraceReceiver:
    """An OTLP/HTTP receiver storing into the run database at ``db_path``.

    ``start()`` binds (raising :class:`ReceiverError` when it cannot) and returns the address;
    ``stop()`` settles every trace still growing, closes the store and ends both threads.
    ``on_run`` is called on the writer thread for every run written; ``on_problem`` with a sentence when
    the database turns out locked by another program (spans are refused meanwhile) and when it is free again;
    ``on_refused`` with a sentence, from a request's thread, for a request some of whose spans were refused, and for
    one whose exporter stopped waiting before its spans were stored (without it, the sentence goes to the log)."""

    def __init__(self, db_path: str | Path, options: ReceiverOptions | None = None,
                 on_run: Callable[[RunReceived], None] | None = None,
                 on_problem: Callable[[Message], None] | None = None,
                 on_refused: Callable[[Message], None] | None = None) -> None:
        self.options = options or ReceiverOptions()
        self.db_path = Path(db_path)
        self.on_run = on_run
        self.on_problem = on_problem
        self.on_refused = on_refused
        #: The token clients must send (``None`` on loopback, where none is asked).
        self.token = None if is_loopback(self.options.host) else secrets.token_urlsafe(32)
        #: The token in every shape it may take, cut out of received spans before they are stored.
        self.secrets = Secrets([self.token, f"Bearer {self.token}"] if self.token else [])
        self._server: ThreadingHTTPServer | None = None
        self._writer: SpanWriter | None = None
        self._serving: threading.Thread | None = None
        #: How many bodies are read and decoded at once, and how long one may take (see :mod:`.request_body`).
        self.gate = BodyGate()
        #: How many connections are held at once, and how long a request's head may take (:mod:`.connections`).
        self.connections = ConnectionSlots()
        #: How long a request waits for the writer to take its spans before it is answered 503.
        self.answer_wait_s = ANSWER_WAIT_S
        #: How long a write waits for another program's lock on the database (read by :meth:`start`).
        self.lock_wait_s = LOCK_WAIT_S
        #: The ``Retry-After`` (whole seconds) of a 503 for a request the writer did not take within
        #: :attr:`answer_wait_s`, or whose write found the database locked (:data:`WRITER_RETRY_AFTER_S`).
        self.writer_retry_after_s = WRITER_RETRY_AFTER_S

    @property
    def url(self) -> str:
        """Where exporters send: ``http://HOST:PORT/v1/traces``."""
        host, port = self.address
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}{TRACES_PATH}"

    @property
    def address(self) -> tuple[str, int]:
        if self._server is None:
            return self.options.host, self.options.port
        return self.options.host, int(self._server.server_address[1])

    @property
    def begun(self) -> int:
        """How many hands of spans the writer has begun writing since :meth:`start` (see
        :attr:`.SpanWriter.begun`): a request counted here is no longer answered 503 for a busy writer."""
        writer = self._writer
        return writer.begun if writer is not None else 0

    def start(self) -> str:
        """Listen and start writing; return :attr:`url`."""
        self._server = _bind(self.options.host, self.options.port)
        self._server.receiver = self  # type: ignore[attr-defined]
        writer = SpanWriter(self.db_path, self.options.quiet_s, self.on_run, self.on_problem, self.lock_wait_s)
        if not writer.start():
            self._server.server_close()
            self._server = None
            raise ReceiverError(getattr(writer.failure, "sentence", writer.failure))
        self._writer = writer
        # A stop is heard within the poll interval (shutdown() waits for it): 0.05 s, not the 0.2 s each
        # stop of the receive command, the window's receiver and every test of them waited up to.
        self._serving = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                         name="otlp-receiver-http", daemon=True)
        self._serving.start()
        return self.url

    def stop(self) -> None:
        """Stop listening, settle the traces still growing, close the store."""
        if self._server is None:
            return
        self._server.shutdown()
        self._server.server_close()
        if self._writer is not None:
            self._writer.stop(timeout=10)
        if self._serving is not None:
            self._serving.join(timeout=10)
        self._server, self._writer, self._serving = None, None, None

    def __enter__(self) -> TraceReceiver:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def submit(self, spans: list[Any]) -> Taken:
        """Hand spans to the writer and wait until they are written (from a request's thread); raises
        :class:`~.span_writer.ReceiverBusy` when the writer did not begin them within :attr:`answer_wait_s`
        (withdrawn: nothing of them is stored), :class:`~.span_writer.DatabaseLocked` when another program
        held the database for longer than :attr:`lock_wait_s` (nothing of them is stored either)."""
        writer = self._writer
        if writer is None:  # stopped meanwhile
            raise ReceiverBusy
        return writer.submit(spans, self.answer_wait_s)

    def refused(self, count: int | None, reason: Message) -> None:
        """Say that ``count`` spans of a request were refused (None: the whole request, see
        :data:`SAID_REFUSALS`), and the first reason: the answer says it to the exporter, but an exporter may not
        show it (the OpenTelemetry Python SDK's neither reads nor logs ``partial_success``, and logs a 413 or 415
        by its status code alone), so the spans would be missing without the receiver's reason said."""
        sentence = (Message(N_("A request was refused: {reason}"), {"reason": reason}) if count is None else
                    NP_("{count} span of a request was refused: {reason}",
                        "{count} spans of a request were refused: {reason}", {"count": Count(count), "reason": reason},
                        "count"))
        self._say(sentence)

    def stored_late(self, count: int, seconds: float) -> None:
        """Say that a request's exporter stopped waiting (its time-out) before its ``count`` spans were stored,
        ``seconds`` after its head came: the spans are kept, but the exporter reports them as not exported (the
        OpenTelemetry Python SDK's, after 10 s: "Failed to export span batch due to timeout"), and does not send
        them again, so each side would say the other was wrong without a word of why."""
        self._say(NP_("The exporter of a request of {count} span stopped waiting for its answer (its time-out) before "
                      "the span was stored, {seconds} s after it was sent: it is stored, though the exporter may "
                      "report it as not exported. Smaller batches are answered sooner.",
                      "The exporter of a request of {count} spans stopped waiting for its answer (its time-out) before "
                      "the spans were stored, {seconds} s after they were sent: they are stored, though the exporter "
                      "may report them as not exported. Smaller batches are answered sooner.",
                      {"count": Count(count), "seconds": round(seconds, 1)}, "count"))

    def _say(self, sentence: Message) -> None:
        if self.on_refused is None:
            logging.getLogger(__name__).warning("%s", sentence)
        else:
            self.on_refused(sentence)


def _bind(host: str, port: int) -> ThreadingHTTPServer:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    server_class = type("_Server", (_Server,), {"address_family": family})
    try:
        return server_class((host, port), _Handler)
    except OSError as error:
        if error.errno in (98, 48, 10048):  # EADDRINUSE on Linux, macOS, Windows
            raise ReceiverError(Message(N_("The trace receiver cannot listen on {host}:{port}: the port is taken "
                                           "(another OTLP receiver or collector runs there?). Stop that program or "
                                           "choose another port."), {"host": host, "port": port})) from None
        raise ReceiverError(Message(N_("The trace receiver cannot listen on {host}:{port} ({reason})."),
                                    {"host": host, "port": port, "reason": os_reason(error)})) from None


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64
    receiver: TraceReceiver

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A connection that broke (a client gone mid-request) ends that connection only; it is noted in
        the log, not printed as a traceback among the command's lines."""
        logging.getLogger(__name__).debug("connection from %s ended with an error", client_address, exc_info=True)

    def process_request(self, request: Any, client_address: Any) -> None:
        """A thread for the connection when it gets a slot (:class:`~.connections.ConnectionSlots`);
        when every slot is busy with a request, 503 (retry later) and closed, on the accepting thread."""
        slots = self.receiver.connections
        if not slots.admit(request):
            _refuse_busy(request)
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            slots.release(request)  # no thread was started for it
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.receiver.connections.release(request)


_TLS_HANDSHAKE = b"\x16"
"""The first byte of a TLS handshake record (a ClientHello); no HTTP request begins with it."""


def _refuse_busy(sock: socket.socket) -> None:
    body = otlp_body.status_body(otlp_body.JSON, str(Message(N_(
        "The receiver is serving as many connections as it holds at once; retry later."))), 14)
    head = (f"HTTP/1.1 503 Service Unavailable\r\nContent-Type: {otlp_body.JSON}\r\nContent-Length: {len(body)}\r\n"
            f"Retry-After: {BUSY_RETRY_AFTER_S}\r\nConnection: close\r\n\r\n").encode("ascii")
    try:
        sock.settimeout(0.5)  # a client that reads nothing must not hold the accepting thread
        sock.sendall(head + body)
    except OSError:
        pass


class _Handler(BaseHTTPRequestHandler):
    """One connection; HTTP/1.1 keep-alive, as exporters reuse their connection."""

    protocol_version = "HTTP/1.1"
    # An exporter keeps its connection: with Nagle's algorithm on, each answer after the first would
    # wait ~40 ms for the exporter's delayed ACK (the head and the body are written apart).
    disable_nagle_algorithm = True
    timeout = READ_TIMEOUT_S
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the standard library's name
        pass  # the command prints one line per run, not one per request

    def setup(self) -> None:
        super().setup()
        slots = self.server.receiver.connections
        self.head_clock = HeadClock(slots.idle_s, slots.head_s)
        # The socket file's reads of a request's head are given what the head's deadline has left.
        self.rfile = io.BufferedReader(HeadTimedReader(self.rfile.detach(), self.connection, self.head_clock))

    def handle_one_request(self) -> None:
        """One request, its head waited for while the connection may be closed to make room; a head
        begun and not whole within its deadline is answered 408, and the connection closed."""
        slots, clock = self.server.receiver.connections, self.head_clock
        clock.begin()
        slots.waiting(self.connection)
        try:
            if self._speaks_tls():
                return
            super().handle_one_request()
        finally:
            slots.busy(self.connection)
        if clock.active:  # the head never came whole: nothing was served
            clock.end()
            self.close_connection = True
            if clock.timed_out and clock.started:
                self.connection.settimeout(self.timeout)
                # What answering needs of a request whose line may not have been read whole.
                self.request_version, self.requestline = self.protocol_version, ""
                try:
                    self._answer(408, otlp_body.JSON, otlp_body.status_body(otlp_body.JSON, str(Message(N_(
                        "The request's headers did not arrive within {seconds} s and were refused."),
                        {"seconds": f"{clock.head_s:g}"}))), close=True)
                except OSError:
                    pass  # the client is gone

    def _speaks_tls(self) -> bool:
        """Whether the client began a TLS handshake (an exporter sending to ``https://``): the connection is
        closed at once and that is said. Before, its handshake waited out the head's deadline (10 s, past the
        OpenTelemetry Python SDK's export timeout) for an answer in HTTP it could not read, and nothing was said
        here, so the exporter's spans were missing without a word of why."""
        try:
            first = self.rfile.peek(1)[:1]
        except OSError:  # nothing came (or the client left): the request's reading says so, as before
            return False
        if first != _TLS_HANDSHAKE:
            return False
        self.head_clock.end()
        self.close_connection = True
        receiver = self.server.receiver
        receiver.refused(None, Message(N_("A client spoke TLS (https) to the receiver, which takes plain HTTP: "
                                          "send to {url}."), {"url": receiver.url}))
        return True

    def _head_in(self) -> None:
        """The request's head is in: its connection is busy (never closed to make room)."""
        self.head_clock.end()
        self.server.receiver.connections.busy(self.connection)
        self.connection.settimeout(self.timeout)

    def do_POST(self) -> None:  # noqa: N802 - the standard library's name
        self._head_in()
        began = time.monotonic()
        content_type = otlp_body.media_type(self.headers.get("Content-Type"))
        answer_type = content_type if content_type in otlp_body.CONTENT_TYPES else otlp_body.JSON
        refusal = self._refusal(content_type)
        if refusal is not None:
            status, sentence, close = refusal
            self._answer(status, answer_type, otlp_body.status_body(answer_type, str(sentence)), close=close)
            if status in SAID_REFUSALS:
                self.server.receiver.refused(None, sentence)
            return
        gate = self.server.receiver.gate
        refused: list[Message] = []
        try:
            with gate.reading():
                body = self._body()
                with gate.decoding():
                    unpacked = otlp_body.unpack(body, self.headers.get("Content-Encoding"))
                    spans = otlp_body.without_secrets(otlp_body.read_request(unpacked, content_type, refused),
                                                      self.server.receiver.secrets, unpacked)
        except otlp_body.BadBody as bad:
            busy = bad.status == 503  # no turn to read the body: it was not read, the connection cannot be used again
            if busy:
                self.close_connection = True
            self._answer(bad.status, answer_type, otlp_body.status_body(answer_type, str(bad.sentence),
                                                                        14 if busy else 3),
                         retry_after_s=BUSY_RETRY_AFTER_S if busy else None)
            if bad.status in SAID_REFUSALS:
                self.server.receiver.refused(None, bad.sentence)
            return
        try:
            taken = self.server.receiver.submit(spans)
        except (ReceiverBusy, DatabaseLocked) as refused:
            sentence = (Message(N_("The receiver is busy; retry later.")) if isinstance(refused, ReceiverBusy) else
                        Message(N_("The run database is locked by another program; nothing was stored, retry later.")))
            self._answer(503, answer_type, otlp_body.status_body(answer_type, str(sentence), 14),
                         retry_after_s=self.server.receiver.writer_retry_after_s)
            return
        except Exception as error:  # noqa: BLE001 - a fault of ours (or the database): said, never a crash
            message = f"The spans could not be stored ({type(error).__name__}: {error})."
            self._answer(500, answer_type, otlp_body.status_body(answer_type, message[:500], 13))
            return
        first = refused[0] if refused else taken.reason
        rejected = taken.rejected + len(refused)
        if client_left(self.connection):
            self.server.receiver.stored_late(len(spans) - taken.rejected, time.monotonic() - began)
        self._answer(200, answer_type, otlp_body.success_body(answer_type, rejected, str(first or "")))
        if rejected and first is not None:
            self.server.receiver.refused(rejected, first)

    def _refusal(self, content_type: str) -> tuple[int, Message, bool] | None:
        """Why the request is refused before its body is read (status, sentence, close the connection)."""
        if self.path.split("?", 1)[0] != TRACES_PATH:
            return 404, Message(N_("Only {path} is served here."), {"path": TRACES_PATH}), True
        if self.headers.get("Origin"):
            return 403, Message(N_("Requests from web pages (with an Origin header) are refused.")), True
        token = self.server.receiver.token
        if token is not None:
            given = self.headers.get("Authorization", "")
            scheme, _, value = given.partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(value.strip().encode(), token.encode()):
                return 401, Message(N_("This receiver needs its token: send Authorization: Bearer TOKEN.")), True
        if content_type not in otlp_body.CONTENT_TYPES:
            return 415, Message(N_("The content type {type} is not supported: send application/x-protobuf or "
                                   "application/json."), {"type": repr(content_type[:60])}), True
        return None

    def _body(self) -> bytes:
        reader = BodyReader(self.rfile, self.connection, self.server.receiver.gate.deadline_s)
        try:
            if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
                if self.headers.get_all("Content-Length"):  # RFC 9112, section 6.1: a smuggling attempt, or a fault
                    raise otlp_body.BadBody(Message(N_(
                        "The request has both Transfer-Encoding: chunked and a Content-Length and was refused: "
                        "its body cannot be told from what follows it.")))
                return reader.chunked()
            size = content_length(self.headers.get_all("Content-Length") or [])
            if size > otlp_body.MAX_BODY_BYTES:  # not read: the connection cannot be used again
                raise otlp_body.BadBody(too_large(), 413)
            return reader.sized(size)
        except otlp_body.BadBody:
            self.close_connection = True
            raise
        finally:
            self.connection.settimeout(self.timeout)

    def _answer(self, status: int, content_type: str, body: bytes, *, close: bool = False,
                retry_after_s: int | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        if retry_after_s is not None:  # a refusal for load: when to try again (OTLP/HTTP's throttling)
            self.send_header("Retry-After", str(retry_after_s))
        if close:
            self.close_connection = True
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The standard library's refusal of a request it could not read (its first line, its method, a line or
        headers too long), answered as the receiver's others are: a Status in JSON, in our words. It was Python's
        HTML error page ("Bad request syntax ('...')"), and for a first line it took for HTTP/0.9 (a version it does
        not speak, say) that page without a status line."""
        if self.request_version == "HTTP/0.9":  # as far as it was read: no exporter speaks HTTP/0.9
            self.request_version = self.protocol_version
        sentence = unread_request(code, self.requestline, self.command or "", TRACES_PATH)
        self._answer(code, otlp_body.JSON, otlp_body.status_body(otlp_body.JSON, str(sentence)), close=True)

    def _not_allowed(self) -> None:
        self._head_in()
        self._answer(405, otlp_body.JSON, otlp_body.status_body(otlp_body.JSON, "Only POST is served here."),
                     close=True)

    do_GET = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _not_allowed  # noqa: N815
