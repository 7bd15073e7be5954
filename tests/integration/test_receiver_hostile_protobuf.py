"""Small gzip bodies of millions of tiny protobuf fields, sent to a real receiver on 127.0.0.1 (real HTTP,
a real SQLite file).

A body long enough to hold more spans than the receiver builds at once is walked field by field before
it is parsed, a Python step a field: 16 MiB of two-byte fields in a group (a 16 KB gzip body) took 3.8 s
of CPU, 16 MiB of unknown varint fields 2 s (then taken as a request of no spans). Such a body is now
refused (400) as soon as the walk has seen more than 16 fields that are not messages a message (a group's
fields among them); no OTLP message has more than 12.
"""

from __future__ import annotations

import gzip
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from inspector.capture import ReceiverOptions, TraceReceiver

PROTOBUF = {"Content-Type": "application/x-protobuf", "Content-Encoding": "gzip"}
MIB = 1024 * 1024
CPU_BOUND_S = 1.0
"""Generous (the machine is loaded): the refusal takes some 0.1 s, the walk it ends took 2 to 4 s."""


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[TraceReceiver]:
    with TraceReceiver(tmp_path / "received.db", ReceiverOptions(port=0, quiet_s=0.4)) as running:
        yield running


def _sent(receiver: TraceReceiver, body: bytes) -> tuple[httpx.Response, float]:
    """The answer to ``body`` (sent gzip-compressed) and the CPU time this process (the receiver's threads
    and the client) spent while it was sent and answered."""
    packed = gzip.compress(body, 6)
    began = time.process_time()
    answer = httpx.post(receiver.url, content=packed, headers=PROTOBUF, timeout=120)
    return answer, time.process_time() - began


def _runs(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0]


def _real_request() -> bytes:
    request = ExportTraceServiceRequest()
    span = request.resource_spans.add().scope_spans.add().spans.add()
    span.trace_id, span.span_id, span.name = bytes(range(1, 17)), bytes(range(1, 9)), "a span"
    span.start_time_unix_nano, span.end_time_unix_nano = 1, 2
    return request.SerializeToString()


@pytest.mark.parametrize("tail", [b"\x7b" + b"\x08\x00" * (8 * MIB) + b"\x7c", b"\x7b" + bytes(16 * MIB) + b"\x7c",
                                  b"\x78\x00" * (8 * MIB)],
                         ids=["a-group-of-varint-fields", "a-group-of-zero-bytes", "unknown-varint-fields"])
def test_a_body_of_millions_of_tiny_fields_is_refused_early(receiver: TraceReceiver, tail: bytes) -> None:
    """Field 15 (unknown to the parser, which keeps it as bytes): a group of 16 MiB, or 16 MiB of varints."""
    body = _real_request() + tail
    assert len(gzip.compress(body, 6)) < 30_000  # a small request
    answer, cpu = _sent(receiver, body)
    assert answer.status_code == 400, (answer.status_code, answer.content[:200])
    assert answer.content.decode(errors="replace").endswith(
        "The body holds more than 64 protobuf fields that are not messages for 3 messages, more than OpenTelemetry's "
        "messages have: it is refused unread.")
    assert cpu < CPU_BOUND_S, cpu
    assert _runs(receiver.db_path) == 0


def test_a_large_body_of_spans_with_every_field_set_is_taken(receiver: TraceReceiver) -> None:
    """The most fields a message of OTLP's can have, in a body long enough to be walked: every span's."""
    request = ExportTraceServiceRequest()
    scope_spans = request.resource_spans.add().scope_spans.add()
    for number in range(1, 20_001):
        span = scope_spans.spans.add(trace_id=number.to_bytes(16, "big"), span_id=number.to_bytes(8, "big"),
                                     trace_state="a=b", parent_span_id=bytes(8), flags=1, name="x", kind=1,
                                     start_time_unix_nano=1, end_time_unix_nano=2, dropped_attributes_count=1,
                                     dropped_events_count=1, dropped_links_count=1)
        span.parent_span_id = b""
    body = request.SerializeToString()
    assert len(body) * 390 > 512_000_000  # walked before it is parsed
    answer, _ = _sent(receiver, body)
    assert answer.status_code == 200, answer.content[:300]
