"""One HTTP exchange the proxy carried, heard as it passed: a *leg* of an agent's operation.

The proxy forwards bytes; a :class:`CapturedLeg` reads them on the side: the JSON-RPC message the
agent sent, the answer's head, and its body or its event stream (parsed as it arrives, never held
back), so that at the end it can tell the leg's method, its JSON-RPC answer (or error), what the
server asked or told meanwhile, how long it took and how it ended. What travelled is kept by the
wire recorder of :mod:`inspector.mcp.wire` (redacted: credential headers by name, their values in
bodies too).
"""

from __future__ import annotations

import codecs
import json
import time
import zlib
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

from inspector.mcp.messages import Message
from inspector.mcp.secrets import Secrets
from inspector.mcp.server_requests import RECORDED_JSON_LIMIT, clipped
from inspector.mcp.sse import EventStreamParser
from inspector.mcp.wire import DEFAULT_WIRE, WireRecorder
from inspector.runs.progress import KEEP_FIRST, KEEP_LAST, MAX_MESSAGE_CHARS

#: The most answer text a leg parses for its JSON-RPC messages: a JSON body's, or one event's of a stream
#: (a stream may go on for hours; a body or an event beyond it still passes on whole).
MAX_PARSED_BYTES = 8 * 1024 * 1024
#: The most of the server's requests, and of its notifications besides progress, a leg keeps (a step keeps
#: 50 notifications).
MAX_KEPT_MESSAGES = 1_000

# How a leg ended, seen from the proxy.
COMPLETE = "complete"          # the answer arrived whole
AGENT_LEFT = "agent_left"      # the agent closed its connection before the answer ended
SERVER_BROKE = "server_broke"  # the server could not be reached, or broke off its answer
BUDGET = "budget"              # the proxy's budget for the operation ended it (``--budget``)
PROXY_STOPPED = "proxy_stopped"  # the proxy was stopped (Ctrl-C, Stop in the window) before the answer ended


def rpc_messages(value: Any) -> list[dict[str, Any]]:
    """The JSON-RPC messages in a decoded body: one object, or a batch of them."""
    if isinstance(value, dict):
        return [value]
    if isinstance(value, list):
        return [item for item in value if isinstance(item, dict)]
    return []


def parse_json(text: bytes | str) -> Any:
    """The JSON value of ``text``, or ``None`` when it is not JSON (or nests too deeply to read: a message
    of 100,000 brackets made the proxy answer the agent 500, or cut the server's answer off mid-stream)."""
    try:
        return json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None


def _decompressor(encoding: str) -> Any:
    encoding = encoding.strip().lower()
    if encoding in ("gzip", "x-gzip"):
        return zlib.decompressobj(16 + zlib.MAX_WBITS)
    if encoding == "deflate":
        return zlib.decompressobj()
    return None


def _kept_form(message: dict[str, Any]) -> dict[str, Any]:
    """What is read of a message of the server's when its leg is recorded, and no more: a request's method and
    id; a progress note's numbers and words; a log message's level, logger and data, clipped as a step clips
    them. A stream of 200 log messages of 5 MB each was held whole until its call ended (the proxy's peak
    1.1 GB; a leg keeps up to 1,000 of them, each up to 8 MB)."""
    method, params = message.get("method"), message.get("params")
    kept: dict[str, Any] = {"jsonrpc": "2.0", "method": _cut(method) if isinstance(method, str) else None}
    if "id" in message:
        return {**kept, "id": message["id"]}
    params = params if isinstance(params, dict) else {}
    if method == "notifications/progress":
        words = params.get("message")
        kept["params"] = {**{key: params[key] for key in ("progress", "total") if key in params},
                          "message": words[:MAX_MESSAGE_CHARS + 1] if isinstance(words, str) else None}
    else:
        kept["params"] = {key: _cut(params[key]) if key != "data" else clipped(params[key])
                          for key in ("level", "logger", "data") if key in params}
    return kept


def _cut(value: Any) -> Any:
    """A name kept of a server's message, longer than a step keeps it (a step reads no other than a text)."""
    return value[:RECORDED_JSON_LIMIT] if isinstance(value, str) else None


@dataclass
class CapturedLeg:
    """One request the agent sent and the answer it got, as the proxy saw them pass."""

    http_method: str
    url: str
    #: The agent's JSON-RPC message (the first of a batch), or ``None`` for a GET or DELETE.
    message: dict[str, Any] | None
    session_id: str | None
    secrets: Secrets = field(default_factory=Secrets)
    wire_level: str = DEFAULT_WIRE
    started_ns: int = field(default_factory=time.monotonic_ns)
    ended_ns: int | None = None
    status: int | None = None
    answer_headers: dict[str, str] = field(default_factory=dict)
    #: The answer to :attr:`message` (``result`` or ``error``), when one came.
    answer: dict[str, Any] | None = None
    #: Requests and notifications the server sent on this leg's answer stream, in order: the first
    #: :data:`MAX_KEPT_MESSAGES` of each, and of its progress notes the first ones (the last: :meth:`heard`).
    server_messages: list[dict[str, Any]] = field(default_factory=list)
    #: When each of :attr:`server_messages` arrived (monotonic nanoseconds).
    server_message_times: list[int] = field(default_factory=list)
    #: Progress notes heard between the first and the last ones kept, and not kept (a long stream's).
    progress_skipped: int = 0
    request_headers: list[tuple[str, str]] = field(default_factory=list)
    ending: str | None = None
    #: The leg's name when the book knows better (an answer to the server's ``elicitation/create``).
    label: str | None = None
    #: Why the leg did not end well, in a sentence of ours (for the run; ``str()`` is its English),
    #: when the proxy knows.
    reason: Message | None = None
    unparsed: bool = False
    #: Not parsed because a JSON body, or one event, was larger than :data:`MAX_PARSED_BYTES`.
    too_large: bool = False
    _recorder: WireRecorder | None = None
    _events: EventStreamParser | None = None
    _decoder: Any = None
    _inflate: Any = None
    _body: bytearray = field(default_factory=bytearray)
    _parsed: int = 0
    _progress_seen: int = 0
    _kept: Counter[str] = field(default_factory=Counter)
    _progress_tail: deque[tuple[dict[str, Any], int]] = field(default_factory=lambda: deque(maxlen=KEEP_LAST))

    def __post_init__(self) -> None:
        self._recorder = WireRecorder(self.wire_level, secrets=self.secrets, started_ns=self.started_ns)

    # -- what the agent sent -------------------------------------------------------------

    @property
    def method(self) -> str:
        """The leg's name: the JSON-RPC method, ``response`` for the agent's answer to a server's
        request, else the HTTP method (``GET`` opens the server's stream, ``DELETE`` ends a session)."""
        if self.label is not None:
            return self.label
        if self.message is None:
            return self.http_method
        method = self.message.get("method")
        if isinstance(method, str) and method:
            return method
        return "response" if "id" in self.message else self.http_method

    @property
    def rpc_id(self) -> Any:
        """The id of the agent's request (``None`` for a notification, an answer or no message)."""
        if self.message is None or not isinstance(self.message.get("method"), str):
            return None
        return self.message.get("id")

    @property
    def params(self) -> dict[str, Any]:
        params = (self.message or {}).get("params")
        return params if isinstance(params, dict) else {}

    def sent(self, headers: list[tuple[str, str]], body: bytes | None) -> None:
        """The request as it went to the server."""
        assert self._recorder is not None
        self.request_headers = list(headers)
        self._recorder.sent(self.http_method, self.url, headers, body or None)

    # -- what came back ------------------------------------------------------------------

    def answered(self, status: int, headers: list[tuple[str, str]]) -> None:
        """The answer's head: its status and headers, as they came."""
        assert self._recorder is not None
        self.status = status
        self.answer_headers = {name.lower(): value for name, value in headers}
        self._recorder.answered(status, headers)
        kind = self.answer_headers.get("content-type", "").split(";")[0].strip().lower()
        if kind == "text/event-stream":
            self._events = EventStreamParser()
        encoding = self.answer_headers.get("content-encoding", "")
        if encoding and encoding.lower() != "identity":
            self._inflate = _decompressor(encoding)
            self.unparsed = self._inflate is None
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def chunk(self, raw: bytes) -> None:
        """A chunk of the answer as it came over the wire (compressed, if the server compressed it)."""
        if self.unparsed or self._decoder is None:
            return
        room = MAX_PARSED_BYTES - self._parsed
        try:  # unpacked no further than what is parsed: a small gzip bomb is not blown up whole
            data = self._inflate.decompress(raw, room + 1) if self._inflate is not None else raw
        except zlib.error:  # not what its Content-Encoding says: passed on as it came, not parsed
            self.unparsed = True
            return
        if len(data) > room:
            self.unparsed = self.too_large = True
            return
        self._parsed += len(data)
        assert self._recorder is not None
        if self._events is None:
            self._body += data
            self._recorder.body(data)
            return
        for event in self._events.feed(self._decoder.decode(data)):
            self._recorder.event(time.monotonic_ns(), event)
            self._heard(parse_json(event))
            self._parsed = 0  # a stream is bounded by its event, not by how long it goes on

    def _heard(self, value: Any) -> None:
        for message in rpc_messages(value):
            if "method" in message:
                self._keep(message, time.monotonic_ns())
            elif self.rpc_id is not None and message.get("id") == self.rpc_id and self.answer is None:
                self.answer = message

    def _keep(self, message: dict[str, Any], at_ns: int) -> None:
        """Keep a message of the server's, bounded: the first progress notes and the last (as a step
        keeps them), the rest counted; its other notifications, and its requests, up to :data:`MAX_KEPT_MESSAGES`
        each."""
        if message.get("method") == "notifications/progress" and "id" not in message:
            self._progress_seen += 1
            if self._progress_seen > KEEP_FIRST:
                if len(self._progress_tail) == self._progress_tail.maxlen:
                    self.progress_skipped += 1
                self._progress_tail.append((_kept_form(message), at_ns))
                return
        else:
            # Its requests apart from its notifications: the agent answers each, and the book knows by them
            # whose answer a later POST is; a chatty tool's log messages crowded them out.
            kind = "request" if "id" in message else "notification"
            if self._kept[kind] >= MAX_KEPT_MESSAGES:
                return
            self._kept[kind] += 1
        self.server_messages.append(_kept_form(message))
        self.server_message_times.append(at_ns)

    def heard(self) -> list[tuple[dict[str, Any], int]]:
        """The server's messages this leg kept, with when each arrived, in order."""
        kept = list(zip(self.server_messages, self.server_message_times, strict=True)) + list(self._progress_tail)
        return sorted(kept, key=lambda pair: pair[1])

    def ended(self, ending: str, reason: Message | None = None) -> None:
        """The leg is over: ``ending`` says how (see the constants above)."""
        if self.ended_ns is not None:
            return
        self.ended_ns = time.monotonic_ns()
        self.ending = ending
        self.reason = reason
        if self._events is not None and self._decoder is not None and not self.unparsed:
            for event in self._events.feed(self._decoder.decode(b"", final=True)) + self._events.close():
                assert self._recorder is not None
                self._recorder.event(self.ended_ns, event)
                self._heard(parse_json(event))
        elif self._body and not self.unparsed:
            self._heard(parse_json(bytes(self._body)))
        self._body = bytearray()

    # -- the kept form -------------------------------------------------------------------

    @property
    def elapsed_ms(self) -> float:
        end = self.ended_ns if self.ended_ns is not None else time.monotonic_ns()
        return round((end - self.started_ns) / 1e6, 2)

    def exchange(self) -> dict[str, Any] | None:
        """What travelled, redacted and bounded (see :mod:`inspector.mcp.wire`)."""
        assert self._recorder is not None
        return self._recorder.exchange()

    def request_header(self, name: str) -> str | None:
        """A header of the agent's request (``name`` in lower case), as sent."""
        return next((value for key, value in self.request_headers if key.lower() == name), None)

    @property
    def error_message(self) -> str | None:
        """The JSON-RPC error's message in the answer, when the server answered with one."""
        if self.answer is None or not isinstance(self.answer.get("error"), dict):
            return None
        error = self.answer["error"]
        message = error.get("message")
        return f"{message} (JSON-RPC error {error.get('code')})" if isinstance(message, str) else \
            f"JSON-RPC error {error.get('code')}"
