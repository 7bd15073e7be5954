"""Request and answer bodies of the OTLP receiver (inspector/capture/otlp_body.py), read by the official messages."""

from __future__ import annotations

import gzip
import zlib

import pytest
from google.rpc.status_pb2 import Status
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, ArrayValue, KeyValue, KeyValueList

from inspector.capture import otlp_body
from inspector.traces.otlp import read_attributes, read_span


def _request() -> ExportTraceServiceRequest:
    request = ExportTraceServiceRequest()
    resource_spans = request.resource_spans.add()
    resource_spans.resource.attributes.append(KeyValue(key="service.name", value=AnyValue(string_value="agent")))
    scope_spans = resource_spans.scope_spans.add()
    scope_spans.scope.name, scope_spans.scope.version = "support-agent", "1.0"
    span = scope_spans.spans.add()
    span.trace_id, span.span_id, span.parent_span_id = bytes(range(1, 17)), bytes(range(1, 9)), bytes(range(9, 17))
    span.name, span.kind = "execute_tool lookup", 3
    span.start_time_unix_nano, span.end_time_unix_nano = 1_700_000_000_000_000_000, 1_700_000_000_500_000_000
    span.status.code, span.status.message = 2, "boom"
    values = {"s": AnyValue(string_value="text"), "b": AnyValue(bool_value=True), "i": AnyValue(int_value=-(2**62)),
              "d": AnyValue(double_value=0.5), "raw": AnyValue(bytes_value=b"\x00\xff"),
              "list": AnyValue(array_value=ArrayValue(values=[AnyValue(int_value=1), AnyValue(string_value="x")])),
              "map": AnyValue(kvlist_value=KeyValueList(values=[KeyValue(key="k", value=AnyValue(bool_value=False))])),
              "empty": AnyValue()}
    span.attributes.extend(KeyValue(key=key, value=value) for key, value in values.items())
    event = span.events.add()
    event.name, event.time_unix_nano = "exception", 1_700_000_000_100_000_000
    event.attributes.append(KeyValue(key="exception.type", value=AnyValue(string_value="ValueError")))
    link = span.links.add()
    link.trace_id, link.span_id, link.trace_state = bytes(range(2, 18)), bytes(range(2, 10)), "a=b"
    span.dropped_events_count = 3
    return request


def test_a_protobuf_span_reads_as_the_same_span_in_otlp_json() -> None:
    (held,) = otlp_body.read_request(_request().SerializeToString(), otlp_body.PROTOBUF)
    span = read_span(held.span, ("spans", 0))
    assert (span.trace_id, span.span_id, span.parent_id) == (bytes(range(1, 17)).hex(), bytes(range(1, 9)).hex(),
                                                             bytes(range(9, 17)).hex())
    assert (span.name, span.kind, span.status_code, span.status_message) == ("execute_tool lookup", 3, 2, "boom")
    assert span.end_ns - span.start_ns == 500_000_000
    assert span.attributes == {"s": "text", "b": True, "i": -(2**62), "d": 0.5, "raw": "AP8=", "list": [1, "x"],
                               "map": {"k": False}, "empty": None}
    assert span.events[0]["name"] == "exception" and span.events[0]["attributes"] == {"exception.type": "ValueError"}
    assert span.links[0]["traceState"] == "a=b" and span.dropped_events == 3
    assert read_attributes(held.resource["attributes"], ()) == {"service.name": "agent"}
    assert held.scope["name"] == "support-agent" and held.scope["version"] == "1.0"


def test_answers_parse_with_the_official_messages() -> None:
    whole = ExportTraceServiceResponse.FromString(otlp_body.success_body(otlp_body.PROTOBUF))
    assert not whole.HasField("partial_success")
    partial = ExportTraceServiceResponse.FromString(otlp_body.success_body(otlp_body.PROTOBUF, 2, "why"))
    assert (partial.partial_success.rejected_spans, partial.partial_success.error_message) == (2, "why")
    long_message = "ü" * 300  # a length over 127 takes two bytes of varint
    status = Status.FromString(otlp_body.status_body(otlp_body.PROTOBUF, long_message))
    assert (status.code, status.message) == (3, long_message)


@pytest.mark.parametrize(("header", "expected"), [("application/json; charset=utf-8", "application/json"),
                                                  (" Application/X-Protobuf ", "application/x-protobuf"),
                                                  (None, "")])
def test_media_type(header: str | None, expected: str) -> None:
    assert otlp_body.media_type(header) == expected


def test_unpacking_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    assert otlp_body.unpack(gzip.compress(b"{}"), "gzip") == b"{}"
    assert otlp_body.unpack(b"{}", None) == b"{}"
    monkeypatch.setattr(otlp_body, "MAX_UNPACKED_BYTES", 1000)
    assert otlp_body.unpack(gzip.compress(b"x" * 1000), "GZIP") == b"x" * 1000
    with pytest.raises(otlp_body.BadBody) as bomb:
        otlp_body.unpack(gzip.compress(b"x" * 1001), "gzip")
    assert bomb.value.status == 413
    assert otlp_body.unpack(zlib.compress(b"x" * 1000), "deflate") == b"x" * 1000  # zlib's format, as HTTP's
    with pytest.raises(otlp_body.BadBody) as deflate_bomb:
        otlp_body.unpack(zlib.compress(b"x" * 1001), "deflate")
    assert deflate_bomb.value.status == 413
    with pytest.raises(otlp_body.BadBody) as unknown:
        otlp_body.unpack(b"{}", "br")
    assert unknown.value.status == 415
