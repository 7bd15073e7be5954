"""Spans, in file order, into runs and steps: ours back to what they were, foreign ones as steps.

The client span of an MCP request and the server span of the same request become one step with
two sides (``raw.otlp.server``). A server span names its client side as its parent (the W3C
trace context the client sends in ``_meta``); with Traceloop's instrumentation there is a stream
wrapper in between (client span → ``ResponseStreamWriter`` → the server's writer), which is
followed through the parent links of plumbing spans. Sides that their parents do not join are
paired at the end by method and JSON-RPC request id, when exactly one client side matches.

Streaming: a call's side is held only until the other side arrives (the mcp SDK writes the
agent's spans and the server's in separate batches, so that is usually within a line or two);
what is still unmatched when the file ends becomes a step on its own. The held sides and the
plumbing links live in tables the importer may move to disk, so memory stays bounded.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from inspector.i18n import N_
from inspector.runs.step import stored_payload

from .foreign import ForeignTrace, Side, Wrapped, call_payload, may_wrap, read_side, wrapped_call
from .format import Path, RunHeader, TraceProblem, TraceStep, describe, place, read_payload, said
from .kept_span import check_kept_spans
from .otlp import SPAN_ROLE, STEP_PAYLOAD, is_ours, our_run_header, our_step, read_span, stored_time_of
from .span_parts import NO_RESOURCE, NO_SCOPE, Resource, Scope
from .span_repeats import SpanRepeats

__all__ = ["SpanSorter", "our_key"]


def our_key(trace_id: str) -> tuple[str, str]:
    """The key of a run of ours (and its steps): the trace id alone keys the spans of another
    tool, which may share the trace (a server's spans that joined it)."""
    return ("ours", trace_id)


def _request_key(trace_id: str, side: Side) -> tuple[str, str, str] | None:
    request = side.raw["attributes"].get("jsonrpc.request.id", side.raw["attributes"].get("mcp.request.id"))
    if not isinstance(request, (str, int)) or isinstance(request, bool) or not side.meaning.method:
        return None
    return trace_id, side.meaning.method, str(request)


_new = object.__new__

#: ``raw`` of a foreign step holds the span's parsed JSON values and our own strings, numbers and notes.
_BUILT = frozenset({"raw"})


class _Held(NamedTuple):
    """One side of a call waiting for the other: its step's place in the run and the side (a
    tuple: one is made per span of a file)."""

    sequence: int
    side: Side
    path: Path
    size: int


@dataclass
class SpanSorter:
    """Turns spans, in file order, into runs and steps; the same in both passes of an import.

    ``on_run(key, header, path)`` and ``on_step(key, step, path, size)`` receive the results;
    the key of a run is its trace id; ``size`` is passed on from :meth:`span`. Runs of foreign
    traces are only known at the end, so they are reported by :meth:`finish`.
    """

    on_run: Callable[[str, RunHeader, Path], None]
    on_step: Callable[[str, TraceStep, Path, int], None]
    #: Makes the per-trace tables below (a dict; or tables that move to disk once they grow).
    new_table: Callable[[], MutableMapping[Any, Any]] = dict
    #: Foreign steps as their checked stored form (for an importer, which only writes them).
    stored_payloads: bool = False
    our_uids: MutableMapping[str, str] = field(init=False)     # trace id → the uid of our run span
    has_run_span: MutableMapping[str, tuple[Path, int | None]] = field(init=False)
    first_step: MutableMapping[str, tuple[Path, int | None]] = field(init=False)
    foreign: MutableMapping[str, ForeignTrace] = field(init=False)
    #: (trace id, span id) → the client side of a call waiting for its server side
    calls: MutableMapping[tuple[str, str], _Held] = field(init=False)
    #: (trace id, parent span id) → a server side waiting for its client side; a second one under the
    #: same parent (a session's or a stream's span) waits under (trace id, parent span id, n)
    servers: MutableMapping[tuple[str, ...], _Held] = field(init=False)
    _apart: int = field(init=False, default=0)
    #: (trace id, plumbing span id) → its parent span id (Traceloop's stream wrappers)
    links: MutableMapping[tuple[str, str], str] = field(init=False)
    #: (trace id, parent span id) → a tool step under that parent that did not end ok (the last one; a
    #: call's client side, or an agent's tool span over one or failed itself): a tool span wrapping the
    #: same call (FastMCP's over the mcp SDK's, an agent's TOOL or execute_tool span, at any depth) then
    #: does not claim ok over it
    wrapped: MutableMapping[tuple[str, str], Wrapped] = field(init=False)
    #: (trace id, span id) → a tool span claiming ok with no server side (an agent's TOOL or execute_tool
    #: span; FastMCP's client span, at the end), held until the step of a call under it is made or the
    #: file ends: it then says how that call ended (an export writes it before the call)
    tools: MutableMapping[tuple[str, str], _Held] = field(init=False)
    _tools_held: int = field(init=False, default=0)
    #: (trace id, plumbing span id) → the span above the plumbing it was last found under (see
    #: :meth:`_through_plumbing`): a call under a long chain of plumbing walks it once, not once per call
    above: MutableMapping[tuple[str, str], str] = field(init=False)
    #: The span ids seen per trace: a span whose id its trace had already is left out (and counted).
    repeats: SpanRepeats = field(init=False)

    def __post_init__(self) -> None:
        self.our_uids, self.has_run_span = self.new_table(), self.new_table()
        self.first_step, self.foreign = self.new_table(), self.new_table()
        self.calls, self.servers, self.links = self.new_table(), self.new_table(), self.new_table()
        self.wrapped, self.tools, self.above = self.new_table(), self.new_table(), self.new_table()
        self.repeats = SpanRepeats(self.new_table)

    def span(self, record: Any, path: Path, service: str | None, line: int | None, size: int = 0,
             resource: Resource | None = None, scope: Scope = NO_SCOPE) -> None:
        """Read one span object (``size``: an estimate of the memory its step will hold);
        ``resource`` and ``scope`` are those it came under (``service`` alone for callers
        that know only the service name)."""
        span = read_span(record, path)
        if not self.repeats.first(span):
            return  # the span again (a file written twice into one), or another under its id: the first is kept
        if not is_ours(span):
            # Another tool's span; in the trace of a run of ours (a server that joined it through
            # the traceparent we sent) its step joins that run at the end (see finish).
            if resource is None:
                resource = Resource({"service.name": service}) if service is not None else NO_RESOURCE
            self._foreign(span, path, resource, scope, line, size)
            return
        role = span.attributes[SPAN_ROLE]
        if role == "run":
            if span.trace_id in self.has_run_span:
                first, first_line = self.has_run_span[span.trace_id]
                where = place(first) if first_line is None else said(N_("line {line}: {place}"), line=first_line,
                                                                       place=place(first))
                raise TraceProblem(path, said(N_("trace {trace} has a second run span (the first is at {place})"),
                                              trace=span.trace_id, place=where))
            self.has_run_span[span.trace_id] = (path, line)
            header = our_run_header(span, path)
            self.our_uids[span.trace_id] = header.uid
            self.on_run(our_key(span.trace_id), header, path)
        elif role == "step":
            if span.trace_id not in self.first_step:
                self.first_step[span.trace_id] = (path, line)
            step = our_step(span, path)
            check_kept_spans(step.step.raw, (*path, "attributes", STEP_PAYLOAD, "raw"))
            self.on_step(our_key(span.trace_id), step, path, size)
        elif role != "leg":  # legs are rebuilt from their step's payload; their spans are for viewers
            raise TraceProblem((*path, "attributes", SPAN_ROLE),
                               said(N_("must be 'run', 'step' or 'leg', got {value}"), value=describe(role)))

    def _foreign(self, span: Any, path: Path, resource: Resource, scope: Scope, line: int | None, size: int) -> None:
        trace = self.foreign.get(span.trace_id)
        if trace is None:
            trace = ForeignTrace(span.trace_id, path, line)
        side = read_side(span, resource, scope)
        trace.add(span, resource.service, side.meaning, side.ending)
        self.foreign[span.trace_id] = trace  # stored again: a table on disk holds a copy
        held = _Held(trace.count, side, path, size)
        trace_id, meaning = span.trace_id, side.meaning
        if meaning.plumbing and span.parent_id and meaning.side != "server":
            self.links[(trace_id, span.span_id)] = span.parent_id
            inner = self.wrapped.pop((trace_id, span.span_id), None)
            if inner is not None:  # a call under this plumbing span came first: the span over it learns its end
                self.wrapped[(trace_id, self._through_plumbing(trace_id, span.parent_id))] = inner
            waiting = self.servers.get((trace_id, span.span_id))
            if waiting is not None and (trace_id, span.parent_id) in self.calls:
                del self.servers[(trace_id, span.span_id)]
                self._emit(trace_id, self.calls.pop((trace_id, span.parent_id)), waiting)
        if meaning.side == "client" and not meaning.plumbing:
            waiting = self.servers.pop((trace_id, span.span_id), None)
            if waiting is None:
                self.calls[(trace_id, span.span_id)] = held
            else:
                self._emit(trace_id, held, waiting)
            return
        if meaning.side == "server" and span.parent_id:
            target = self.links.get((trace_id, span.parent_id), span.parent_id)
            client = self.calls.pop((trace_id, target), None)
            if client is None:
                key: tuple[str, ...] = (trace_id, span.parent_id)
                if key in self.servers:  # not the one server side of a call: kept apart, never lost
                    self._apart += 1
                    key = (trace_id, span.parent_id, str(self._apart))
                self.servers[key] = held
            else:
                self._emit(trace_id, client, held)
            return
        self._emit(trace_id, held, None)

    def _emit(self, trace_id: str, client: _Held, server: _Held | None, hold: bool = True) -> None:
        """Make the step of one side, or of a call's two sides. A tool span that may wrap a call waits for
        that call's step (unless not ``hold``), then says how the call ended. The tool spans waiting over
        the step just made are made in turn, in a loop: a chain of wrappers a file writes outermost first
        is as deep as the file is long, too deep for a recursion."""
        while True:
            parent = self._step(trace_id, client, server, hold)
            waiting = self.tools.pop((trace_id, parent), None) if parent and self._tools_held else None
            if waiting is None:
                return
            self._tools_held -= 1
            client, server, hold = waiting, None, False

    def _step(self, trace_id: str, client: _Held, server: _Held | None, hold: bool) -> str | None:
        """Make one step (or hold a tool span, see :meth:`_emit`); the parent span id of a call's step that
        a tool span may be waiting over (``None``: none can be)."""
        side = client.side
        wrapped = None
        if server is None and side.meaning.kind == "tool" and may_wrap(side):
            wrapped = self.wrapped.get((trace_id, side.raw["spanId"]))
            if wrapped is None and hold:
                self.tools[(trace_id, side.raw["spanId"])] = client
                self._tools_held += 1
                return None
        payload, result = call_payload(side, server.side if server is not None else None, wrapped)
        parent = side.raw["parentSpanId"]
        if parent and self.links:
            parent = self._through_plumbing(trace_id, parent)
        # Any tool step but a server's (a call's client side; an agent's tool span, over a call or over
        # another tool span): a tool span of the same tool over it is one call with it and learns how this
        # one ended, at any depth of a chain of them (before, only a call's client side told the span over it).
        call_step = parent and payload["kind"] == "tool" and side.meaning.side != "server"
        if call_step and payload.get("toolOutcome") != "ok":
            said = wrapped_call(payload, result, side.raw["spanId"], client.sequence)
            if said is not None:
                self.wrapped[(trace_id, parent)] = said
        checked = stored_payload(payload, _BUILT) if self.stored_payloads else None
        # Filled as the generated __init__ would, without its object.__setattr__ per field (one step per
        # call of a file): the same object, still frozen.
        step = _new(TraceStep)
        step.__dict__.update(sequence=client.sequence, started_at=stored_time_of(client.side.start_ns),
                             step=checked if checked is not None else read_payload(payload, client.path))
        self.on_step(trace_id, step, client.path, client.size + (server.size if server is not None else 0))
        return parent if call_step else None

    def _through_plumbing(self, trace_id: str, parent: str) -> str:
        """The span a call under ``parent`` is under once the plumbing spans between are passed (OpenLIT's
        ``mcp tools/call`` over its ``mcp transport/request`` over the ``mcp`` SDK's call: one call); a hostile
        file's plumbing that goes round in a cycle ends where it came round. Each plumbing span walked remembers
        where the walk ended (a link arriving later may lead further: the walk goes on from there), so the calls
        under a chain thousands of spans long walk it once between them."""
        walked = [parent]
        seen = {parent}
        while True:
            found = self.above.get((trace_id, parent))
            if found is None or found in seen:
                found = self.links.get((trace_id, parent))
            if found is None or found in seen:
                break
            seen.add(found)
            walked.append(found)
            parent = found
        for span in walked[:-1]:
            self.above[(trace_id, span)] = parent
        return parent

    def _pair_by_request_id(self) -> None:
        """Sides whose parents do not join them (a server span under an HTTP server span, say) are
        paired when exactly one client side of the trace has the same method and JSON-RPC request id
        (and session id, when both name one)."""
        if not self.servers:
            return
        index = self.new_table()  # (trace, method, request id) → the one client side, or None: ambiguous
        for key, held in self.calls.items():
            request = _request_key(key[0], held.side)
            if request is not None:
                index[request] = None if request in index else key
        for key in list(self.servers.keys()):
            request = _request_key(key[0], self.servers[key].side)
            client_key = index.get(request) if request is not None else None
            if client_key is None or client_key not in self.calls:
                continue
            client, server = self.calls[client_key], self.servers[key]
            sessions = (client.side.raw["attributes"].get("mcp.session.id"),
                        server.side.raw["attributes"].get("mcp.session.id"))
            if None not in sessions and sessions[0] != sessions[1]:
                continue
            del self.calls[client_key], self.servers[key]
            self._emit(key[0], client, server)

    def finish(self, *, complete: bool = True) -> None:
        """Pair what is left, report the sides still alone and the runs of foreign traces; refuse
        steps of ours whose run span is missing (unless not ``complete``: a trace still arriving,
        as the receiver holds it, may have its run span yet to come)."""
        for trace, (path, line) in (self.first_step.items() if complete else ()):
            if trace not in self.has_run_span:
                raise TraceProblem(path, said(N_("trace {trace} has steps but no run span (is the file complete?)"),
                                              trace=trace), line)
        for key in list(self.servers.keys()):
            trace_id, parent = key[0], key[1]
            target = self.links.get((trace_id, parent), parent)
            if (trace_id, target) in self.calls:
                self._emit(trace_id, self.calls.pop((trace_id, target)), self.servers.pop(key))
        self._pair_by_request_id()
        for calls in (self.calls, self.servers):
            for key, held in calls.items():
                self._emit(key[0], held, None)
        for key in list(self.tools.keys()):  # tool spans over a call that ended ok, or over none
            waiting = self.tools.pop(key, None)  # (one made over a call made here is gone already)
            if waiting is not None:
                self._tools_held -= 1
                self._emit(key[0], waiting, None, hold=False)
        for trace in self.foreign.values():
            try:
                header = trace.header()
                joins = self.our_uids.get(trace.trace_id)
                if joins is not None:
                    header = replace(header, joins=joins)
                self.on_run(trace.trace_id, header, trace.path)
            except TraceProblem as problem:
                problem.line = problem.line or trace.line
                raise
