"""Small fake Jaeger and Tempo query services on 127.0.0.1 (real HTTP) serving real OTLP JSON.

The traces are the recorded ones of tests/fixtures/otel/ (the mcp SDK's own spans), shaped as each
backend answers: Jaeger's v3 API wraps the trace as ``{"result": ...}`` (or one such object per line
when streamed); Tempo's older API answers ``{"batches": ...}`` with base64 ids, span kinds by name
and ``instrumentationLibrarySpans``, its newer one ``{"resourceSpans": ...}``.
"""

from __future__ import annotations

import base64
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "otel" / "mcp_sdk.jsonl"
_KINDS = {0: "SPAN_KIND_UNSPECIFIED", 1: "SPAN_KIND_INTERNAL", 2: "SPAN_KIND_SERVER", 3: "SPAN_KIND_CLIENT",
          4: "SPAN_KIND_PRODUCER", 5: "SPAN_KIND_CONSUMER"}


def write_body(out: Any, body: bytes, trickle_s: float | None) -> None:
    """``body`` at once, or (``trickle_s``) a byte at a time, that many seconds apart: a service that dribbles."""
    if trickle_s is None:
        out.write(body)
        return
    for index in range(len(body)):
        out.write(body[index:index + 1])
        out.flush()
        time.sleep(trickle_s)


def fixture_trace(trace_id: str, fixture: Path = FIXTURE) -> dict[str, Any]:
    """The spans of one trace of the fixture file (another of tests/fixtures/otel/ given), as one OTLP JSON
    document."""
    resource_spans = []
    for line in fixture.read_text(encoding="utf-8").splitlines():
        for item in json.loads(line)["resourceSpans"]:
            scopes = [{**scope, "spans": [span for span in scope["spans"] if span["traceId"] == trace_id]}
                      for scope in item["scopeSpans"]]
            scopes = [scope for scope in scopes if scope["spans"]]
            if scopes:
                resource_spans.append({**item, "scopeSpans": scopes})
    return {"resourceSpans": resource_spans}


def fixture_trace_ids(fixture: Path = FIXTURE) -> list[str]:
    ids: list[str] = []
    for line in fixture.read_text(encoding="utf-8").splitlines():
        for item in json.loads(line)["resourceSpans"]:
            for scope in item["scopeSpans"]:
                for span in scope["spans"]:
                    if span["traceId"] not in ids:
                        ids.append(span["traceId"])
    return ids


def as_old_tempo(document: dict[str, Any]) -> dict[str, Any]:
    """Tempo before 2.0: batches, instrumentationLibrarySpans, base64 ids, kinds by name."""
    def span(record: dict[str, Any]) -> dict[str, Any]:
        shaped = dict(record)
        for key in ("traceId", "spanId", "parentSpanId"):
            if shaped.get(key):
                shaped[key] = base64.b64encode(bytes.fromhex(shaped[key])).decode()
        shaped["kind"] = _KINDS[int(shaped.get("kind", 0))]
        return shaped

    return {"batches": [{"resource": item.get("resource", {}),
                         "instrumentationLibrarySpans": [
                             {"instrumentationLibrary": scope.get("scope", {}),
                              "spans": [span(record) for record in scope["spans"]]}
                             for scope in item["scopeSpans"]]}
                        for item in document["resourceSpans"]]}


@dataclass
class Route:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    #: False: no Content-Length, the body ends when the connection closes.
    declare_length: bool = True
    #: True: the connection is closed without any answer.
    hang_up: bool = False
    #: When given, the answer waits until it is set (a query service slow to answer), 30 s at most.
    hold: threading.Event | None = None
    #: When given, the body is sent a byte at a time, this many seconds apart (a slow-loris answer).
    trickle_s: float | None = None


class TraceBackend:
    """An HTTP server answering ``routes`` (path → Route); ``hits`` counts requests per path."""

    def __init__(self) -> None:
        self.routes: dict[str, Route] = {}
        self.hits: dict[str, int] = {}
        self.accept_seen: list[str] = []
        backend = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802
                backend.hits[self.path] = backend.hits.get(self.path, 0) + 1
                backend.accept_seen.append(self.headers.get("Accept", ""))
                route = backend.routes.get(self.path, Route(404, b'{"error": {"httpCode": 404}}'))
                if route.hold is not None:
                    route.hold.wait(30)
                if route.hang_up:
                    self.close_connection = True
                    return
                self.send_response(route.status)
                for name, value in route.headers.items():
                    self.send_header(name, value)
                if route.declare_length:
                    self.send_header("Content-Length", str(len(route.body)))
                else:
                    self.send_header("Connection", "close")
                    self.close_connection = True
                self.end_headers()
                try:
                    write_body(self.wfile, route.body, route.trickle_s)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client stopped reading a body it found too large

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.base = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def serve_json(self, path: str, document: Any) -> None:
        self.routes[path] = Route(body=json.dumps(document).encode())

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)


@contextmanager
def trace_backend() -> Iterator[TraceBackend]:
    backend = TraceBackend()
    backend.start()
    try:
        yield backend
    finally:
        backend.stop()
