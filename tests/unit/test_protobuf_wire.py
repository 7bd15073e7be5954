"""Counting a protobuf body's messages from its wire bytes (inspector/capture/protobuf_wire.py), checked
against real requests made with the official messages."""

from __future__ import annotations

import time

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue

from inspector.capture.protobuf_wire import Refused, estimate

MIB = 1024 * 1024
SPAN, KEY_VALUE = "opentelemetry.proto.trace.v1.Span", "opentelemetry.proto.common.v1.KeyValue"
WEIGHTS = {SPAN: 1000, KEY_VALUE: 10}


def _request(spans: int, attributes: int) -> ExportTraceServiceRequest:
    request = ExportTraceServiceRequest()
    scope_spans = request.resource_spans.add().scope_spans.add()
    for number in range(spans):
        span = scope_spans.spans.add()
        span.trace_id, span.span_id, span.name = bytes(16), number.to_bytes(8, "big"), "x" * 300
        span.start_time_unix_nano, span.end_time_unix_nano = 2**63 - 1, 2**63 - 1
        for index in range(attributes):
            added = span.attributes.add()
            added.key, added.value.int_value = f"k{index}", -1  # a ten-byte varint
    return request


def test_every_message_is_counted_by_its_type_and_strings_are_skipped() -> None:
    body = _request(3, 4).SerializeToString()
    # 1 resource_spans, 1 scope_spans (1 each), 3 spans, 12 key-values, 12 values (1 each)
    assert estimate(body, ExportTraceServiceRequest.DESCRIPTOR, WEIGHTS, 1, 10**9) == 2 + 3000 + 120 + 12


def test_nested_values_are_counted_and_the_count_stops_past_its_limit() -> None:
    value = AnyValue(string_value="leaf")
    for _ in range(50):
        value = AnyValue(array_value={"values": [value]})
    request = _request(1, 0)
    request.resource_spans[0].scope_spans[0].spans[0].attributes.add(key="deep", value=value)
    body = request.SerializeToString()
    assert estimate(body, ExportTraceServiceRequest.DESCRIPTOR, WEIGHTS, 1, 10**9) == 2 + 1000 + 10 + 51 + 50
    assert estimate(body, ExportTraceServiceRequest.DESCRIPTOR, WEIGHTS, 1, 1005) == 1012  # stopped there


def test_bytes_that_are_not_protobuf_end_the_count_without_an_error() -> None:
    body = _request(2, 2).SerializeToString()
    for cut in (body[:-1], body[:7], b"\xff" * 20, b"\x0b\x0c", b"\x0a\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"):
        assert estimate(cut, ExportTraceServiceRequest.DESCRIPTOR, WEIGHTS, 1, 10**9) <= 2 + 2000 + 40 + 4



def test_groups_the_parser_keeps_as_unknown_bytes_are_stepped_over_and_what_follows_counted() -> None:
    """A group (wire types 3 and 4, which OTLP does not use) ended the count: two bytes of one in front of
    millions of empty spans hid them all from it, and the parser built every one (it takes the group)."""
    request = _request(3, 4)
    body = request.SerializeToString()
    # field 9: a varint, a length-delimited field, a group of field 3 holding one, a fixed64; then its end
    group = b"\x4b" + b"\x08\x01" + b"\x12\x02\x12\x00" + b"\x1b\x3a\x00\x1c" + b"\x09" + bytes(8) + b"\x4c"
    spans = b"".join(_field(2, group + span.SerializeToString())
                     for span in request.resource_spans[0].scope_spans[0].spans)
    in_spans = _field(1, _field(2, spans))  # each span begins with the group
    for changed in (group + body, body + group, in_spans, b"\x13\x14" + body):
        parsed = ExportTraceServiceRequest.FromString(changed)  # the parser takes it
        assert len(parsed.resource_spans[0].scope_spans[0].spans) == 3
        assert estimate(changed, ExportTraceServiceRequest.DESCRIPTOR, WEIGHTS, 1, 10**9) == 2 + 3000 + 120 + 12


def test_fields_that_are_not_messages_are_refused_past_16_a_message() -> None:
    """16 MiB of unknown varint fields took 2 s of CPU to walk (and were then taken as a request of no spans).
    The field past the bound is seen when the next one is read."""
    unknown = b"\x78\x00"  # field 15, varint 0
    assert estimate(unknown * 16, ExportTraceServiceRequest.DESCRIPTOR, WEIGHTS, 1, 10**9) == 0
    assert estimate(b"\x0a\x00" + unknown * 32, ExportTraceServiceRequest.DESCRIPTOR, WEIGHTS, 1, 10**9) == 1
    in_a_group = b"\x0a\x00" + b"\x7b" + unknown * 8 * MIB + b"\x7c"  # 16 MiB of them in a group: 3.8 s
    for body, messages in ((unknown * 18, 0), (b"\x0a\x00" + unknown * 34, 1), (unknown * 8 * MIB, 0),
                           (in_a_group, 1)):
        began = time.process_time()
        with pytest.raises(Refused) as refused:
            estimate(body, ExportTraceServiceRequest.DESCRIPTOR, WEIGHTS, 1, 10**9)
        assert time.process_time() - began < 0.5
        assert (refused.value.fields, refused.value.messages) == (16 * (messages + 1) + 1, messages)


def _field(number: int, message: bytes) -> bytes:
    length, size = bytearray(), len(message)
    while size > 0x7F:
        length.append(size & 0x7F | 0x80)
        size >>= 7
    return bytes([number << 3 | 2]) + bytes(length) + bytes([size]) + message


def test_a_key_of_field_number_0_ends_the_count_at_once() -> None:
    """Bytes of zero read as fields of number 0 (which no protobuf has: the parser refuses them), each a
    key and a varint: 16 MiB of them, after a resource's key and a ten-byte length, took 3 s of CPU to walk
    to their end before the parser refused the body."""
    body = b"\x0a" + b"\x80" * 9 + b"\x01" + bytes(16 * 1024 * 1024)
    began = time.process_time()
    assert estimate(body, ExportTraceServiceRequest.DESCRIPTOR, WEIGHTS, 1, 10**9) == 1  # the resource alone
    assert time.process_time() - began < 0.5
