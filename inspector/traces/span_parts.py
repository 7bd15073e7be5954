"""The parts of an OTLP span besides its attributes: events, links, its resource and its scope.

Each is checked as strictly as the span itself (a wrong type is a :class:`TraceProblem` naming
its place) and kept as plain JSON for the step's ``raw.otlp``. A span may carry any number of
events and links within the record limit of the reader (32 MB estimated); at most
:data:`MAX_EVENTS` and :data:`MAX_LINKS` are kept, the others counted (with the counts the
source itself dropped: ``droppedEventsCount``, ``droppedLinksCount``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from inspector.i18n import N_

from .format import Path, TraceProblem, describe, read_text, said

MAX_EVENTS = 1000
"""Events kept per span; an exception's stack trace is one of them, so a few are plenty."""
MAX_LINKS = 1000
"""Links kept per span."""


@dataclass(frozen=True)
class Scope:
    """The instrumentation scope that made a span (``scopeSpans[].scope``)."""

    name: str = ""
    version: str = ""
    attributes: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "version": self.version, "attributes": self.attributes}


@dataclass(frozen=True)
class Resource:
    """What a span's process says of itself (``resourceSpans[].resource``): all its attributes."""

    attributes: dict[str, Any] = field(default_factory=dict)

    @cached_property
    def service(self) -> str | None:
        """``service.name`` (asked for three times per span an import reads: kept once known)."""
        name = self.attributes.get("service.name")
        return name if isinstance(name, str) else None

    def to_json(self) -> dict[str, Any]:
        return {"attributes": self.attributes}


NO_RESOURCE = Resource()
NO_SCOPE = Scope()

ReadAttributes = Callable[[Any, Path], dict[str, Any]]
ReadNanos = Callable[[Any, Path], int]
ReadId = Callable[[Any, int, Path], str]


def read_resource(value: Any, path: Path, read_attributes: ReadAttributes) -> Resource:
    """``resource`` of a ``resourceSpans`` item (``null`` or absent: none)."""
    if value is None:
        return NO_RESOURCE
    if not isinstance(value, Mapping):
        raise TraceProblem(path, said(N_("must be an object, got {value}"), value=describe(value)))
    return Resource(read_attributes(value.get("attributes"), (*path, "attributes")))


def read_scope(value: Any, path: Path, read_attributes: ReadAttributes) -> Scope:
    """``scope`` of a ``scopeSpans`` item (``null`` or absent: none)."""
    if value is None:
        return NO_SCOPE
    if not isinstance(value, Mapping):
        raise TraceProblem(path, said(N_("must be an object, got {value}"), value=describe(value)))
    return Scope(read_text(value.get("name", ""), (*path, "name")),
                 read_text(value.get("version", ""), (*path, "version")),
                 read_attributes(value.get("attributes"), (*path, "attributes")))


def _list(value: Any, path: Path) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise TraceProblem(path, said(N_("must be a list, got {value}"), value=describe(value)))
    return value


def _object(value: Any, path: Path) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise TraceProblem(path, said(N_("must be an object, got {value}"), value=describe(value)))
    return value


def _count(value: Any, path: Path) -> int:
    if value is None:
        return 0
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**32:
        return value
    raise TraceProblem(path, said(N_("must be a whole number 0 or more, got {value}"), value=describe(value)))


def read_events(record: Mapping[str, Any], path: Path, read_attributes: ReadAttributes,
                read_nanos: ReadNanos) -> tuple[list[dict[str, Any]], int]:
    """The span's events (each: name, time, attributes), checked; and how many were dropped."""
    where = (*path, "events")
    events = _list(record.get("events"), where)
    kept: list[dict[str, Any]] = []
    for index, item in enumerate(events):
        at = (*where, index)
        event = _object(item, at)
        name = read_text(event.get("name", ""), (*at, "name"))
        nanos = read_nanos(event.get("timeUnixNano", 0), (*at, "timeUnixNano"))
        attributes = read_attributes(event.get("attributes"), (*at, "attributes"))
        _count(event.get("droppedAttributesCount"), (*at, "droppedAttributesCount"))
        if index < MAX_EVENTS:
            kept.append({"name": name, "timeUnixNano": str(nanos), "attributes": attributes})
    dropped = _count(record.get("droppedEventsCount"), (*path, "droppedEventsCount"))
    return kept, dropped + max(len(events) - MAX_EVENTS, 0)


def read_links(record: Mapping[str, Any], path: Path, read_attributes: ReadAttributes,
               read_id: ReadId) -> tuple[list[dict[str, Any]], int]:
    """The span's links (each: trace id, span id, trace state, attributes), checked; and how many were dropped."""
    where = (*path, "links")
    links = _list(record.get("links"), where)
    kept: list[dict[str, Any]] = []
    for index, item in enumerate(links):
        at = (*where, index)
        link = _object(item, at)
        entry: dict[str, Any] = {"traceId": read_id(link.get("traceId"), 32, (*at, "traceId")),
                                 "spanId": read_id(link.get("spanId"), 16, (*at, "spanId"))}
        state = read_text(link.get("traceState", ""), (*at, "traceState"))
        if state:
            entry["traceState"] = state
        entry["attributes"] = read_attributes(link.get("attributes"), (*at, "attributes"))
        _count(link.get("droppedAttributesCount"), (*at, "droppedAttributesCount"))
        if index < MAX_LINKS:
            kept.append(entry)
    dropped = _count(record.get("droppedLinksCount"), (*path, "droppedLinksCount"))
    return kept, dropped + max(len(links) - MAX_LINKS, 0)


def exception_of(events: list[dict[str, Any]], attributes: Mapping[str, Any]) -> dict[str, str] | None:
    """The first ``exception`` event's type, message and stack trace (those that are strings); else
    the span's own ``exception.*`` attributes (some instrumentations write them there)."""
    for event in events:
        if event["name"] == "exception":
            return _exception_fields(event["attributes"])
    if "exception.type" not in attributes and "exception.message" not in attributes \
            and "exception.stacktrace" not in attributes:  # most spans (asked of every span: no dict made for them)
        return None
    found = _exception_fields(attributes)
    return found or None


def _exception_fields(attributes: Mapping[str, Any]) -> dict[str, str]:
    return {key: attributes[name] for key, name in _EXCEPTION_KEYS if isinstance(attributes.get(name), str)}


_EXCEPTION_KEYS = tuple((key, f"exception.{key}") for key in ("type", "message", "stacktrace"))
