"""Spans another tool wrote, as steps: one span (or the client and server sides of one call) per step.

What each span means is read by :mod:`.conventions`, how it ended by :mod:`.outcomes`; this
module builds the step payload and keeps everything the span had under ``raw.otlp`` (name, ids,
kind, status, attributes, its resource and service, its scope, events and links). See
``docs/trace-format.md``, "Foreign spans". No I/O, no SQLite, no Qt.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from inspector.i18n import N_
from inspector.i18n.messages import Message, message_from_note
from inspector.runs.ending import TIMED_OUT_MARK
from inspector.runs.step import stored_duration

from .address_secrets import hide_typed_user_info
from .conventions import Meaning, shown_name, understand
from .format import Path, RunHeader, TraceStep, read_note, read_payload
from .otlp import RUN_NOTE, STATUS_ERROR, STEP_NOTE, UNFINISHED_NOTE, Span, stored_time_of
from .outcomes import CANCELLED, FAILED, OK, UNRECORDED, Ending, ending
from .plumbing_mark import marks_plumbing
from .span_parts import NO_RESOURCE, NO_SCOPE, Resource, Scope, exception_of

__all__ = ["ForeignTrace", "Side", "Wrapped", "call_payload", "foreign_kind", "foreign_step", "may_wrap",
           "note_message", "read_side", "step_payload", "wrapped_call"]


@dataclass(frozen=True)
class Side:
    """One span read for a step: its ``raw.otlp``, meaning and ending (``None``: it never ended)."""

    #: The span's name as its source shows it (:func:`~.conventions.shown_name`); ``raw["name"]`` is its own.
    name: str
    raw: dict[str, Any]
    meaning: Meaning
    ending: Ending | None
    start_ns: int
    end_ns: int | None
    #: A reviewer's note on the step, as an export of ours added it to the span (``run_inspector.step.note``).
    note: str = ""

    @property
    def duration_ms(self) -> float:
        return stored_duration((self.end_ns - self.start_ns) / 1_000_000) if self.end_ns is not None else 0


def read_side(span: Span, resource: Resource = NO_RESOURCE, scope: Scope = NO_SCOPE) -> Side:
    """Read one span with the resource and scope it came under.

    The notes an export of ours added to the span (``run_inspector.run.note`` and ``.step.note``)
    are taken off it again: the span is kept as its source wrote it."""
    note = ""
    if RUN_NOTE in span.attributes or STEP_NOTE in span.attributes:
        attributes = dict(span.attributes)
        attributes.pop(RUN_NOTE, None)
        found = attributes.pop(STEP_NOTE, None)
        note = found if isinstance(found, str) else ""
        span = replace(span, attributes=attributes)
    meaning = understand(span.name, span.kind, span.attributes, scope.name, span.events)
    raw: dict[str, Any] = {"name": span.name, "traceId": span.trace_id, "spanId": span.span_id,
                           "parentSpanId": span.parent_id, "kind": span.kind,
                           "startTimeUnixNano": str(span.start_ns),
                           "endTimeUnixNano": str(span.end_ns) if span.end_ns is not None else None,
                           "status": {"code": span.status_code, "message": span.status_message},
                           "attributes": span.attributes, "service": resource.service,
                           "resource": resource.to_json(), "scope": scope.to_json()}
    if span.events:
        raw["events"] = span.events
    if span.links:
        raw["links"] = span.links
    if span.dropped_events:
        raw["droppedEvents"] = span.dropped_events
    if span.dropped_links:
        raw["droppedLinks"] = span.dropped_links
    if meaning.convention:
        raw["convention"] = meaning.convention
    if meaning.side:
        raw["side"] = meaning.side
    if marks_plumbing(meaning, span.parent_id, span.attributes, scope.name):
        raw["plumbing"] = True
    finished = span.end_ns is not None
    if not finished:
        raw["unfinished"] = True
    exception = exception_of(span.events, span.attributes)
    result = ending(meaning, span.status_code, span.status_message, span.attributes, exception) if finished else None
    if result is not None and result.notes:
        raw["notes"] = [_note(message) for message in result.notes]
    # Filled as the generated __init__ would, without its object.__setattr__ per field (one side
    # per span of a file): the same object, still frozen.
    side = _new(Side)
    side.__dict__.update(name=shown_name(span.name, span.attributes), raw=raw, meaning=meaning, ending=result,
                         start_ns=span.start_ns, end_ns=span.end_ns, note=note)
    return side


_new = object.__new__


def _note(message: Message) -> dict[str, Any]:
    """A sentence as data: its English template and values, for a reader to translate."""
    params = {name: _note(value) if isinstance(value, Message) else value for name, value in message.params.items()}
    return {"template": message.template, "params": params, "text": str(message)}


def note_message(note: Any) -> Message | str:
    """A note of ``raw.otlp`` (``notes[]``, ``disagreement``) as the sentence it was (see
    :func:`inspector.i18n.messages.message_from_note`, which checks a stranger's template)."""
    return message_from_note(note)


def foreign_kind(span: Span) -> str:
    """The step kind of a span we did not write: ``tool``, ``llm`` or ``request``."""
    return understand(span.name, span.kind, span.attributes).kind


def foreign_step(span: Span, sequence: int, path: Path, resource: Resource = NO_RESOURCE,
                 scope: Scope = NO_SCOPE) -> TraceStep:
    """A span from another tool as one step (see docs/trace-format.md, "Foreign spans")."""
    side = read_side(span, resource, scope)
    return TraceStep(sequence, stored_time_of(span.start_ns), read_payload(step_payload(side), path))


# -- one step from one span, or from the two sides of a call -------------------------------------------

_SIDE_WORDS = {
    "timed_out": N_("gave up after {ms} ms ({error})"),
    FAILED: N_("failed after {ms} ms ({error})"),
    CANCELLED: N_("was cancelled after {ms} ms"),
    "explicit_ok": N_("finished ok after {ms} ms"),
    OK: N_("ended with no error recorded after {ms} ms"),
    UNRECORDED: N_("recorded no outcome after {ms} ms"),
    "unfinished": N_("never ended (its span has no end time)"),
    # A client that ended with no error recorded before its server's side did (see :func:`_left_first_ms`).
    "left_first": N_("stopped waiting after {ms} ms, {left} ms before the server's side ended"),
}


def _side_words(side: Side, since_ns: int, left: float | None = None) -> Message:
    """What one side did, timed from ``since_ns`` (the client's start: both sides on one clock); for a
    client that stopped waiting ``left`` ms before its server's side ended, that (its span says no more).

    A side that starts before ``since_ns`` (a server whose clock is behind its client's: on one clock a
    request is received after it is sent) is timed from its own start: from the client's it read "the
    server failed after -1492 ms"."""
    result = side.ending
    if result is None:
        return Message(_SIDE_WORDS["unfinished"])
    if 0 < side.start_ns < since_ns:
        since_ns = side.start_ns
    ms = round(((side.end_ns or since_ns) - since_ns) / 1_000_000)
    if left is not None:
        return Message(_SIDE_WORDS["left_first"], {"ms": ms, "left": left})
    key = ("timed_out" if result.timed_out else "explicit_ok" if result.outcome == OK and result.explicit_ok
           else result.outcome)
    return Message(_SIDE_WORDS[key], {"ms": ms, "error": result.error or result.outcome})


#: How much sooner than its server's side a client's side must end to count as having stopped waiting: any
#: sooner at all. On one clock a client that got its answer ends after its server's side (the ``mcp`` SDK's server
#: span ends as the handler returns, before the answer is sent: 0.7 ms and more in tests/fixtures/otel/), and one
#: that stopped waiting ends before it, in the stateless era (``mcp`` 2.3's client's default) by as little as
#: 0.9 ms: the server's work stops as the request's stream closes (with a margin of 1 ms such cancels read ok).
LEFT_FIRST_NS = 0
_LEFT_FIRST = N_("no outcome recorded: the client stopped waiting {ms} ms before the server's side ended, and "
                 "recorded no error (a cancel, or a client that gave up: the trace does not say which)")


def _left_first_ms(client: Side, server: Side) -> float | None:
    """How many ms before the server's side the client's ended, when it ended first with no error
    recorded (``None`` otherwise: it waited for the answer, or said why it stopped): whole from 1 ms on,
    below that to a hundredth (never "0 ms")."""
    if client.ending is None or server.ending is None or client.end_ns is None or server.end_ns is None:
        return None
    if client.ending.outcome != OK or client.ending.explicit_ok or server.end_ns - client.end_ns <= LEFT_FIRST_NS:
        return None
    ms = (server.end_ns - client.end_ns) / 1_000_000
    return round(ms) if ms >= 1 else max(round(ms, 2), 0.01)


#: The ``error.type`` the MCP conventions give a ``tools/call`` whose result had ``isError``: the ``mcp``
#: SDK's server (and FastMCP's) sets it only for a result that reached the wire as one, an answer and not a
#: JSON-RPC error.
TOOL_ERROR = "tool_error"


def _answered_tool_error(client: Side, server: Side, left: float | None) -> bool:
    """True when the client received the answer its server marked a tool error, so both sides know the
    tool failed and they do not disagree: the server's side failed with ``error.type`` ``tool_error``
    (its ``isError`` result, sent as an answer), and the client's side ended when that answer came (not
    before the server's side: ``left`` is ``None``) with no status, error or result of its own. A client
    span records nothing of an answer that is not a JSON-RPC error (the ``mcp`` SDK's sets ``error.type``
    and status ERROR only for those), so an ``isError`` answer leaves it so. A client that said ok, or
    recorded a result, or stopped waiting, still disagrees (see docs/trace-format.md, "Client beside server")."""
    ending_, answer = client.ending, server.ending
    if ending_ is None or answer is None or left is not None or client.end_ns is None or server.end_ns is None:
        return False
    return (ending_.outcome == OK and not ending_.explicit_ok and answer.outcome == FAILED
            and not answer.timed_out and server.raw.get("attributes", {}).get("error.type") == TOOL_ERROR)


def _merged_outcome(client: Ending | None, server: Ending | None) -> Ending | None:
    """The step's outcome: the client's, unless the server says the call failed or was cancelled."""
    if client is None or server is None:
        return client
    if client.outcome in (OK, UNRECORDED) and server.outcome in (FAILED, CANCELLED):
        return server
    return client


#: What a tool span that wraps the client side of an MCP call of the same tool (FastMCP's ``tools/call NAME``
#: over the ``mcp`` SDK's ``MCP send tools/call NAME``; an agent's OpenInference TOOL or GenAI
#: ``execute_tool`` span) says when it claims ok and the call under it did not end ok. The call's step
#: holds the truth of the call (with its server side); this one says so rather than "ok".
_WRAPS_UNRECORDED = N_("no outcome recorded: the span ended without an error, and the call it wraps (span {span}) "
                       "has no outcome recorded either")
_WRAPS_NONE = N_("no outcome recorded: the call it wraps (step {step}, span {span}) has none; {own}")
_WRAPS_FAILED = N_("failed in the call it wraps (step {step}, span {span}): {what}; {own}")
_WRAPS_CANCELLED = N_("cancelled in the call it wraps (step {step}, span {span}); {own}")
_OWN_OK = N_("this span's own status said ok")
_OWN_NO_ERROR = N_("this span recorded no error of its own")


class Wrapped(NamedTuple):
    """The step of a tool call's client side that did not end ok, as a tool span wrapping the call
    needs to know it: its tool, span id, step sequence, outcome (``failed``, ``cancelled`` or none
    recorded), whether it timed out, and the first sentence of how it ended: for a step that failed in a
    call it wraps itself, that call's cause, so a chain of wrappers names the innermost cause once (a
    tuple: the importer keeps one per call that did not end ok)."""

    tool: str | None
    span: str
    step: int
    outcome: str
    timed_out: bool = False
    said: Message | None = None


def may_wrap(client: Side) -> bool:
    """True when ``client`` is a tool span that claims ok (status OK, a result, or nothing recorded
    under conventions whose unset status means ok) or recorded no outcome at all, and is not a server's:
    a client side of an MCP call under it (or a tool span over one) may tell how the call really ended."""
    ending_ = client.ending
    return (client.meaning.kind == "tool" and client.meaning.side != "server" and ending_ is not None
            and ending_.outcome in (OK, UNRECORDED))


def wrapped_call(payload: dict[str, Any], result: Ending | None, span: str, sequence: int) -> Wrapped | None:
    """What a span wrapping the call of ``payload`` (a client side's tool step, which ended so:
    ``result``) needs to know of it: ``None`` when the call ended ok."""
    outcome = payload.get("toolOutcome", UNRECORDED)
    if outcome == OK:
        return None
    said = result.notes[0] if result is not None and result.notes else None
    if said is not None and said.template == _WRAPS_FAILED:
        # The step failed in a call it wraps in turn: pass on that call's cause, not this step's sentence
        # about it (a chain of wrappers of one tool would say every inner sentence again, one level more
        # at each step: N² words for a chain a stranger's file may make thousands long), and the cause's
        # own words clipped (a long error text said again on every step of the chain: N times its size).
        said = _clipped(said.params["what"])
    return Wrapped(payload.get("toolName"), span, sequence, outcome, result is not None and result.timed_out, said)


#: How many characters of a value a cause keeps when a chain of wrappers passes it on (see :func:`wrapped_call`);
#: the step of the call that failed keeps it whole.
CAUSE_CHARS = 300


def _clipped(cause: Message) -> Message:
    """``cause`` with each text it names cut to :data:`CAUSE_CHARS` characters and an ellipsis (itself
    when none is longer)."""
    if all(not isinstance(value, str) or len(value) <= CAUSE_CHARS for value in cause.params.values()):
        return cause
    params = {name: value[:CAUSE_CHARS - 1] + "…" if isinstance(value, str) and len(value) > CAUSE_CHARS else value
              for name, value in cause.params.items()}
    return replace(cause, params=params)


#: The official ``mcp`` SDK's instrumentation scope. Its client span of a call (``MCP send tools/call NAME``) sets an
#: error only for a JSON-RPC error answer or its own time-out: an answer with ``isError``, a cancel by its caller and a
#: connection that closed before the answer leave the status unset, as a plain answer does. Only the server side
#: tells them apart; without it the client side records no outcome.
SDK_SCOPE = "mcp-python-sdk"
_LONE_SDK_CALL = N_("no outcome recorded: the mcp SDK's client span ended without an error, which it also does for "
                    "an error the tool reported, a cancel and a closed connection, and the trace holds no server "
                    "side of the call")


def _lone_sdk_call(client: Side, server: Side | None) -> bool:
    """``client`` is the ``mcp`` SDK's client side of a tool call without its server side, and recorded no error."""
    own = client.ending
    return (server is None and client.meaning.kind == "tool" and client.meaning.side == "client"
            and client.raw.get("scope", {}).get("name") == SDK_SCOPE
            and own is not None and own.outcome == OK and not own.explicit_ok)


def _wrapping_ending(client: Side, wrapped: Wrapped) -> Ending | None:
    """The ending of a tool span that claims ok (or recorded no outcome) over the call it wraps, which did
    not end ok (``None``: it is a call of another tool, or it failed itself, so its own ending stands)."""
    own = client.ending
    if (own is None or own.outcome not in (OK, UNRECORDED)
            or (client.meaning.tool and wrapped.tool != client.meaning.tool)):
        return None
    where = {"step": wrapped.step, "span": wrapped.span,
             "own": Message(_OWN_OK if own.explicit_ok else _OWN_NO_ERROR)}
    if wrapped.outcome == FAILED:
        what = wrapped.said or Message(N_("failed"))
        said = Message(_WRAPS_FAILED, {**where, "what": what})
        return Ending(FAILED, wrapped.timed_out, str(what), notes=(said,))
    if wrapped.outcome == CANCELLED:
        return Ending(CANCELLED, notes=(Message(_WRAPS_CANCELLED, where),))
    if own.explicit_ok:
        return Ending(UNRECORDED, notes=(Message(_WRAPS_NONE, where),))
    return Ending(UNRECORDED, notes=(Message(_WRAPS_UNRECORDED, {"span": wrapped.span}),))


def _call_ending(client: Side, server: Side | None) -> tuple[Ending | None, Message | None, float | None]:
    """How a call ended: its client side's ending, or with its server side the two together (and the
    sentence of the step's own when neither side's says it, and :func:`_left_first_ms`)."""
    if server is None:
        return client.ending, None, None
    result = _merged_outcome(client.ending, server.ending)
    left = _left_first_ms(client, server)
    if left is not None and result is not None and result.outcome == OK and not result.explicit_ok:
        unrecorded = Message(_LEFT_FIRST, {"ms": left})
        return Ending(UNRECORDED, notes=(unrecorded,)), unrecorded, left
    return result, None, left


def step_payload(client: Side, server: Side | None = None, wrapped: Wrapped | None = None) -> dict[str, Any]:
    """The payload of a step: one span, or a call's client side with its server side (see :func:`call_payload`)."""
    return call_payload(client, server, wrapped)[0]


def call_payload(client: Side, server: Side | None = None,
                 wrapped: Wrapped | None = None) -> tuple[dict[str, Any], Ending | None]:
    """The payload of a step: one span, or a call's client side with its server side; and how it ended.

    ``wrapped``: for a tool span with no server side of its own that :func:`may_wrap`, the step of
    the MCP call of the same tool under it when that one did not end ok: then this one does not claim
    ok either, and says which step holds the call's truth (see docs/trace-format.md, "Client beside
    server")."""
    meaning = client.meaning
    raw = dict(client.raw)
    notes: list[str] = []
    result = client.ending
    if _lone_sdk_call(client, server):
        result = Ending(UNRECORDED, notes=(Message(_LONE_SDK_CALL),))
        raw["outcomeNote"] = _note(result.notes[0])
    if wrapped is not None and server is None:
        wrapping = _wrapping_ending(client, wrapped)
        if wrapping is not None:
            result = wrapping
            raw["outcomeNote"] = _note(wrapping.notes[0])
    if server is not None:
        server_raw = raw["server"] = dict(server.raw)
        server_raw.pop("traceId", None)  # the client's
        result, together, left = _call_ending(client, server)
        if together is not None:
            raw["outcomeNote"] = _note(together)  # the step's own: neither side's notes say it
        if left is not None or (client.ending is None) != (server.ending is None) or (
                client.ending is not None and server.ending is not None
                and (client.ending.outcome, client.ending.timed_out) != (server.ending.outcome,
                                                                          server.ending.timed_out)
                and not _answered_tool_error(client, server, left)):
            sentence = Message(N_("the client {client}; the server {server}"),
                               {"client": _side_words(client, client.start_ns, left),
                                "server": _side_words(server, client.start_ns)})
            disagreement = raw["disagreement"] = _note(sentence)
            notes.append(disagreement["text"])  # str(sentence), made once
    if result is not None and result.timed_out and result.outcome == FAILED:
        raw[TIMED_OUT_MARK] = True  # the importer's finding, which no leg can tell (see inspector/runs/ending.py)
    kind = meaning.kind
    if server is not None and server.meaning.kind == "tool":
        kind = "tool"
    payload: dict[str, Any] = {"kind": kind, "round": 0, "durationMs": client.duration_ms, "raw": {"otlp": raw}}
    note = client.note or (server.note if server is not None else "")
    if note:
        payload["note"] = note
    reasons = _said(result, client, server)
    if kind == "tool":
        _tool_fields(payload, client, server, result, reasons + notes)
    else:
        _other_fields(payload, client, result, reasons + notes)
    return payload, result


def _said(result: Ending | None, client: Side, server: Side | None) -> list[str]:
    """The sentences of the step's ending (a side's own were said in its ``raw.otlp.notes`` already)."""
    if result is None:
        return []
    for side in (client, server):
        if side is not None and result is side.ending:
            return [note["text"] for note in side.raw.get("notes", ())]
    return [str(message) for message in result.notes]


def _tool_fields(payload: dict[str, Any], client: Side, server: Side | None, result: Ending | None,
                 notes: list[str]) -> None:
    sides = (client, server) if server is not None else (client,)
    name = next((side.meaning.tool for side in sides if side.meaning.tool), None)
    payload["toolName"] = name or client.name
    arguments = next((side.meaning.arguments for side in sides if side.meaning.arguments is not None), None)
    if arguments is not None:
        payload["toolArguments"] = arguments
    answering = next((side.meaning for side in sides if side.meaning.result is not None), None)
    answers = [answering.result] if answering is not None and answering.result is not None else []
    if result is not None and result.said_error and answers == [result.error]:
        answers = []  # the answer is the error its notes say (Strands hands its model the error so)
    if answering is not None and answering.blocks is not None:
        payload["contentBlocks"] = [dict(block) for block in answering.blocks.blocks]
        if answering.blocks.dropped:
            payload["contentBlocksDropped"] = answering.blocks.dropped
    # What went wrong comes first; an answer the client never saw (its server side's) after it.
    ordered = notes + answers if result is not None and result.outcome in (FAILED, CANCELLED) else answers + notes
    lines = [line for line in ordered if line]
    if client.ending is None:
        lines.insert(0, UNFINISHED_NOTE)
    if result is not None and result.outcome != UNRECORDED:
        payload["toolIsError"] = result.outcome != OK
        payload["toolOutcome"] = result.outcome
    payload["toolResult"] = "\n".join(lines) if lines else (client.raw["status"]["message"] or "")


def _other_fields(payload: dict[str, Any], client: Side, result: Ending | None, notes: list[str]) -> None:
    words = [client.name]
    if client.ending is None:
        words.append(f"({UNFINISHED_NOTE})")
    elif result is not None and result.outcome == FAILED and not notes:
        words.append(f"(error: {client.raw['status']['message'] or 'no message'})")
    content = " ".join(word for word in words if word)
    payload["content"] = "\n".join([content, *notes]) if notes else content
    meaning = client.meaning
    if meaning.kind == "llm":
        for ours, count in (("promptTokens", meaning.input_tokens), ("completionTokens", meaning.output_tokens)):
            if count is not None:
                payload[ours] = count


# -- the run of a trace -----------------------------------------------------------------------------

@dataclass
class ForeignTrace:
    """What pass 1 gathers about a trace of foreign spans to describe its run."""

    trace_id: str
    path: Path
    line: int | None
    service: str | None = None
    root_name: str | None = None
    first_name: str = ""
    start_ns: int | None = None
    end_ns: int = 0
    root_unfinished: bool = False
    error: bool = False
    cancelled_root: bool = False
    count: int = 0
    #: The run's note, as an export of ours added it to a span (``run_inspector.run.note``).
    note: str = ""
    #: The MCP server the trace shows: the service of its first server side of an MCP request, else
    #: the ``server.address`` (and ``server.port``) its first MCP client span names.
    mcp_server: str | None = None
    _server_seen: bool = False
    #: A side of an MCP request was seen: the trace is of an MCP client or server, so the service that recorded
    #: its root is not its server (a client's trace that names no server names none).
    _request_seen: bool = False

    def add(self, span: Span, service: str | None, meaning: Meaning | None = None,
            ended: Ending | None = None) -> None:
        """Account for one more span of this trace (``meaning``: what it was read as; ``ended``: how it
        ended, when read). A span that ended cancelled (``error.type`` cancelled, a cancellation as its
        exception) fails nothing, though its status says error: cancelled is never failed; a root span
        so ended makes the run cancelled."""
        cancelled = ended is not None and ended.outcome == CANCELLED
        if self.count == 0:
            self.first_name = shown_name(span.name, span.attributes)
        self.count += 1
        if meaning is not None and meaning.side and (self.mcp_server is None or meaning.side == "server"):
            self._request_seen = True
            self._see_server(span, service, meaning.side)
        elif meaning is not None and meaning.convention == "openlit" and meaning.method:
            # OpenLIT marks no client side: its agent's `mcp tools/call` is an MCP request all the same, and the
            # service that recorded it (the agent, "support-agent") is not the server; a server.address it carries is.
            self._request_seen = True
            if self.mcp_server is None:
                self._see_server(span, service, "client")
        if not span.parent_id and self.root_name is None:
            self.root_name, self.service = shown_name(span.name, span.attributes), service
            self.root_unfinished = span.end_ns is None
            self.cancelled_root = cancelled or span.attributes.get("error.type") == "cancelled"
        if span.start_ns and (self.start_ns is None or span.start_ns < self.start_ns):
            self.start_ns = span.start_ns
        self.end_ns = max(self.end_ns, span.end_ns or 0)
        # (a span that said ok of a call that failed: a Strands tool's error answer under status OK)
        self.error = self.error or (span.status_code == STATUS_ERROR and not cancelled) or (
            ended is not None and ended.outcome == FAILED and meaning is not None and meaning.convention == "strands")
        note = span.attributes.get(RUN_NOTE)
        if isinstance(note, str) and note and not self.note:
            self.note = note

    def _see_server(self, span: Span, service: str | None, side: str) -> None:
        """Take the MCP server a side of a request names: a server side's own service wins over what
        a client side says of its server (and over the service that recorded the trace)."""
        if side == "server":
            if service and not self._server_seen:
                self.mcp_server, self._server_seen = service, True
            return
        address = span.attributes.get("server.address")
        if isinstance(address, str) and address:
            # An address, also typed without its scheme: "u:pw@h" is a user name and password, not a service's name
            # (svc:v2@prod) as the run's server is kept whole.
            address = hide_typed_user_info(address, "")
            port = span.attributes.get("server.port")
            self.mcp_server = f"{address}:{port}" if isinstance(port, int) and not isinstance(port, bool) else address

    def header(self) -> RunHeader:
        """The run of this trace: failed if any span failed; interrupted if the root never ended. Its
        server is the MCP server the trace shows (:attr:`mcp_server`); in a trace with no MCP request in it,
        the service that recorded the root span; else none (an MCP client's spans that name no server)."""
        status = ("cancelled" if self.cancelled_root else "failed" if self.error
                  else "interrupted" if self.root_unfinished else "ok")
        return RunHeader(uid=f"otlp-{self.trace_id}",
                         title=self.root_name or self.first_name or f"trace {self.trace_id[:8]}",
                         source="otlp", status=status,
                         server=self.mcp_server or (None if self._request_seen else self.service),
                         started_at=stored_time_of(self.start_ns),
                         finished_at="" if self.root_unfinished else stored_time_of(self.end_ns),
                         note=read_note(self.note, (*self.path, "attributes", RUN_NOTE)))
