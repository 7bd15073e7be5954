"""Runs as OpenTelemetry traces (OTLP JSON), and spans back as runs: the mapping only, no I/O.

A run is a trace with one root span; each step is a child span of the root; each leg of a step
is a child span of its step. Our attributes (``run_inspector.*``) carry everything needed to
rebuild the run exactly; the standard fields (times, status, ``error.type``, ``gen_ai.tool.name``)
are there so that any OTLP viewer shows the run sensibly.

Spans that are not ours (no ``run_inspector.span`` attribute) are read too: each one becomes a
step of a run per trace id; see :mod:`.foreign`, :mod:`.span_sorter` and ``docs/trace-format.md``.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from decimal import Decimal
from typing import Any

from inspector.i18n import N_
from inspector.runs import Leg, ToolOutcome
from inspector.runs.finite import NOT_FINITE_TEXTS
from inspector.runs.times import to_stored_time
from inspector.runs.trace_ids import span_id, trace_id

from .format import (
    MAX_PAYLOAD_DEPTH,
    Path,
    RunHeader,
    TraceProblem,
    TraceStep,
    describe,
    dump_json,
    load_embedded_json,
    read_note,
    read_payload,
    read_sequence,
    read_status,
    read_text,
    read_time,
    read_uid,
    said,
)
from .quick_span import quick_attributes, quick_span
from .span_parts import MAX_EVENTS, MAX_LINKS, read_events, read_links

SERVICE_NAME = "run-inspector"
SCOPE_NAME = "run-inspector"

# Our attribute keys. One name per concept, as in the trace format.
SPAN_ROLE = "run_inspector.span"            # "run", "step" or "leg"
OUTCOME = "run_inspector.outcome"           # run status, step outcome, leg outcome
RUN_UID = "run_inspector.run.uid"
RUN_TITLE = "run_inspector.run.title"
RUN_SOURCE = "run_inspector.run.source"
RUN_SERVER = "run_inspector.run.server"
RUN_STARTED_AT = "run_inspector.run.started_at"
RUN_FINISHED_AT = "run_inspector.run.finished_at"
#: A reviewer's note on the run / the step (the step's is also in its payload).
RUN_NOTE = "run_inspector.run.note"
STEP_NOTE = "run_inspector.step.note"
STEP_SEQUENCE = "run_inspector.step.sequence"
STEP_STARTED_AT = "run_inspector.step.started_at"
STEP_KIND = "run_inspector.step.kind"
STEP_PAYLOAD = "run_inspector.step.payload"
LEG_POSITION = "run_inspector.leg.position"
LEG_GRANTED_S = "run_inspector.leg.granted_s"
LEG_ELAPSED_MS = "run_inspector.leg.elapsed_ms"
# How a step's server was reached. The transport and the revision also have standard names
# (``network.transport``, ``mcp.protocol.version``); ours keep what those cannot say (the older
# HTTP+SSE transport apart from Streamable HTTP) and what has no standard name.
SERVER_TRANSPORT = "run_inspector.server.transport"
SERVER_COMMAND = "run_inspector.server.command"
SERVER_STDERR = "run_inspector.server.stderr"
SERVER_STDERR_DROPPED = "run_inspector.server.stderr_dropped"
SERVER_LINE_PROBLEMS = "run_inspector.server.line_problems"
#: The era of MCP a step spoke in ("handshake" or "stateless"): no standard name says it.
MCP_ERA = "run_inspector.mcp.era"
#: ``network.transport`` of the OpenTelemetry MCP conventions: "pipe" for stdio, "tcp" for HTTP.
_NETWORK_TRANSPORTS = {"stdio": "pipe", "http": "tcp", "sse": "tcp"}

STATUS_UNSET, STATUS_OK, STATUS_ERROR = 0, 1, 2
KIND_INTERNAL, KIND_CLIENT = 1, 3
UNFINISHED_NOTE = "unfinished: the span has no end time"

_HEX = re.compile(r"[0-9a-fA-F]+")
_DIGITS = re.compile(r"-?[0-9]+")
#: A JSON number's text: protobuf's JSON mapping takes a 64-bit integer written so too ("1.7e18", "5.0").
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_STATUS_NAMES = {"STATUS_CODE_UNSET": 0, "STATUS_CODE_OK": 1, "STATUS_CODE_ERROR": 2}
_MAX_NANOS = 2**64 - 1
_MIN_INT64, _MAX_INT64 = -(2**63), 2**63 - 1
"""An AnyValue's intValue is protobuf's int64: one beyond it is no OTLP (and a number our trace export
would write for other readers that no int64 holds)."""
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


# -- writing ------------------------------------------------------------------------------------------

def unix_nanos(moment: datetime | None) -> int:
    """Nanoseconds since the epoch; an unknown time is 0 (our attributes say it is unknown).

    OTLP times are unsigned 64-bit: a moment outside 1970 to 2554 is clamped to that range
    (our own attributes still carry the exact time, which is what an import reads)."""
    if moment is None:
        return 0
    delta = moment - _EPOCH
    nanos = (delta.days * 86_400 + delta.seconds) * 1_000_000_000 + delta.microseconds * 1_000
    return min(max(nanos, 0), _MAX_NANOS)


def nanos_after(start: int, milliseconds: float) -> int:
    """``milliseconds`` after ``start`` in nanoseconds, clamped as :func:`unix_nanos` clamps: a step
    at the calendar's end, or one lasting 1e308 ms (a file may say so), ends at OTLP's last moment."""
    try:
        return min(start + round(milliseconds * 1_000_000), _MAX_NANOS)
    except OverflowError:  # infinity: 1e308 ms in nanoseconds
        return _MAX_NANOS


def attribute(key: str, value: Any) -> dict[str, Any]:
    """One OTLP ``KeyValue``; 64-bit integers are strings, as the protobuf JSON mapping writes them."""
    if isinstance(value, bool):
        return {"key": key, "value": {"boolValue": value}}
    if isinstance(value, int):
        return {"key": key, "value": {"intValue": str(value)}}
    if isinstance(value, float):
        return {"key": key, "value": {"doubleValue": value}}
    if isinstance(value, (list, tuple)):  # of strings: an array of string values
        return {"key": key, "value": {"arrayValue": {"values": [{"stringValue": str(item)} for item in value]}}}
    return {"key": key, "value": {"stringValue": str(value)}}


def server_attributes(payload: Mapping[str, Any]) -> list[dict[str, Any]]:
    """How a step's server was reached, for viewers (an import reads the payload instead).

    The stderr lines are one array attribute rather than span events: an event needs a time,
    and the lines have none of their own (inventing one per line would misplace them), and a
    viewer shows an array beside the step's other attributes, in order."""
    attributes: list[dict[str, Any]] = []
    transport = payload.get("transport")
    if isinstance(transport, str) and transport in _NETWORK_TRANSPORTS:
        attributes.append(attribute("network.transport", _NETWORK_TRANSPORTS[transport]))
        if transport != "stdio":
            attributes.append(attribute("network.protocol.name", "http"))
        attributes.append(attribute(SERVER_TRANSPORT, transport))
    for key, name in (("protocolVersion", "mcp.protocol.version"), ("era", MCP_ERA), ("serverCommand", SERVER_COMMAND)):
        if isinstance(payload.get(key), str):
            attributes.append(attribute(name, payload[key]))
    for key, name in (("stderr", SERVER_STDERR), ("lineProblems", SERVER_LINE_PROBLEMS)):
        lines = payload.get(key)
        if isinstance(lines, list) and lines:
            attributes.append(attribute(name, [line for line in lines if isinstance(line, str)]))
    dropped = payload.get("stderrDropped")
    if isinstance(dropped, int) and not isinstance(dropped, bool) and dropped > 0:
        attributes.append(attribute(SERVER_STDERR_DROPPED, dropped))
    return attributes


def resource() -> dict[str, Any]:
    """The resource every exported span belongs to."""
    return {"attributes": [attribute("service.name", SERVICE_NAME)]}


def _span(trace: str, span: str, parent: str, name: str, kind: int, start: int, end: int | None,
          attributes: list[dict[str, Any]], status: dict[str, Any] | None) -> dict[str, Any]:
    record: dict[str, Any] = {"traceId": trace, "spanId": span}
    if parent:
        record["parentSpanId"] = parent
    record.update({"name": name, "kind": kind, "startTimeUnixNano": str(start)})
    if end is not None:
        # Stored times may disagree (a clock set back); a viewer must never see a negative span.
        record["endTimeUnixNano"] = str(max(end, start))
    record["attributes"] = attributes
    if status:
        record["status"] = status
    return record


def _status(outcome: str, message: str) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """OTLP status and extra attributes for an outcome: cancelled is not an error."""
    if outcome == ToolOutcome.FAILED:
        return {"code": STATUS_ERROR, "message": message or "failed"}, []
    if outcome == ToolOutcome.CANCELLED:
        return None, [attribute("error.type", "cancelled")]
    if outcome == "interrupted":
        return {"code": STATUS_ERROR, "message": "interrupted"}, [attribute("error.type", "interrupted")]
    return None, []


def run_span(uid: str, title: str, source: str, server: str | None, status: str,
             started_at: datetime | None, finished_at: datetime | None, note: str = "") -> dict[str, Any]:
    """The root span of a run. Pass the values as they may leave the machine (redacted)."""
    attributes = [attribute(SPAN_ROLE, "run"), attribute(RUN_UID, uid), attribute(RUN_TITLE, title),
                  attribute(RUN_SOURCE, source), attribute(OUTCOME, status)]
    if note:
        attributes.append(attribute(RUN_NOTE, note))
    if server is not None:
        attributes.append(attribute(RUN_SERVER, server))
    if started_at is not None:
        attributes.append(attribute(RUN_STARTED_AT, to_stored_time(started_at)))
    if finished_at is not None:
        attributes.append(attribute(RUN_FINISHED_AT, to_stored_time(finished_at)))
    otlp_status, extra = _status(status, f"run {status}")
    return _span(trace_id(uid), span_id(uid, "run"), "", title or "run", KIND_INTERNAL,
                 unix_nanos(started_at), unix_nanos(finished_at) if finished_at else None,
                 attributes + extra, otlp_status)


def step_spans(uid: str, sequence: int, started_at: datetime | None, fallback_start: datetime | None,
               payload: Mapping[str, Any], outcome: str) -> Iterator[dict[str, Any]]:
    """The span of one step, then one child span per leg.

    ``payload`` is the step's stored payload as it may leave the machine (redacted), legs
    included; it is carried whole in ``run_inspector.step.payload``, which is what an import
    reads. ``fallback_start`` places a step whose own time is unknown.
    """
    trace, step = trace_id(uid), span_id(uid, "step", sequence)
    start = unix_nanos(started_at or fallback_start)
    duration = payload.get("durationMs") or 0
    kind = str(payload.get("kind", ""))
    attributes = [attribute(SPAN_ROLE, "step"), attribute(STEP_SEQUENCE, sequence),
                  attribute(STEP_KIND, kind), attribute(STEP_PAYLOAD, dump_json(payload))]
    if started_at is not None:
        attributes.append(attribute(STEP_STARTED_AT, to_stored_time(started_at)))
    name = kind
    if kind == "tool" and isinstance(payload.get("toolName"), str):
        name = f"execute_tool {payload['toolName']}"
        attributes += [attribute("gen_ai.operation.name", "execute_tool"),
                       attribute("gen_ai.tool.name", payload["toolName"])]
    attributes += server_attributes(payload)
    if isinstance(payload.get("note"), str) and payload["note"]:
        attributes.append(attribute(STEP_NOTE, payload["note"]))  # for viewers: an import reads the payload
    if outcome:
        attributes.append(attribute(OUTCOME, outcome))
    status, extra = _status(outcome, str(payload.get("toolResult") or "")[:200])
    yield _span(trace, step, span_id(uid, "run"), name, KIND_INTERNAL, start,
                nanos_after(start, duration), attributes + extra, status)
    cursor = start  # legs run one after the other, so each starts where the previous ended
    for position, leg in enumerate(payload.get("legs") or ()):
        end = nanos_after(cursor, leg.get("elapsedMs") or 0)
        leg_attributes = [attribute(SPAN_ROLE, "leg"), attribute(LEG_POSITION, position),
                          attribute("rpc.method", leg.get("method", "")), attribute(OUTCOME, leg["outcome"])]
        if leg.get("grantedS") is not None:
            leg_attributes.append(attribute(LEG_GRANTED_S, leg["grantedS"]))
        if leg.get("elapsedMs") is not None:
            leg_attributes.append(attribute(LEG_ELAPSED_MS, float(leg["elapsedMs"])))
        if leg.get("httpStatus") is not None:
            leg_attributes.append(attribute("http.response.status_code", leg["httpStatus"]))
        leg_status, leg_extra = _status(leg["outcome"], f"{leg.get('method', '')} {leg['outcome']}")
        if leg["outcome"] == Leg.NOT_SENT:
            leg_extra = [attribute("error.type", Leg.NOT_SENT)]
        span = _span(trace, span_id(uid, "step", sequence, "leg", position), step, str(leg.get("method", "")),
                      KIND_CLIENT, cursor, end, leg_attributes + leg_extra, leg_status)
        exchange = leg.get("exchange")
        if isinstance(exchange, Mapping):
            span["events"] = wire_events(exchange, cursor, end)
        yield span
        cursor = end


#: The span events of a leg's exchange (its request, its answer's head and body, each event of its stream).
WIRE_REQUEST, WIRE_ANSWER, WIRE_EVENT = "mcp.wire.request", "mcp.wire.answer", "mcp.wire.event"


def wire_events(exchange: Mapping[str, Any], start: int, end: int) -> list[dict[str, Any]]:
    """A leg's exchange (already redacted) as OTLP span events: the request at the leg's start, the
    answer's head and body at its end, each event of an answer stream at its own offset. Headers
    are a JSON list of ``[name, value]`` pairs; the stored exchange travels whole in the step's payload."""
    events: list[dict[str, Any]] = []
    request = exchange.get("request")
    if isinstance(request, Mapping):
        attributes = [attribute("http.request.method", str(request.get("method", ""))),
                      attribute("url.full", str(request.get("url", ""))),
                      attribute("http.request.headers", dump_json(request.get("headers") or []))]
        if isinstance(request.get("body"), str):
            attributes.append(attribute("http.request.body", request["body"]))
        events.append({"timeUnixNano": str(start), "name": WIRE_REQUEST, "attributes": attributes})
    answer = exchange.get("answer")
    if isinstance(answer, Mapping):
        for item in answer.get("events") or ():
            if isinstance(item, Mapping):
                at = item.get("atMs")
                offset = round(at * 1_000_000) if isinstance(at, (int, float)) and not isinstance(at, bool) else 0
                events.append({"timeUnixNano": str(start + max(offset, 0)), "name": WIRE_EVENT,
                               "attributes": [attribute("mcp.wire.event.data", str(item.get("data", "")))]})
        attributes = [attribute("http.response.headers", dump_json(answer.get("headers") or []))]
        if isinstance(answer.get("status"), int):
            attributes.insert(0, attribute("http.response.status_code", answer["status"]))
        if isinstance(answer.get("body"), str):
            attributes.append(attribute("http.response.body", answer["body"]))
        events.append({"timeUnixNano": str(max(end, start)), "name": WIRE_ANSWER, "attributes": attributes})
    cut = exchange.get("cut")
    if isinstance(cut, Mapping) and events:
        events[-1]["attributes"].append(attribute("mcp.wire.cut_bytes", cut.get("bytes", 0)))
    return events


# -- reading ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Span:
    """The parts of an OTLP span an import uses, checked."""

    trace_id: str
    span_id: str
    parent_id: str
    name: str
    kind: int | str
    start_ns: int
    end_ns: int | None  # None: the span never ended
    status_code: int
    status_message: str
    attributes: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)   # name, timeUnixNano, attributes
    links: list[dict[str, Any]] = field(default_factory=list)    # traceId, spanId, traceState?, attributes
    dropped_events: int = 0  # by the source, and beyond the events kept (span_parts.MAX_EVENTS)
    dropped_links: int = 0


def read_span(record: Any, path: Path) -> Span:
    """Check one span object of OTLP JSON (ids in hex, times in nanoseconds as strings or numbers)."""
    span = quick_span(record, _filled_span, MAX_EVENTS, MAX_LINKS)  # a plain span: the same, sooner
    return span if span is not None else read_span_carefully(record, path)


def read_span_carefully(record: Any, path: Path) -> Span:
    """:func:`read_span` the careful way: each check names its place (what a problem is reported with)."""
    if not isinstance(record, Mapping):
        raise TraceProblem(path, said(N_("a span must be an object, got {value}"), value=describe(record)))
    start = _nanos(record.get("startTimeUnixNano"), (*path, "startTimeUnixNano"), required=True)
    end = _nanos(record.get("endTimeUnixNano"), (*path, "endTimeUnixNano"), required=False)
    if end == 0:
        end = None  # the protobuf default: never set
    if end is not None and end < start:
        raise TraceProblem((*path, "endTimeUnixNano"), said(N_("the span ends before it starts")))
    status = record.get("status") or {}
    if not isinstance(status, Mapping):
        raise TraceProblem((*path, "status"), said(N_("must be an object, got {value}"), value=describe(status)))
    kind = record.get("kind", 0)
    if not isinstance(kind, (int, str)) or isinstance(kind, bool):
        raise TraceProblem((*path, "kind"), said(N_("must be a span kind, got {value}"), value=describe(kind)))
    events, dropped_events = read_events(record, path, read_attributes, _event_nanos)
    links, dropped_links = read_links(record, path, read_attributes, _hex_id)
    # Filled as the generated __init__ would, without its object.__setattr__ per field (a span is
    # made for every span of a file): the same object, still frozen against later changes.
    span = _new(Span)
    span.__dict__.update(
        trace_id=_hex_id(record.get("traceId"), 32, (*path, "traceId")),
        span_id=_hex_id(record.get("spanId"), 16, (*path, "spanId")),
        parent_id=_hex_id(record.get("parentSpanId"), 16, (*path, "parentSpanId"), optional=True),
        name=read_text(record.get("name", ""), (*path, "name")),
        kind=kind,
        start_ns=start,
        end_ns=end,
        status_code=_status_code(status.get("code", 0), (*path, "status", "code")),
        status_message=read_text(status.get("message", ""), (*path, "status", "message")),
        attributes=read_attributes(record.get("attributes"), (*path, "attributes")),
        events=events,
        links=links,
        dropped_events=dropped_events,
        dropped_links=dropped_links,
    )
    return span


_new = object.__new__


def _filled_span(**fields: Any) -> Span:
    span = _new(Span)
    span.__dict__.update(fields)
    return span


def _event_nanos(value: Any, path: Path) -> int:
    return _nanos(value, path, required=False) or 0


def read_attributes(value: Any, path: Path) -> dict[str, Any]:
    """OTLP ``KeyValue`` list → dict of plain JSON values (a later duplicate key wins)."""
    quick = quick_attributes(value)  # plain ones: the same, sooner
    return quick if quick is not None else read_attributes_carefully(value, path)


def read_attributes_carefully(value: Any, path: Path) -> dict[str, Any]:
    """:func:`read_attributes` the careful way, each check naming its place."""
    if value is None:
        return {}
    if not isinstance(value, list):
        raise TraceProblem(path, said(N_("must be a list of key/value objects, got {value}"), value=describe(value)))
    attributes: dict[str, Any] = {}
    for index, item in enumerate(value):
        where = (*path, index)
        if not isinstance(item, Mapping) or not isinstance(item.get("key"), str):
            raise TraceProblem(where, said(N_("an attribute must be an object with a string 'key'")))
        attributes[item["key"]] = _any_value(item.get("value"), (*where, "value"))
    return attributes


def _any_value(value: Any, path: Path) -> Any:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise TraceProblem(path, said(N_("must be an OTLP AnyValue object, got {value}"), value=describe(value)))
    if not value:
        return None
    if len(value) != 1:
        raise TraceProblem(path, said(N_("an AnyValue holds exactly one of its fields, got {fields}"),
                                      fields=str(sorted(value))))
    (name, item), = value.items()
    where = (*path, name)
    if name == "stringValue":
        return read_text(item, where)
    if name == "boolValue":
        if not isinstance(item, bool):
            raise TraceProblem(where, said(N_("must be a boolean, got {value}"), value=describe(item)))
        return item
    if name == "intValue":
        number = _integer(item, where)
        if not _MIN_INT64 <= number <= _MAX_INT64:
            raise TraceProblem(where, said(N_("must be a whole number of 64 bits ({low} to {high}), got {number}"),
                                           low=str(_MIN_INT64), high=str(_MAX_INT64), number=str(number)))
        return number
    if name == "doubleValue":
        if isinstance(item, (int, float)) and not isinstance(item, bool) and math.isfinite(item):
            return item
        if isinstance(item, str) and item in NOT_FINITE_TEXTS:  # protobuf JSON for NaN and the infinities: kept as text
            return item
        raise TraceProblem(where, said(N_("must be a number, got {value}"), value=describe(item)))
    if name == "bytesValue":
        try:
            base64.b64decode(read_text(item, where), validate=True)
        except (binascii.Error, ValueError):
            raise TraceProblem(where, said(N_("must be base64"))) from None
        return item
    if name == "arrayValue":
        values = _values(item, where)
        return [_any_value(entry, (*where, "values", index)) for index, entry in enumerate(values)]
    if name == "kvlistValue":
        return read_attributes(_values(item, where), (*where, "values"))
    raise TraceProblem(path, said(N_("unknown AnyValue field {name}"), name=repr(name)))


def _values(item: Any, path: Path) -> list[Any]:
    if not isinstance(item, Mapping):
        raise TraceProblem(path, said(N_("must be an object with 'values', got {value}"), value=describe(item)))
    values = item.get("values", [])
    if not isinstance(values, list):
        raise TraceProblem((*path, "values"), said(N_("must be a list, got {value}"), value=describe(values)))
    return values


def _integer(value: Any, path: Path) -> int:
    if isinstance(value, str) and re.fullmatch(r"-?[0-9]{1,20}", value):
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and _DIGITS.fullmatch(value):  # a whole number, but more than 64 bits hold
        raise TraceProblem(path, said(N_("must be a whole number of at most 20 digits (64 bits), got one of "
                                         "{count} digits"), count=len(value.lstrip("-"))))
    whole = _whole(value)
    if whole is not None:
        return whole
    raise TraceProblem(path, said(N_("must be a whole number (as a string or a number), got {value}"),
                                  value=describe(value)))


def _whole(value: Any) -> int | None:
    """A whole number written with a fraction or an exponent, as protobuf's JSON mapping (and so a
    collector) takes it: ``1.7e18``, ``"1.7e18"``, ``"1700000000000000000.0"``; ``None`` for anything
    else (``1.5``). A string is read exactly; a JSON number arrives as the double the writer had (a
    Python writer's ``time.time() * 1e9`` is written ``1.7649699601234568e+18``), as protobuf reads it."""
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    if not isinstance(value, str) or len(value) > 60 or not _JSON_NUMBER.fullmatch(value):
        return None
    number = Decimal(value)
    # More digits than 64 bits hold are no nanoseconds (and 1e999999999 is not written out to see).
    if number.adjusted() > 20 or number != number.to_integral_value():
        return None
    return int(number)


def _nanos(value: Any, path: Path, *, required: bool) -> int | None:
    if value is None:
        if required:
            raise TraceProblem(path, said(N_("the span has no start time")))
        return None
    if isinstance(value, str) and _DIGITS.fullmatch(value) and len(value.lstrip("-")) > 20:
        raise TraceProblem(path, said(N_("must be nanoseconds since 1970 (0 to 2^64-1), got a number of {count} "
                                         "digits"), count=len(value.lstrip("-"))))
    number = _integer(value, path)
    if not 0 <= number <= _MAX_NANOS:
        raise TraceProblem(path, said(N_("must be nanoseconds since 1970 (0 to 2^64-1), got {number}"), number=number))
    return number


def read_trace_id(value: Any) -> str | None:
    """A span's ``traceId`` as the import reads it (lower-case hex, from hex or base64), or None when the
    import would refuse it."""
    try:
        return _hex_id(value, 32, ())
    except TraceProblem:
        return None


def _hex_id(value: Any, digits: int, path: Path, *, optional: bool = False) -> str:
    """An id as lower-case hex. OTLP/JSON writes hex; protobuf's own JSON mapping (what the OpenTelemetry
    Python SDK makes of its messages) writes the bytes as base64, so base64 is read where hex does
    not fit the length."""
    if optional and value in (None, ""):
        return ""
    if isinstance(value, str) and len(value) == digits and _HEX.fullmatch(value):
        hex_id = value.lower()
    elif isinstance(value, str) and (decoded := _base64_id(value, digits // 2)) is not None:
        hex_id = decoded.hex()
    else:
        raise TraceProblem(path, said(N_("must be {digits} hexadecimal digits (or {size} bytes in base64), "
                                         "got {value}"), digits=digits, size=digits // 2, value=describe(value)))
    if not hex_id.strip("0"):
        raise TraceProblem(path, said(N_("an all-zero id is invalid")))
    return hex_id


def _base64_id(value: str, size: int) -> bytes | None:
    """``size`` bytes written as base64 (standard or URL-safe alphabet, padded), else ``None``."""
    if len(value) != 4 * -(-size // 3):
        return None
    try:
        decoded = base64.b64decode(value.replace("-", "+").replace("_", "/"), validate=True)
    except (binascii.Error, ValueError):
        return None
    return decoded if len(decoded) == size else None


def _status_code(value: Any, path: Path) -> int:
    if isinstance(value, str) and value in _STATUS_NAMES:
        return _STATUS_NAMES[value]
    if isinstance(value, int) and not isinstance(value, bool) and value in (0, 1, 2):
        return value
    raise TraceProblem(path, said(N_("must be a status code (0, 1 or 2), got {value}"), value=describe(value)))


def stored_time_of(nanos: int | None) -> str:
    """Nanoseconds since the epoch → the stored time form ('' for 0 or unknown)."""
    if not nanos:
        return ""
    seconds, rest = divmod(nanos, 1_000_000_000)
    second = _SECONDS.get(seconds)
    if second is None:
        try:
            moment = datetime.fromtimestamp(seconds, timezone.utc)
        except (OverflowError, ValueError, OSError):
            return ""  # beyond what a datetime holds: treat as unknown rather than invent one
        second = to_stored_time(moment)[:-8]  # up to the seconds; the same for every span of that second
        if len(_SECONDS) >= 4096:
            _SECONDS.clear()
        _SECONDS[seconds] = second
    return f"{second}.{rest // 1000:06d}Z"


_SECONDS: dict[int, str] = {}
"""The stored form of recent whole seconds (the spans of a trace share a few)."""


# -- our spans back to runs and steps ---------------------------------------------------------------

def is_ours(span: Span) -> bool:
    """True for a span this application wrote (it names its role in the run)."""
    return SPAN_ROLE in span.attributes


def our_run_header(span: Span, path: Path) -> RunHeader:
    """The run a root span of ours describes."""
    attrs, where = span.attributes, (*path, "attributes")
    return RunHeader(
        uid=read_uid(attrs.get(RUN_UID), (*where, RUN_UID)),
        title=read_text(attrs.get(RUN_TITLE, ""), (*where, RUN_TITLE)),
        source=read_text(attrs.get(RUN_SOURCE, ""), (*where, RUN_SOURCE)),
        server=read_text(attrs.get(RUN_SERVER), (*where, RUN_SERVER), optional=True),
        status=read_status(attrs.get(OUTCOME), (*where, OUTCOME)),
        started_at=read_time(attrs.get(RUN_STARTED_AT), (*where, RUN_STARTED_AT)),
        finished_at=read_time(attrs.get(RUN_FINISHED_AT), (*where, RUN_FINISHED_AT)),
        note=read_note(attrs.get(RUN_NOTE), (*where, RUN_NOTE)),
    )


def our_step(span: Span, path: Path) -> TraceStep:
    """The step a step span of ours carries; its payload attribute is authoritative."""
    attrs, where = span.attributes, (*path, "attributes")
    if STEP_PAYLOAD not in attrs or STEP_SEQUENCE not in attrs:
        raise TraceProblem(where, said(N_("a step span needs {sequence} and {payload}"),
                                       sequence=repr(STEP_SEQUENCE), payload=repr(STEP_PAYLOAD)))
    text = read_text(attrs[STEP_PAYLOAD], (*where, STEP_PAYLOAD))
    payload = load_embedded_json(text, (*where, STEP_PAYLOAD), MAX_PAYLOAD_DEPTH)
    return TraceStep(
        sequence=read_sequence(attrs[STEP_SEQUENCE], (*where, STEP_SEQUENCE)),
        started_at=read_time(attrs.get(STEP_STARTED_AT), (*where, STEP_STARTED_AT)),
        step=read_payload(payload, (*where, STEP_PAYLOAD)),
    )
