"""Spans too large to take, sent to a real receiver on 127.0.0.1 (real HTTP, a real SQLite file).

A protobuf body grows some forty times as Python objects: a 10 MB gzip body of one span with 3
million attributes took the receiver 2.6 GB and 36 s, and the span was kept although an import
refuses it (a record over 32 MB estimated). Now a span's size is told from the lengths of its
repeated fields before it is built: a span over the import's limit is refused in the answer's
partial_success (the others are kept), and a body whose spans together would pass
MAX_REQUEST_ESTIMATE is refused (413) before any is built (0.4 s and 388 MB for that body).
"""

from __future__ import annotations

import gzip
import json
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

from inspector.capture import ReceiverOptions, TraceReceiver
from inspector.capture.otlp_body import MAX_REQUEST_ESTIMATE, MAX_UNPACKED_BYTES
from inspector.traces.format import MAX_RECORD_BYTES

PROTOBUF = {"Content-Type": "application/x-protobuf", "Content-Encoding": "gzip"}
ATTRIBUTE = 480  # what an attribute takes as Python objects (dict, value dict, key and value)


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[TraceReceiver]:
    with TraceReceiver(tmp_path / "received.db", ReceiverOptions(port=0, quiet_s=0.4)) as running:
        yield running


def _span(request: ExportTraceServiceRequest, trace: int, attributes: int) -> None:
    span = request.resource_spans[0].scope_spans[0].spans.add()
    span.trace_id, span.span_id = trace.to_bytes(16, "big"), (1).to_bytes(8, "big")
    span.name, span.start_time_unix_nano, span.end_time_unix_nano = f"span {trace}", 1, 2
    for index in range(attributes):
        added = span.attributes.add()
        added.key, added.value.int_value = f"k{index}", index


def _request() -> ExportTraceServiceRequest:
    request = ExportTraceServiceRequest()
    request.resource_spans.add().scope_spans.add()
    return request


def _titles(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [row[0] for row in conn.execute("SELECT title FROM runs ORDER BY title")]


def test_a_span_larger_than_an_import_takes_is_refused_and_the_others_kept(receiver: TraceReceiver) -> None:
    request = _request()
    _span(request, 1, MAX_RECORD_BYTES // ATTRIBUTE + 10_000)
    _span(request, 2, 3)
    answer = httpx.post(receiver.url, content=gzip.compress(request.SerializeToString(), 1), headers=PROTOBUF,
                        timeout=60)
    assert answer.status_code == 200
    response = ExportTraceServiceResponse.FromString(answer.content)
    assert response.partial_success.rejected_spans == 1
    assert response.partial_success.error_message == ("spans[0]: the span is larger than the limit of 32 MB "
                                                      "(estimated in memory)")
    assert _titles(receiver.db_path) == ["span 2"]


def test_a_body_of_more_than_it_builds_at_once_is_refused_before_building(receiver: TraceReceiver) -> None:
    """Spans each within the limit, together past MAX_REQUEST_ESTIMATE: 413, nothing stored."""
    request = _request()
    per_span = MAX_RECORD_BYTES // ATTRIBUTE - 1_000
    _span(request, 1, per_span)
    spans = request.resource_spans[0].scope_spans[0].spans
    spans.extend([spans[0]] * (MAX_REQUEST_ESTIMATE // (per_span * ATTRIBUTE)))
    answer = httpx.post(receiver.url, content=gzip.compress(request.SerializeToString(), 1), headers=PROTOBUF,
                        timeout=60)
    assert answer.status_code == 413, answer.status_code
    assert "more spans and attributes than the receiver builds at once (over 512 MB in memory): send smaller " \
           "batches" in answer.content.decode(errors="replace")
    assert _titles(receiver.db_path) == []


def test_a_json_body_of_millions_of_objects_is_refused_before_it_is_parsed(receiver: TraceReceiver) -> None:
    objects = MAX_REQUEST_ESTIMATE // 160 + 1_000
    body = (b'{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"0af7651916cd43dd8448eb211c80319c",'
            b'"spanId":"b7ad6b7169203331","name":"n","startTimeUnixNano":"1","endTimeUnixNano":"2","attributes":['
            + b",".join([b"{}"] * objects) + b"]}]}]}]}")
    answer = httpx.post(receiver.url, content=gzip.compress(body, 1), timeout=60,
                        headers={"Content-Type": "application/json", "Content-Encoding": "gzip"})
    assert answer.status_code == 413
    assert "send smaller batches" in answer.json()["message"]
    assert _titles(receiver.db_path) == []


def _json_span(trace: int, attributes: int) -> dict[str, object]:
    return {"traceId": f"{trace:032x}", "spanId": f"{1:016x}", "name": f"span {trace}", "startTimeUnixNano": "1",
            "endTimeUnixNano": "2",
            "attributes": [{"key": f"k{index}", "value": {"intValue": str(index)}} for index in range(attributes)]}


def test_a_json_span_larger_than_an_import_takes_is_refused_as_a_protobuf_one_is(receiver: TraceReceiver,
                                                                                tmp_path: Path) -> None:
    """The JSON path refuses the span an import refuses (its estimate past 32 MB), in partial_success,
    with the protobuf path's words; the other spans of the body are kept."""
    import json

    from inspector.store import RunStore
    from inspector.transfer import TraceImportError, import_trace

    big = _json_span(1, MAX_RECORD_BYTES // 440 + 1_000)
    document = {"resourceSpans": [{"resource": {}, "scopeSpans": [{"scope": {}, "spans": [big, _json_span(2, 3)]}]}]}
    body = json.dumps(document).encode()
    answer = httpx.post(receiver.url, content=gzip.compress(body, 1),
                        headers={"Content-Type": "application/json", "Content-Encoding": "gzip"}, timeout=60)
    assert answer.status_code == 200
    assert answer.json()["partialSuccess"] == {
        "rejectedSpans": "1",
        "errorMessage": "spans[0]: the span is larger than the limit of 32 MB (estimated in memory)"}
    assert _titles(receiver.db_path) == ["span 2"]
    alone = tmp_path / "big.json"
    alone.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [big]}]}]}), encoding="utf-8")
    with pytest.raises(TraceImportError, match="larger than the limit of 32 MB"):  # as an import refuses it
        import_trace(RunStore.open(tmp_path / "imported.db"), alone)


def _peak_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        return next(int(line.split()[1]) / 1024 for line in status if line.startswith("VmHWM:"))


def _sent_to_the_command(tmp_path: Path, body: bytes, headers: dict[str, str]) -> tuple[httpx.Response, float, str]:
    """``body`` (gzip-compressed here) sent to the receive command: its answer, how much the command's peak memory
    grew (MB), and what it said on stderr; a small request sent after it was stored (it goes on serving)."""
    assert len(body) < MAX_UNPACKED_BYTES
    process = subprocess.Popen([sys.executable, "-m", "inspector", "receive", "--port", "0", "--json", "--db",
                                str(tmp_path / "r.db")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = json.loads(process.stdout.readline())["url"]
        before = _peak_mb(process.pid)
        answer = httpx.post(url, content=gzip.compress(body), headers={**headers, "Content-Encoding": "gzip"},
                            timeout=120)
        grown = _peak_mb(process.pid) - before
        request = _request()
        _span(request, 1, 3)
        assert httpx.post(url, content=gzip.compress(request.SerializeToString()), headers=PROTOBUF).status_code == 200
    finally:
        process.terminate()
        _, said = process.communicate(timeout=30)
    return answer, grown, said


@pytest.mark.parametrize("front", [b"", b"\x4b\x4c"], ids=["spans", "after an empty group"])
def test_a_small_body_of_millions_of_empty_messages_is_refused_before_it_is_parsed(tmp_path: Path,
                                                                                  front: bytes) -> None:
    """An empty span is two bytes on the wire: 10 KB of gzip unpacked to 5 million of them (10 MB), which
    the protobuf parser built before the spans could be counted (the receive command's peak grew by 881 MB
    in 13 s for this body; 5.3 GB and 82 s for 30 million). Now they are counted from the wire first: 413,
    19 MB more, and the receiver goes on serving. An empty group in front (an unknown field the parser
    takes) ended that count at once: the same 881 MB."""
    spans = b"\x12\x00" * 5_000_000  # ScopeSpans.spans, each empty
    scope_spans = b"\x12" + _varint(len(spans)) + spans
    body = front + b"\x0a" + _varint(len(scope_spans)) + scope_spans  # one resource_spans holding it
    answer, grown, said = _sent_to_the_command(tmp_path, body, PROTOBUF)
    assert answer.status_code == 413
    assert "more spans and attributes than the receiver builds at once" in answer.content.decode(errors="replace")
    assert grown < 150, f"the receiver's peak grew by {grown:.0f} MB"
    assert "A request was refused: The body holds more spans and attributes" in said


def test_a_small_json_body_of_millions_of_numbers_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    """Only objects and lists were counted before a JSON body was read: 58 KB of gzip holding 15 million numbers
    (60 MB) took the receive command 1.8 GB and 20 s (12 million short strings: 1.8 GB) before it was answered
    (200 when they were an attribute's). Now the values after commas count too: 413 before it is read."""
    body = b'{"resourceSpans":[' + b"1.5," * 12_000_000 + b'0]}'
    answer, grown, said = _sent_to_the_command(tmp_path, body, {"Content-Type": "application/json"})
    assert answer.status_code == 413
    assert "more spans and attributes than the receiver builds at once" in answer.json()["message"]
    assert grown < 150, f"the receiver's peak grew by {grown:.0f} MB"
    assert "A request was refused: The body holds more spans and attributes" in said


def test_a_lone_surrogate_after_millions_of_numbers_is_found_without_a_place_for_each(tmp_path: Path) -> None:
    """A body within the estimate (3 million numbers, then a string that is not text) is read, then walked for
    lone surrogates: the walk held every item with its place (the command's peak grew by 850 MB in 13 s; 2.9 GB
    and 89 s for 10 million numbers); now only the lists and objects on the way down (146 MB, the body's own)."""
    body = b'{"resourceSpans":[' + b"1.5," * 3_000_000 + b'"\\ud800"]}'
    answer, grown, said = _sent_to_the_command(tmp_path, body, {"Content-Type": "application/json"})
    assert answer.status_code == 400
    assert answer.json()["message"] == ("The body holds a string that is not text (an escaped lone surrogate) at "
                                        "resourceSpans[3000000]: nothing of it was stored.")
    assert grown < 250, f"the receiver's peak grew by {grown:.0f} MB"
    assert "A request was refused: The body holds a string that is not text" in said


def _varint(number: int) -> bytes:
    out = bytearray()
    while number > 0x7F:
        out.append(number & 0x7F | 0x80)
        number >>= 7
    return bytes(out + bytes([number]))
