"""The quick way through one OTLP span: the checks of :func:`.otlp.read_span`, for a span that passes them.

An import reads every span of a file; nearly all are plain (hex ids, times as digit strings, string,
integer, boolean and double attributes). For those, :func:`quick_span` makes exactly the
:class:`~.otlp.Span` that ``read_span`` makes, checking the same things, in one function and without
the place in the file each check would name. Anything it does not vouch for (a wrong value, base64
ids, an array attribute, a negative number) gives ``None``: ``read_span`` then reads the span the
careful way, which says what is wrong and where. No I/O.
"""

from __future__ import annotations

import re
from math import isfinite
from typing import Any

__all__ = ["quick_attributes", "quick_span"]

_HEX_32 = re.compile(r"[0-9a-fA-F]{32}").fullmatch
_HEX_16 = re.compile(r"[0-9a-fA-F]{16}").fullmatch
_MAX_NANOS = 2**64 - 1
_MAX_COUNT = 2**32
_MIN_INT64, _MAX_INT64 = -(2**63), 2**63 - 1
_STATUS_NAMES = {"STATUS_CODE_UNSET": 0, "STATUS_CODE_OK": 1, "STATUS_CODE_ERROR": 2}
_NOT_QUICK = object()


def _digits(value: Any) -> int | None:
    """A whole number 0 or more as OTLP JSON writes one (a string of up to 20 digits, or a number)."""
    if type(value) is str:
        if 0 < len(value) <= 20 and value.isascii() and value.isdigit():
            return int(value)
        return None
    if type(value) is int and value >= 0:
        return value
    return None


def quick_attributes(value: Any) -> dict[str, Any] | None:
    """``read_attributes`` for a list of plain key/value objects; ``None`` for anything else."""
    if value is None:
        return {}
    if type(value) is not list:
        return None
    attributes: dict[str, Any] = {}
    for item in value:
        if type(item) is not dict:
            return None
        key = item.get("key")
        if type(key) is not str:
            return None
        held = item.get("value")
        if type(held) is dict and len(held) == 1:
            found = held.get("stringValue")
            if type(found) is str:  # most attributes: read without the loop below
                attributes[key] = found
                continue
        if held is None:
            attributes[key] = None
            continue
        if type(held) is not dict or len(held) != 1:
            if type(held) is dict and not held:
                attributes[key] = None
                continue
            return None
        for name, found in held.items():
            if name == "stringValue":
                if type(found) is not str:
                    return None
            elif name == "intValue":
                if type(found) is not int:
                    if type(found) is not str or not (0 < len(found) <= 20 and found.isascii() and found.isdigit()):
                        return None
                    found = int(found)
                if found > _MAX_INT64 or found < _MIN_INT64:
                    return None  # beyond int64: the full reader refuses it
            elif name == "boolValue":
                if type(found) is not bool:
                    return None
            elif name == "doubleValue":
                if type(found) is not int and (type(found) is not float or not isfinite(found)):
                    return None  # NaN or an infinity (1e999 read by json.loads): the full reader refuses it
            else:
                return None
            attributes[key] = found
    return attributes


def _count(value: Any) -> int | None:
    if value is None:
        return 0
    if type(value) is int and 0 <= value < _MAX_COUNT:
        return value
    return None


def _events(record: dict[str, Any], max_events: int) -> tuple[list[dict[str, Any]], int] | None:
    events = record.get("events")
    if events is None:
        events = ()
    elif type(events) is not list:
        return None
    kept: list[dict[str, Any]] = []
    for index, event in enumerate(events):
        if type(event) is not dict:
            return None
        name = event.get("name", "")
        nanos = _digits(event.get("timeUnixNano", 0))
        attributes = quick_attributes(event.get("attributes"))
        if (type(name) is not str or nanos is None or nanos > _MAX_NANOS or attributes is None
                or _count(event.get("droppedAttributesCount")) is None):
            return None
        if index < max_events:
            kept.append({"name": name, "timeUnixNano": str(nanos), "attributes": attributes})
    dropped = _count(record.get("droppedEventsCount"))
    if dropped is None:
        return None
    return kept, dropped + max(len(events) - max_events, 0)


def _links(record: dict[str, Any], max_links: int) -> tuple[list[dict[str, Any]], int] | None:
    links = record.get("links")
    if links is None:
        links = ()
    elif type(links) is not list:
        return None
    kept: list[dict[str, Any]] = []
    for index, link in enumerate(links):
        if type(link) is not dict:
            return None
        trace, span = _hex(link.get("traceId"), _HEX_32), _hex(link.get("spanId"), _HEX_16)
        state = link.get("traceState", "")
        if trace is None or span is None or type(state) is not str:
            return None
        entry: dict[str, Any] = {"traceId": trace, "spanId": span}
        if state:
            entry["traceState"] = state
        attributes = quick_attributes(link.get("attributes"))
        if attributes is None or _count(link.get("droppedAttributesCount")) is None:
            return None
        entry["attributes"] = attributes
        if index < max_links:
            kept.append(entry)
    dropped = _count(record.get("droppedLinksCount"))
    if dropped is None:
        return None
    return kept, dropped + max(len(links) - max_links, 0)


def _hex(value: Any, fits: Any) -> str | None:
    if type(value) is not str or not fits(value):
        return None
    value = value.lower()
    return value if value.strip("0") else None


def quick_span(record: Any, new_span: Any, max_events: int, max_links: int) -> Any:
    """The span ``read_span`` makes of ``record`` (``new_span(**fields)`` builds it), or ``None``
    when the careful way must read it."""
    if type(record) is not dict:
        return None
    get = record.get
    start = _digits(get("startTimeUnixNano"))
    end = get("endTimeUnixNano")
    if end is not None:
        end = _digits(end)
        if end is None:
            return None
        if end == 0:
            end = None
    if start is None or start > _MAX_NANOS or (end is not None and (end > _MAX_NANOS or end < start)):
        return None
    status = get("status") or {}
    if type(status) is not dict:
        return None
    code, message = status.get("code", 0), status.get("message", "")
    if type(code) is str:
        code = _STATUS_NAMES.get(code)
    if (type(code) is not int or code not in (0, 1, 2)) or type(message) is not str:
        return None
    kind = get("kind", 0)
    name = get("name", "")
    if (type(kind) is not int and type(kind) is not str) or type(name) is not str:
        return None
    trace, span = _hex(get("traceId"), _HEX_32), _hex(get("spanId"), _HEX_16)
    parent = get("parentSpanId")
    parent = "" if parent is None or parent == "" else _hex(parent, _HEX_16)
    if trace is None or span is None or parent is None:
        return None
    attributes = quick_attributes(get("attributes"))
    if attributes is None:
        return None
    events = _events(record, max_events) if "events" in record or "droppedEventsCount" in record else ([], 0)
    links = _links(record, max_links) if "links" in record or "droppedLinksCount" in record else ([], 0)
    if events is None or links is None:
        return None
    return new_span(trace_id=trace, span_id=span, parent_id=parent, name=name, kind=kind, start_ns=start,
                    end_ns=end, status_code=code, status_message=message, attributes=attributes,
                    events=events[0], links=links[0], dropped_events=events[1], dropped_links=links[1])
