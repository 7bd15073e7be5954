"""A foreign run back as the spans it was read from: the mapping only, no I/O.

An imported OTLP trace keeps each span under its step's ``raw.otlp`` (and the server side of a
joined call under ``raw.otlp.server``). Exporting such a run as OTLP writes those spans again as
they were: the same trace and span ids, parents, names, kinds, status, times, attributes, events
and links, each under its own resource and scope. What we add is added, never rewritten: a run's
note as ``run_inspector.run.note`` on its root span, a step's note as ``run_inspector.step.note``
on the step's span (an import reads both back, and takes them off the span again). See
``docs/trace-format.md``, "Exporting an imported trace again".
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .otlp import KIND_INTERNAL, RUN_NOTE, STEP_NOTE, span_id, unix_nanos

__all__ = ["NOTE_WAIT", "SpanOut", "add_attribute", "any_value", "is_foreign_run", "key_values", "spans_of_step",
           "with_run_note", "written_span"]

_FOREIGN_UID = re.compile(r"otlp-[0-9a-f]{32}")


def is_foreign_run(uid: str, source: str) -> bool:
    """A run an import made of another tool's trace (its uid names the trace id)."""
    return source == "imported" and _FOREIGN_UID.fullmatch(uid) is not None


def any_value(value: Any) -> dict[str, Any]:
    """A plain JSON value (as an import keeps an attribute) as an OTLP ``AnyValue``."""
    if value is None:
        return {}
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, (list, tuple)):
        return {"arrayValue": {"values": [any_value(item) for item in value]}}
    if isinstance(value, Mapping):
        return {"kvlistValue": {"values": key_values(value)}}
    return {"stringValue": str(value)}


def key_values(attributes: Any) -> list[dict[str, Any]]:
    """A dict of attributes as OTLP ``KeyValue`` objects, in their order."""
    if not isinstance(attributes, Mapping):
        return []
    return [{"key": str(key), "value": any_value(value)} for key, value in attributes.items()]


def add_attribute(span: dict[str, Any], key: str, value: Any) -> None:
    """Add one attribute of ours to a span written back (after its own)."""
    span["attributes"].append({"key": key, "value": any_value(value)})


@dataclass
class SpanOut:
    """One span to write, with the resource and scope it goes under (OTLP JSON objects)."""

    resource: dict[str, Any]
    scope: dict[str, Any]
    span: dict[str, Any]
    #: The number of the step it was read into (a writer puts a run's spans in this order).
    sequence: int = 0
    #: The server side of a call joined to its client side's step (its place in the file is no step's number).
    server: bool = False

    @property
    def is_root(self) -> bool:
        return not self.span.get("parentSpanId")


def _resource(raw: Mapping[str, Any]) -> dict[str, Any]:
    resource = raw.get("resource")
    if isinstance(resource, Mapping):
        return {"attributes": key_values(resource.get("attributes"))}
    service = raw.get("service")  # a step imported before resources were kept: its service is all there is
    return {"attributes": key_values({"service.name": service})} if isinstance(service, str) else {"attributes": []}


def _scope(raw: Mapping[str, Any]) -> dict[str, Any]:
    scope = raw.get("scope")
    if not isinstance(scope, Mapping):
        return {}
    written: dict[str, Any] = {"name": str(scope.get("name") or "")}
    if scope.get("version"):
        written["version"] = str(scope["version"])
    if scope.get("attributes"):
        written["attributes"] = key_values(scope["attributes"])
    return written


def _nanos(value: Any) -> str | None:
    if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value).isdigit():
        return str(value)
    return None


def _span(raw: Mapping[str, Any], trace: str, start: int, duration_ms: float) -> dict[str, Any]:
    """One side's span as it was read (times from the step when an older import kept none)."""
    span: dict[str, Any] = {"traceId": trace, "spanId": str(raw["spanId"])}
    if raw.get("parentSpanId"):
        span["parentSpanId"] = str(raw["parentSpanId"])
    span["name"] = str(raw.get("name") or "")
    span["kind"] = raw.get("kind", 0)
    begin = _nanos(raw.get("startTimeUnixNano"))
    if begin is None:
        span["startTimeUnixNano"] = str(start)
        span["endTimeUnixNano"] = str(start + round(duration_ms * 1_000_000))
    else:
        span["startTimeUnixNano"] = begin
        end = _nanos(raw.get("endTimeUnixNano"))
        if end is not None:  # no end: the span never ended, and is written so again
            span["endTimeUnixNano"] = end
    span["attributes"] = key_values(raw.get("attributes"))
    events = raw.get("events") or []
    if events:
        span["events"] = [{"timeUnixNano": _nanos(event.get("timeUnixNano")) or "0", "name": str(event.get("name", "")),
                           "attributes": key_values(event.get("attributes"))} for event in events]
    if raw.get("droppedEvents"):
        span["droppedEventsCount"] = raw["droppedEvents"]
    links = raw.get("links") or []
    if links:
        span["links"] = [_link(link) for link in links]
    if raw.get("droppedLinks"):
        span["droppedLinksCount"] = raw["droppedLinks"]
    status = raw.get("status") if isinstance(raw.get("status"), Mapping) else {}
    written_status: dict[str, Any] = {}
    if status.get("code"):
        written_status["code"] = status["code"]
    if status.get("message"):
        written_status["message"] = str(status["message"])
    if written_status:
        span["status"] = written_status
    return span


def written_span(raw: Mapping[str, Any], trace: Any) -> dict[str, Any]:
    """The span :func:`spans_of_step` writes for the kept span ``raw`` of the trace ``trace`` (times as kept)."""
    return _span(raw, trace, 0, 0.0)


def _link(link: Mapping[str, Any]) -> dict[str, Any]:
    written: dict[str, Any] = {"traceId": str(link.get("traceId", "")), "spanId": str(link.get("spanId", ""))}
    if link.get("traceState"):
        written["traceState"] = str(link["traceState"])
    written["attributes"] = key_values(link.get("attributes"))
    return written


def is_joined_step(payload: Mapping[str, Any]) -> bool:
    """A step of a run of ours made of another tool's span (a server's span in the run's trace)."""
    raw = payload.get("raw")
    otlp = raw.get("otlp") if isinstance(raw, Mapping) else None
    return isinstance(otlp, Mapping) and bool(otlp.get("spanId"))


def spans_of_step(uid: str, sequence: int, started_at: datetime | None,
                  payload: Mapping[str, Any]) -> Iterator[SpanOut]:
    """The span(s) a step of a foreign run was read from: the step's own, then a joined call's server side.

    ``payload`` is the stored payload as it may leave the machine (redacted). A step's note is
    added to its span as ``run_inspector.step.note``."""
    raw = payload.get("raw")
    otlp = raw.get("otlp") if isinstance(raw, Mapping) else None
    start = unix_nanos(started_at)
    duration = payload.get("durationMs") or 0
    duration_ms = float(duration) if isinstance(duration, (int, float)) and not isinstance(duration, bool) else 0.0
    trace = uid.removeprefix("otlp-")
    if not isinstance(otlp, Mapping) or not otlp.get("spanId"):
        # Not a step an import made (every one keeps its span): a plain span of the trace, no parent.
        own = {"spanId": span_id(uid, "step", sequence), "name": str(payload.get("kind", "")), "kind": KIND_INTERNAL}
        client = SpanOut({"attributes": []}, {}, _span(own, trace, start, duration_ms), sequence)
    else:
        trace = str(otlp.get("traceId") or trace)
        client = SpanOut(_resource(otlp), _scope(otlp), _span(otlp, trace, start, duration_ms), sequence)
    note = payload.get("note")
    if isinstance(note, str) and note:
        add_attribute(client.span, STEP_NOTE, note)
    yield client
    server = otlp.get("server") if isinstance(otlp, Mapping) else None
    if isinstance(server, Mapping) and server.get("spanId"):
        yield SpanOut(_resource(server), _scope(server), _span(server, trace, start, duration_ms), sequence, True)


#: How many spans of a run wait for its root span before the run's note goes on the first of them.
NOTE_WAIT = 1_000


def with_run_note(spans: Iterator[SpanOut], note: str) -> Iterator[SpanOut]:
    """``spans`` in their order, the run's note added to the first root span (no parent); without
    one among the first :data:`NOTE_WAIT`, to the first span."""
    if not note:
        yield from spans
        return
    waiting: list[SpanOut] | None = []
    for piece in spans:
        if waiting is None:
            yield piece
            continue
        waiting.append(piece)
        if piece.is_root or len(waiting) >= NOTE_WAIT:
            add_attribute((piece if piece.is_root else waiting[0]).span, RUN_NOTE, note)
            yield from waiting
            waiting = None
    if waiting:
        add_attribute(waiting[0].span, RUN_NOTE, note)
        yield from waiting
