"""A protobuf ``ExportTraceServiceRequest`` read into spans as OTLP JSON, within a memory budget.

A protobuf body grows some forty times as Python objects (an attribute of 14 bytes on the wire is two
dicts and their strings, about 480 bytes), so what a request's spans take is told before they are
built: from the lengths of their repeated fields first (free: a body of 3 million attributes is
refused without one being made), then while nested values are built. A span larger than an import
takes (:data:`MAX_RECORD_BYTES`) is left out and said; a request past
:data:`~inspector.capture.otlp_body.MAX_REQUEST_ESTIMATE` is refused (413).
"""

from __future__ import annotations

import base64
import math
from typing import Any

from inspector.i18n import N_
from inspector.i18n.messages import NP_, Message
from inspector.runs.finite import not_finite_text
from inspector.traces.format import MAX_RECORD_BYTES
from inspector.traces.span_batch import HeldSpan

from . import protobuf_wire
from .otlp_body import MAX_REQUEST_ESTIMATE, OBJECT_ESTIMATE, BadBody, span_too_big, too_many_objects

_OBJECT = OBJECT_ESTIMATE
_KEY_VALUE = 3 * _OBJECT
"""An attribute: its object and its value's object, their keys and small values (about 480 bytes
in CPython 3.11)."""
_SPAN = 3 * _OBJECT + 300
"""A span's own object, its status and attributes list, its keys and ids."""
_LIMIT_MB = MAX_RECORD_BYTES // 1_000_000
_WIRE_WEIGHTS = {"opentelemetry.proto.trace.v1.Span": _SPAN, "opentelemetry.proto.common.v1.KeyValue": 2 * _OBJECT}
"""What a message of these types is estimated to take when the body's wire bytes are walked
(:mod:`.protobuf_wire`; any other message: :data:`_OBJECT`; an attribute's value is a message of its own)."""
_MOST_PER_BYTE = _SPAN // 2
"""The most a byte of protobuf can add to that estimate (an empty span: two bytes)."""


class _Budget:
    """The estimated memory a request's spans may still take, and the span being built's share."""

    def __init__(self) -> None:
        self.request = MAX_REQUEST_ESTIMATE
        self.span = self.spent = 0

    def begin(self) -> None:
        """A span (or a resource or scope) is built next."""
        self.span, self.spent = MAX_RECORD_BYTES, 0

    def spend(self, size: int) -> None:
        if size > self.span:
            self.request += self.spent  # none of it is kept
            raise _SpanTooBig
        self.span -= size
        self.spent += size
        self.request -= size
        if self.request < 0:
            raise too_many_objects()


def _shallow_size(span: Any) -> int:
    """What ``_span`` spends on ``span`` but for values nested in its attributes: counted from the
    lengths of its repeated fields, without building anything."""
    return (_SPAN + _OBJECT + len(span.attributes) * _KEY_VALUE
            + sum(2 * _OBJECT + len(event.attributes) * _KEY_VALUE for event in span.events)
            + sum(2 * _OBJECT + len(link.attributes) * _KEY_VALUE for link in span.links))


class _SpanTooBig(Exception):
    """The span being built is larger than an import takes."""


def from_protobuf(body: bytes, refused: list[Message], *, strict: bool) -> list[HeldSpan]:
    """The spans of the request ``body``; a span too large is said in ``refused`` (``strict``: the body
    is refused instead)."""
    from google.protobuf.message import DecodeError
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

    request = ExportTraceServiceRequest()
    # Parsing builds every message of the body: one that may hold more than is built at once is walked first.
    if len(body) * _MOST_PER_BYTE > MAX_REQUEST_ESTIMATE and _walked(body, request.DESCRIPTOR) > MAX_REQUEST_ESTIMATE:
        raise too_many_objects()
    try:
        request.ParseFromString(body)
    except (DecodeError, RecursionError, ValueError) as error:
        raise BadBody(Message(N_("The body is not a protobuf ExportTraceServiceRequest ({reason})."),
                              {"reason": str(error)[:200] or type(error).__name__})) from None
    # First the sizes the spans' lengths tell (no span is built for a request too large to take).
    total = sum(size for resource_spans in request.resource_spans for scope_spans in resource_spans.scope_spans
                for span in scope_spans.spans if (size := _shallow_size(span)) <= MAX_RECORD_BYTES)
    if total > MAX_REQUEST_ESTIMATE:
        raise too_many_objects()
    try:
        return _built(request, refused, strict=strict)
    except _SpanTooBig:  # a resource's or scope's attributes (a span's are said in refused)
        raise BadBody(Message(N_("A resource or scope of the body is larger than the limit of {limit} MB (estimated "
                                 "in memory)."), {"limit": _LIMIT_MB}), 413) from None


def _walked(body: bytes, descriptor: Any) -> int:
    """The estimate of ``body``'s messages from its wire bytes; a body no exporter sends is refused (400)."""
    try:
        return protobuf_wire.estimate(body, descriptor, _WIRE_WEIGHTS, _OBJECT, MAX_REQUEST_ESTIMATE)
    except protobuf_wire.Refused as refused:
        raise BadBody(NP_("The body holds more than {fields} protobuf fields that are not messages for {messages} "
                          "message, more than OpenTelemetry's messages have: it is refused unread.",
                          "The body holds more than {fields} protobuf fields that are not messages for {messages} "
                          "messages, more than OpenTelemetry's messages have: it is refused unread.",
                          {"fields": refused.fields - 1, "messages": refused.messages}, "messages")) from None


def _built(request: Any, refused: list[Message], *, strict: bool) -> list[HeldSpan]:
    spans: list[HeldSpan] = []
    budget = _Budget()
    index = 0
    for resource_spans in request.resource_spans:
        budget.begin()
        resource = {"attributes": _key_values(resource_spans.resource.attributes, budget)}
        for scope_spans in resource_spans.scope_spans:
            found = scope_spans.scope
            budget.begin()
            scope = {"name": found.name, "version": found.version,
                     "attributes": _key_values(found.attributes, budget)}
            for span in scope_spans.spans:
                budget.begin()
                try:
                    spans.append(HeldSpan(resource, scope, _span(span, budget)))
                except _SpanTooBig:
                    problem = span_too_big(index)
                    if strict:
                        raise BadBody(problem, 413) from None
                    refused.append(problem)
                index += 1
    return spans


def _span(span: Any, budget: _Budget) -> dict[str, Any]:
    budget.spend(_SPAN + len(span.events) * (2 * _OBJECT) + len(span.links) * (2 * _OBJECT))
    record: dict[str, Any] = {"traceId": span.trace_id.hex(), "spanId": span.span_id.hex()}
    if span.parent_span_id:
        record["parentSpanId"] = span.parent_span_id.hex()
    record.update(name=span.name, kind=span.kind, startTimeUnixNano=span.start_time_unix_nano,
                  endTimeUnixNano=span.end_time_unix_nano, attributes=_key_values(span.attributes, budget),
                  status={"code": span.status.code, "message": span.status.message})
    if span.events:
        record["events"] = [{"timeUnixNano": event.time_unix_nano, "name": event.name,
                             "attributes": _key_values(event.attributes, budget)} for event in span.events]
    if span.links:
        record["links"] = [_link(link, budget) for link in span.links]
    if span.dropped_events_count:
        record["droppedEventsCount"] = span.dropped_events_count
    if span.dropped_links_count:
        record["droppedLinksCount"] = span.dropped_links_count
    return record


def _link(link: Any, budget: _Budget) -> dict[str, Any]:
    written: dict[str, Any] = {"traceId": link.trace_id.hex(), "spanId": link.span_id.hex(),
                               "attributes": _key_values(link.attributes, budget)}
    if link.trace_state:
        written["traceState"] = link.trace_state
    return written


def _key_values(values: Any, budget: _Budget) -> list[dict[str, Any]]:
    """The attributes, their memory spent from ``budget`` before they are built (the count of a
    repeated field costs nothing: three million attributes are refused without being made)."""
    budget.spend(_OBJECT + len(values) * _KEY_VALUE)
    return [{"key": item.key, "value": _any_value(item.value, budget)} for item in values]


def _any_value(value: Any, budget: _Budget) -> dict[str, Any]:
    which = value.WhichOneof("value")
    if which is None:
        return {}
    if which == "string_value":
        return {"stringValue": value.string_value}
    if which == "bool_value":
        return {"boolValue": value.bool_value}
    if which == "int_value":
        return {"intValue": str(value.int_value)}
    if which == "double_value":
        number = value.double_value
        # NaN and the infinities as protobuf's JSON mapping writes them: JSON has no such number.
        return {"doubleValue": number if math.isfinite(number) else not_finite_text(number)}
    if which == "bytes_value":
        return {"bytesValue": base64.b64encode(value.bytes_value).decode("ascii")}
    if which == "array_value":
        budget.spend(2 * _OBJECT + len(value.array_value.values) * _OBJECT)
        return {"arrayValue": {"values": [_any_value(item, budget) for item in value.array_value.values]}}
    budget.spend(_OBJECT)
    return {"kvlistValue": {"values": _key_values(value.kvlist_value.values, budget)}}
