"""A small OTLP/HTTP trace receiver on 127.0.0.1, built on ``opentelemetry-proto``: the collector a
push is tested against.

Every request body is read into the protocol's own ``ExportTraceServiceRequest`` (protobuf as is;
OTLP JSON with its hex ids turned into the bytes protobuf's JSON mapping expects), so a body that is
not a valid export request is answered 400, as a real collector does. Answers can be scripted
(``answers``: status, headers, body, one per request), and the receiver stopped and started again on
the same port, keeping what it received.
"""

from __future__ import annotations

import base64
import gzip
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from tests.support.trace_backends import write_body

_ID_KEYS = ("traceId", "spanId", "parentSpanId")


def hex_ids_to_bytes(value: Any) -> Any:
    """OTLP JSON (hex ids) → protobuf's JSON mapping (ids as base64 of their bytes)."""
    if isinstance(value, dict):
        return {key: (base64.b64encode(bytes.fromhex(item)).decode() if key in _ID_KEYS and isinstance(item, str)
                      and item else hex_ids_to_bytes(item)) for key, item in value.items()}
    if isinstance(value, list):
        return [hex_ids_to_bytes(item) for item in value]
    return value


@dataclass
class Answer:
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b"{}"
    #: When given, the answer waits until it is set (a collector slow to answer).
    hold: threading.Event | None = None
    #: When given, the body is sent a byte at a time, this many seconds apart (a collector that dribbles).
    trickle_s: float | None = None


class OtlpCollector:
    """The receiver. ``requests`` holds every parsed export request that was answered 2xx."""

    def __init__(self, port: int = 0) -> None:
        self.port = port
        self.requests: list[ExportTraceServiceRequest] = []
        self.headers_seen: list[dict[str, str]] = []
        #: The path of each request taken, with its query.
        self.paths_seen: list[str] = []
        #: The path and the Authorization value (``None``: none) of every request, taken or not.
        self.asked: list[tuple[str, str | None]] = []
        self.answers: list[Answer] = []
        self.hits = 0
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.arrived = threading.Condition(self._lock)

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        collector = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 - the standard library's name
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                answer = collector._answer(self.path, dict(self.headers.items()), self.headers.get("Content-Type", ""),
                                           self.headers.get("Content-Encoding", ""), body)
                if answer.hold is not None:
                    answer.hold.wait(20)
                try:
                    self.send_response(answer.status)
                    for name, value in answer.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(answer.body)))
                    self.end_headers()
                    write_body(self.wfile, answer.body, answer.trickle_s)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client left while the answer was held (stopped mid-push)

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            assert self._thread is not None
            self._thread.join(5)
            self._server = None

    def _answer(self, path: str, headers: dict[str, str], content_type: str, encoding: str, body: bytes) -> Answer:
        with self._lock:
            self.hits += 1
            self.asked.append((path, {name.lower(): value for name, value in headers.items()}.get("authorization")))
            if path.partition("?")[0] != "/v1/traces":
                return Answer(404, body=b'{"message": "not found"}')
            if self.answers:
                answer = self.answers.pop(0)
                if answer.status >= 300:
                    return answer
            else:
                answer = Answer()
            try:
                request = _parse(content_type, encoding, body)
            except (ValueError, json_format.ParseError) as error:
                return Answer(400, body=json.dumps({"message": str(error)[:200]}).encode())
            self.requests.append(request)
            self.headers_seen.append({name.lower(): value for name, value in headers.items()})
            self.paths_seen.append(path)
            self.arrived.notify_all()
            return answer

    def spans(self) -> list[Any]:
        """Every span received, in order."""
        with self._lock:
            return [span for request in self.requests for resource in request.resource_spans
                    for scope in resource.scope_spans for span in scope.spans]

    def wait_for_requests(self, count: int, timeout: float = 10.0) -> bool:
        with self._lock:
            return self.arrived.wait_for(lambda: len(self.requests) >= count, timeout)

    def as_otlp_json(self) -> dict[str, Any]:
        """Everything received, as one OTLP JSON document (protobuf's JSON mapping: base64 ids)."""
        with self._lock:
            resource_spans = [item for request in self.requests
                              for item in json_format.MessageToDict(request).get("resourceSpans", [])]
        return {"resourceSpans": resource_spans}


def _parse(content_type: str, encoding: str, body: bytes) -> ExportTraceServiceRequest:
    if encoding == "gzip":
        body = gzip.decompress(body)
    request = ExportTraceServiceRequest()
    if content_type.startswith("application/x-protobuf"):
        request.ParseFromString(body)
    elif content_type.startswith("application/json"):
        json_format.ParseDict(hex_ids_to_bytes(json.loads(body)), request)
    else:
        raise ValueError(f"unsupported content type {content_type!r}")
    return request


@contextmanager
def running_collector(port: int = 0) -> Iterator[OtlpCollector]:
    collector = OtlpCollector(port)
    collector.start()
    try:
        yield collector
    finally:
        collector.stop()
