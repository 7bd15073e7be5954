"""What a step imported from a trace kept of its span (``raw.otlp``, docs/trace-format.md "What a
step keeps of its span"), read for the step detail: its attributes with their origin, its events and
links, its service and the two sides of a joined call. No Qt here: the widgets beside this module
show what it reads, as plain text.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from inspector.i18n import _
from inspector.i18n.details import own_lines, side_message, side_said
from inspector.i18n.formatting import format_duration, format_fixed
from inspector.i18n.messages import Message, translate
from inspector.i18n.words import outcome_word

#: Where an attribute came from: the span, its resource or its instrumentation scope; a joined call's
#: server side has the same three, marked.
ORIGINS = ("span", "resource", "scope", "server span", "server resource", "server scope")


def origin_word(origin: str) -> str:
    """An origin in the reader's language."""
    words = {"span": _("span"), "resource": _("resource"), "scope": _("scope"),
             "server span": _("server: span"), "server resource": _("server: resource"),
             "server scope": _("server: scope")}
    return words.get(origin, origin)


@dataclass(frozen=True)
class AttributeRow:
    """One attribute: its origin (one of :data:`ORIGINS`), key and value (any JSON value)."""

    origin: str
    key: str
    value: Any

    @property
    def is_server(self) -> bool:
        return self.origin.startswith("server ")

    def value_text(self) -> str:
        """The value as one compact text: a string as it is, anything else as compact JSON."""
        return value_text(self.value)

    def to_json(self) -> dict[str, Any]:
        return {"origin": self.origin, "key": self.key, "value": self.value}


def value_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        return str(value)


def otlp_of(payload: Mapping[str, Any]) -> dict[str, Any] | None:
    """The span a step came from (``raw.otlp``), or ``None`` for one of our own steps."""
    raw = payload.get("raw")
    otlp = raw.get("otlp") if isinstance(raw, dict) else None
    return otlp if isinstance(otlp, dict) else None


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _span_rows(side: Mapping[str, Any], prefix: str) -> list[AttributeRow]:
    return [AttributeRow(prefix + "span", str(key), value) for key, value in _dict(side.get("attributes")).items()]


def _context_rows(side: Mapping[str, Any], prefix: str) -> list[AttributeRow]:
    """The attributes of the process (resource) and the instrumentation (scope) a span came from."""
    resource = _dict(side.get("resource"))
    rows = [AttributeRow(prefix + "resource", str(key), value)
            for key, value in _dict(resource.get("attributes")).items()]
    scope = _dict(side.get("scope"))
    # The scope's name and version under the names OpenTelemetry gives them outside OTLP.
    for key, field in (("otel.scope.name", "name"), ("otel.scope.version", "version")):
        if scope.get(field):
            rows.append(AttributeRow(prefix + "scope", key, scope[field]))
    rows += [AttributeRow(prefix + "scope", str(key), value) for key, value in _dict(scope.get("attributes")).items()]
    return rows


def attribute_rows(otlp: Mapping[str, Any]) -> list[AttributeRow]:
    """Every attribute of the span and of its server side first (what the call did: its method, tool,
    ``error.type``), then the resource and scope of each (the process and instrumentation it came from,
    alike for every span of a service): a joined call's server ``error.type`` was below ten resource
    rows of the client's, out of sight."""
    server = otlp.get("server")
    sides = [(otlp, "")] + ([(server, "server ")] if isinstance(server, dict) else [])
    return ([row for side, prefix in sides for row in _span_rows(side, prefix)]
            + [row for side, prefix in sides for row in _context_rows(side, prefix)])


def _nanos(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def offset_text(at_ns: Any, start_ns: Any) -> str:
    """When something happened, from the span's start: "+12.3 ms" (locale's digits); from a second on
    as every duration is said ("+1.5 s", "+3 h": not "+10,800,000.0 ms")."""
    at, start = _nanos(at_ns), _nanos(start_ns)
    if at is None or start is None:
        return "?"
    ms = (at - start) / 1_000_000
    sign = "+" if ms >= 0 else "−"
    if abs(ms) >= 1000:
        return sign + format_duration(abs(ms) / 1000)
    return sign + _("{ms} ms").format(ms=format_fixed(abs(ms), 1))


def duration_ms(side: Mapping[str, Any]) -> float | None:
    start, end = _nanos(side.get("startTimeUnixNano")), _nanos(side.get("endTimeUnixNano"))
    return None if start is None or end is None else (end - start) / 1_000_000


@dataclass(frozen=True)
class SpanEvent:
    """One event of a span, read for showing."""

    side: str  # "" for the span's own, "server" for its server side's
    offset: str
    name: str
    attributes: dict[str, Any]

    @property
    def is_exception(self) -> bool:
        return self.name == "exception"


def span_events(otlp: Mapping[str, Any]) -> list[SpanEvent]:
    """The span's events, then its server side's, each timed from its own span's start."""
    events = []
    sides = [("", otlp)]
    if isinstance(otlp.get("server"), dict):
        sides.append(("server", otlp["server"]))
    for side, span in sides:
        for event in span.get("events") or ():
            if isinstance(event, dict):
                events.append(SpanEvent(side, offset_text(event.get("timeUnixNano"), span.get("startTimeUnixNano")),
                                        str(event.get("name", "")), _dict(event.get("attributes"))))
    return events


def span_links(otlp: Mapping[str, Any]) -> list[dict[str, Any]]:
    links = otlp.get("links")
    return [link for link in links if isinstance(link, dict)] if isinstance(links, list) else []


def service_of(payload: Mapping[str, Any]) -> str:
    """The service a step came from (its span's resource's ``service.name``), or ""."""
    otlp = otlp_of(payload)
    service = otlp.get("service") if otlp is not None else None
    return service if isinstance(service, str) else ""


def disagreement_text(otlp: Mapping[str, Any], already: str = "") -> str:
    """How the two sides of the call differ, in the reader's language ("" when they agree); a side's
    error is left out where ``already`` (the step's own lines) says it (:func:`side_said`)."""
    note = otlp.get("disagreement")
    if not note:
        return ""
    message = _note_message(note)
    params = _dict(_dict(note).get("params"))
    if isinstance(message, Message) and set(message.params) == {"client", "server"} <= set(params):
        message = Message(message.template, {key: side_message(params[key], already) for key in message.params})
    return translate(message)


def _note_message(note: Any) -> Any:
    try:
        from inspector.traces.foreign import note_message
    except ImportError:  # pragma: no cover - the importer is part of the package
        return note.get("text", "") if isinstance(note, dict) else str(note)
    return note_message(note)


def _side_duration(ms: float | None) -> str:
    """A side's duration: below a second in milliseconds ("0.5 ms", "504.3 ms"), the two sides of a
    quick call differ by less than the timeline's rounding; else as the timeline says it."""
    if ms is None:
        return ""
    from .runs_model import format_duration

    # By the rounded value: 999.96 ms is "1.0 s" as the timeline says it, never "1,000.0 ms".
    said = _("{ms} ms").format(ms=format_fixed(ms, 1)) if round(ms, 1) < 1000 else format_duration(ms / 1000)
    return said.replace(" ", "\u00a0")  # a wrapped line keeps the number with its unit


#: The characters of a side's ``error.type`` said beside "failed" (an attribute a hostile trace may make long).
_ERROR_TYPE_CHARS = 120


def _recorded(side: Mapping[str, Any]) -> tuple[str, str]:
    """What a side's span recorded of how it ended: ``("cancelled", "")``, ``("failed", its error.type
    or "")`` (status ERROR or an ``error.type``), ``("ok", "")`` (status OK), else ``("", "")``: no error."""
    status = side.get("status") if isinstance(side.get("status"), Mapping) else {}
    attributes = side.get("attributes") if isinstance(side.get("attributes"), Mapping) else {}
    error = attributes.get("error.type")
    if error == "cancelled":
        return "cancelled", ""
    if isinstance(error, str) and error:
        return "failed", error
    if status.get("code") == 2:
        return "failed", ""
    return ("ok" if status.get("code") == 1 else ""), ""


def _own_ending(side: Mapping[str, Any], with_error: bool = False) -> str:
    """How a side ended, as its span says: failed (status ERROR or an ``error.type``, which
    ``with_error`` names in brackets), cancelled, ok (status OK), else "no error recorded"."""
    ending, error = _recorded(side)
    if ending == "failed" and with_error and error:
        if len(error) > _ERROR_TYPE_CHARS:
            error = error[:_ERROR_TYPE_CHARS - 1] + "…"
        return _("failed ({error})").format(error=error)
    return outcome_word(ending) if ending else _("no error recorded")


def _side_ending(side: Mapping[str, Any], outcome: str) -> str:
    """A side of a tool call whose step ended ``outcome``, as its own span recorded it: the step's
    outcome where the span says the same (or says no error of a call that ended ok); else what the span
    recorded ("no error recorded" of a client whose call the server failed: the client's span records
    nothing of the answer it received), a failure with its ``error.type``."""
    ending, _error = _recorded(side)
    if ending == "failed" or (ending != outcome and not (outcome == "ok" and not ending)
                              and outcome in ("ok", "failed", "cancelled")):
        return _own_ending(side, with_error=True)
    return outcome_word(outcome)


def sides_say_disagreement(otlp: Mapping[str, Any]) -> bool:
    """Whether :func:`sides_text` says each side in the words of the sides' disagreement (both are in it)."""
    params = _dict(_dict(otlp.get("disagreement")).get("params"))
    return isinstance(otlp.get("server"), dict) and {"client", "server"} <= set(params)


def sides_text(otlp: Mapping[str, Any], outcome: str, kind: str = "tool", already: str = "") -> str:
    """The two sides of a joined call, each with its service, outcome and duration ("" for one span).
    A step of a ``kind`` without an outcome (a request) says how each side's span ended instead:
    never "no outcome recorded" for a span that records an error. Where the sides disagree, each says
    what it did in the disagreement's words, its error left out where ``already`` (the step's own
    lines) says it."""
    server = otlp.get("server")
    if not isinstance(server, dict):
        return ""
    note = _dict(otlp.get("disagreement"))
    params = _dict(note.get("params"))
    said = []
    for side, key in ((otlp, "client"), (server, "server")):
        if key in params:
            # The sides disagree: each says what it did, timed from the client's start.
            what = side_said(params[key], already)
        else:
            ms = duration_ms(side)
            ending = _side_ending(side, outcome) if outcome else \
                _("no outcome recorded") if kind == "tool" else _own_ending(side)
            what = ", ".join(part for part in (ending, _side_duration(ms)) if part)
        service = side.get("service") if isinstance(side.get("service"), str) else ""
        service = service or "?"
        said.append(_("Client ({service}): {what}").format(service=service, what=what) if key == "client"
                    else _("Server ({service}): {what}").format(service=service, what=what))
    return " · ".join(said)


def sides_and_band(otlp: Mapping[str, Any], payload: Mapping[str, Any], outcome: str) -> tuple[str, str]:
    """The line naming a joined call's two sides ("" when there is none, or when the band says it) and
    the band over the step saying where they disagree ("" when they agree), in the reader's language.
    Where the sides disagree, the band says each side in the disagreement's words, with its service."""
    already = own_lines(payload)  # what the step's own lines say (a time-out's exception) is not repeated
    sides = sides_text(otlp, outcome, str(payload.get("kind") or ""), already)
    disagreement = disagreement_text(otlp, already)
    if not disagreement:
        return sides, ""
    in_band = sides_say_disagreement(otlp)
    return ("" if in_band else sides), _("The two sides disagree: {sentence}").format(
        sentence=sides if in_band else disagreement)


__all__ = ["ORIGINS", "AttributeRow", "SpanEvent", "attribute_rows", "disagreement_text", "duration_ms",
           "offset_text", "origin_word", "otlp_of", "service_of", "sides_and_band", "sides_say_disagreement",
           "sides_text", "span_events",
           "span_links", "value_text"]
