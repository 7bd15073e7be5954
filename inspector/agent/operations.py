"""MCP operations turned into what a run records: a tool result and a run step with its legs.

A transport failure or a tool's ``isError`` becomes a *failed* tool result; a cancellation a
*cancelled* one (never failed). Either way the caller (the agent loop) is told and carries on.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from inspector.mcp import (
    CancelSignal,
    ErrorKind,
    FanOut,
    McpClient,
    McpTransportError,
    OperationFinished,
    OperationObserver,
    OperationRecorder,
    ServerEndpoint,
)
from inspector.mcp.eras import era_of_version
from inspector.mcp.messages import N_, NP_, Message, Number, note_of, one_sentence
from inspector.mcp.output_schema import check_structured
from inspector.mcp.results import (
    NO_TEXT_SENTENCE,
    TOOL_REPORTED_ERROR,
    ToolCallResult,
    non_text_sentence,
)
from inspector.mcp.server_requests import clipped, shown_method
from inspector.mcp.standalone import ServerNotification
from inspector.mcp.tasks import look_up_task
from inspector.runs import Artifact, Leg, RunStep, RunTrace, StepKind, ToolOutcome, ToolResult
from inspector.runs.progress import bound_progress, progress_note
from inspector.runs.wire import SPOKEN_ERAS


@dataclass(frozen=True)
class OperationRecord:
    """One finished operation, ready to store."""

    step: RunStep
    #: The run's status if this operation were the whole run: ok, failed or cancelled.
    status: str
    #: What the server's health counts: ok, tool_error (it answered; the tool reported an error),
    #: failed, or cancelled (not its fault).
    health: str
    latency_ms: float
    started_at: datetime
    error: McpTransportError | None
    result: Any = None
    tool_result: ToolResult | None = None
    #: For a work request torn down on the wire (cancel or time-out): was the server told to
    #: stop? ``False`` when it gave no session id (it may run the request to its end).
    server_told_to_stop: bool | None = None


def as_happened(before: Sequence[OperationRecord], record: OperationRecord) -> list[OperationRecord]:
    """An operation's run steps in the order they began: the sign-ins it waited for (``before``) and its own
    ``record``. A sign-in that failed or was cancelled leaves as the record the attempt the server refused,
    which began before that sign-in: written after it, ``runs show`` listed #2 (the refusal) above #1."""
    return sorted((*before, record), key=lambda step: step.started_at)


@dataclass(frozen=True)
class Said:
    """What a step says it found: a sentence of ours (``head``, which a reader says in its own
    language) and what follows it as data (``tail``: names, a server's text), shown as it is."""

    head: Message
    tail: str = ""

    def __str__(self) -> str:
        return f"{self.head} {self.tail}" if self.tail else str(self.head)


def said_of(error: McpTransportError) -> Said | str:
    """An error's sentences, as a step says them (its English ``message``, and the sentences as data)."""
    head = one_sentence(error.sentences)
    return Said(head) if str(head) == error.message else error.message


def wording_of(said: Said | Message | str, operation: str | None = None) -> dict[str, Any] | None:
    """The ``wording`` a step stores beside text that begins with ``said`` (after ``"{operation}: "``
    when given): its sentence as data, or ``None`` for text that is not ours to translate."""
    head = said.head if isinstance(said, Said) else said if isinstance(said, Message) else None
    if head is None:
        return None
    # The template inspector.i18n.operation_names.OPERATION_SAID: a reader says "sign-in" in its language.
    return note_of(head if operation is None else Message("{operation}: {said}", {"operation": operation,
                                                                                   "said": head}))


def pages_words(pages: int) -> Message:
    return NP_("{count} page", "{count} pages", {"count": pages}, "count")


def _legs(recorder: OperationRecorder) -> tuple[Leg, ...]:
    return tuple(Leg(leg.method, leg.granted_s, None if leg.elapsed_ms is None else round(leg.elapsed_ms, 2),
                     leg.http_status, leg.outcome.value, leg.exchange) for leg in recorder.legs)


#: How many different methods of server requests a step keeps (a hostile server may invent many).
MAX_SERVER_REQUEST_METHODS = 20


#: How many requests of one method a step keeps in detail (what was asked and answered).
MAX_EXCHANGES_PER_METHOD = 10


def server_requests_summary(recorder: OperationRecorder) -> tuple[dict[str, Any], ...]:
    """The requests the server sent the client, one entry per method in the order first seen:
    ``{"method", "count", "declined", "exchanges"}``. ``declined``: at least one was answered
    with an error (not supported, refused, malformed, cut off by the budget); ``exchanges``: the
    first ten, each ``{"asked", "answered", "declined", "durationMs"}``."""
    by_method: dict[str, dict[str, Any]] = {}
    for seen in recorder.server_requests:
        entry = by_method.get(seen.method)
        if entry is None:
            if len(by_method) >= MAX_SERVER_REQUEST_METHODS:
                continue
            entry = by_method[seen.method] = {"method": seen.method, "count": 0, "declined": False,
                                              "exchanges": []}
        entry["count"] += 1
        entry["declined"] = entry["declined"] or seen.declined
        if len(entry["exchanges"]) < MAX_EXCHANGES_PER_METHOD:
            entry["exchanges"].append({"asked": seen.asked, "answered": seen.answered,
                                       "declined": seen.declined, "durationMs": round(seen.elapsed_ms, 2)})
    return tuple(by_method.values())


#: How many of the server's notifications (log messages, list changes) a step keeps.
MAX_NOTIFICATIONS = 50


def notifications_summary(recorder: OperationRecorder) -> tuple[dict[str, Any], ...]:
    """The server's notifications besides progress, in order, the first 50:
    ``{"method", "via", "level"?, "logger"?, "data"?}`` (log data clipped)."""
    return tuple(notification_entry(seen) for seen in recorder.notifications[:MAX_NOTIFICATIONS])


def notification_entry(seen: ServerNotification) -> dict[str, Any]:
    """One notification as a step keeps it: ``{"method", "via", "level"?, "logger"?, "data"?}``."""
    entry: dict[str, Any] = {"method": shown_method(seen.method), "via": seen.via}
    if seen.method == "notifications/message":
        entry["level"] = seen.level
        logger = seen.params.get("logger")
        if isinstance(logger, str):
            entry["logger"] = shown_method(logger)
        entry["data"] = clipped(seen.params.get("data"))
    return entry


#: The longest command line a step keeps (characters); the rest is cut with an ellipsis.
MAX_COMMAND_CHARS = 2000


def wire_fields(server: ServerEndpoint, recorder: OperationRecorder) -> dict[str, Any]:
    """How the server was reached, as the step's fields: ``transport`` (what the client found,
    e.g. the older HTTP+SSE transport behind an address), a command server's ``server_command``
    (environment by names only), the agreed ``protocol_version`` and the ``era`` spoken (read off
    the revision when the client did not say, as for a record of an older client), the last ``stderr`` lines the
    server wrote meanwhile (``stderr_dropped``: how many went before them) and the faults of its
    line (both scrubbed of the command's secret environment values where they are read)."""
    finished = recorder.finished
    fields: dict[str, Any] = {"transport": (finished.transport if finished and finished.transport
                                            else server.transport)}
    if server.command is not None:
        shown = server.command.shown()
        fields["server_command"] = shown if len(shown) <= MAX_COMMAND_CHARS else shown[:MAX_COMMAND_CHARS] + "…"
    if finished is not None:
        fields["budget_s"] = finished.budget_s
    if finished is not None and finished.protocol_version:
        fields["protocol_version"] = finished.protocol_version
    era = spoken_era(finished)
    if era is not None:
        fields["era"] = era
    if recorder.stderr:
        fields["stderr"] = tuple(recorder.stderr)
    if recorder.stderr_dropped:
        fields["stderr_dropped"] = recorder.stderr_dropped
    if recorder.line_problems:
        fields["line_problems"] = tuple(recorder.line_problems)
    if recorder.task is not None:  # its handle: a task that outlived the budget can be looked up again
        fields["task"] = recorder.task.to_dict()
    return fields


def spoken_era(finished: OperationFinished | None) -> str | None:
    """The era an operation spoke: what the client reports, else what its agreed revision belongs to."""
    if finished is None:
        return None
    if finished.era in SPOKEN_ERAS:
        return finished.era
    return era_of_version(finished.protocol_version)


def progress_notes(recorder: OperationRecorder) -> list[dict[str, Any]]:
    """The progress notes its recorder kept, in their stored form, in order (not yet bounded as a step keeps them)."""
    return [progress_note(seen.at_ms, seen.progress, seen.total, seen.message) for seen in recorder.progress_seen]


def _told(recorder: OperationRecorder) -> bool | None:
    return recorder.finished.server_told_to_stop if recorder.finished else None


def _elapsed_ms(recorder: OperationRecorder) -> float:
    return round(recorder.finished.elapsed_ms, 2) if recorder.finished else 0.0


def tool_result_for(tool: str, server: ServerEndpoint, result: Any, error: McpTransportError | None) -> ToolResult:
    """The adapter: a client outcome as a :class:`ToolResult`, bounded like every tool result."""
    if error is not None and error.is_cancellation:
        tool_result = ToolResult.cancelled(error.message, in_flight=bool(error.in_flight))
    elif error is not None and result is not None:  # answered, yet wrong (its output schema): keep what it said
        tool_result = ToolResult.error(f"{error.message}\n{result.content}", content_blocks=result.blocks,
                                       wording=wording_of(said_of(error)), structured_content=result.structured_content)
    elif error is not None:
        tool_result = ToolResult.error(error.message, wording=wording_of(said_of(error)))
    elif result.is_error:
        said = reported_error(tool, server.label, result.content)
        tool_result = ToolResult.error(str(said), content_blocks=result.blocks, wording=wording_of(said),
                                       structured_content=result.structured_content)
    else:
        tool_result = ToolResult.text(result.content, image_artifacts(getattr(result, "images", ())),
                                      content_blocks=result.blocks, wording=wording_of(answer_head(result)),
                                      structured_content=result.structured_content)
    return tool_result.with_bounded_channels()


def answer_head(result: ToolCallResult) -> Message | None:
    """The sentence of ours an answer's text begins with: the note naming its blocks that are not
    text, or the sentence saying it has no text at all; ``None`` when it begins with the tool's own."""
    if result.dropped_blocks:
        head = non_text_sentence(result.dropped_blocks)
        return head if result.content.startswith(str(head)) else None
    return Message(NO_TEXT_SENTENCE) if result.content == NO_TEXT_SENTENCE else None


def reported_error(tool: str, server: str, content: str) -> Said:
    """What the model and the stored step are told of a tool that reported an error: our sentence,
    then the tool's own text."""
    return Said(Message(TOOL_REPORTED_ERROR, {"tool": tool, "server": server}), content)


#: The MIME types of the pictures a stored step keeps (the formats the window draws). An SVG is
#: not among them: drawing one could load addresses; its block stays described by name and size.
STORED_IMAGE_TYPES = {"image/png": "png", "image/jpeg": "jpg", "image/jpg": "jpg", "image/gif": "gif",
                      "image/webp": "webp"}

#: What a stored step keeps of its images' base64 text, all together (about 1.1 MB of image data).
#: It keeps the payload small enough for the step's detail to read and a trace export to carry
#: (an import refuses a string over 5,000,000 characters, and an OTLP span holds the payload as one).
MAX_STORED_IMAGE_CHARS = 1_500_000


def image_artifacts(images: Any) -> list[Artifact]:
    """The answer's pictures as the artifacts a stored step keeps (``toolArtifacts``: name, media
    type, base64 data), in order, while they fit :data:`MAX_STORED_IMAGE_CHARS`. A picture of a
    type not drawn, or too large to keep, is left out: its content block still names it."""
    kept: list[Artifact] = []
    room = MAX_STORED_IMAGE_CHARS
    for image in images:
        mime = image.mime_type.strip().lower()
        if mime not in STORED_IMAGE_TYPES or image.data is None or len(image.data) > room:
            continue
        room -= len(image.data)
        name = image.label or f"image-{image.index + 1}.{STORED_IMAGE_TYPES[mime]}"
        kept.append(Artifact(name=name, media_type=mime, data=image.data))
    return kept


async def execute_tool(client: McpClient, server: ServerEndpoint, tool: str, arguments: dict[str, Any] | None,
                       *, round: int = 0, trace: RunTrace | None = None, budget_s: object = None,
                       cancel: CancelSignal | None = None, observer: OperationObserver | None = None,
                       definition: dict[str, Any] | None = None, as_task: bool | None = None) -> OperationRecord:
    """Call a tool and record it as a tool step (through ``trace`` if given). Never raises for
    a transport failure or a cancel: those are outcomes.

    ``definition``: the tool as the catalogue listed it, when the caller knows it; a result that
    breaks its ``outputSchema`` (or lacks the structured content it promises) is then a failed
    step whose error (kind ``output_schema``) names the path and the rule. It and ``as_task`` (the
    caller's wish) also decide whether the call runs as a task (see :mod:`inspector.mcp.tasks`)."""
    recorder = OperationRecorder()
    started_at = datetime.now(timezone.utc)
    result, error = None, None
    try:
        result = await client.call_tool(server, tool, arguments, budget_s=budget_s, cancel=cancel,
                                        observer=FanOut(recorder, observer),
                                        definition=definition if isinstance(definition, dict) else None,
                                        task=as_task)
    except McpTransportError as exc:
        error = exc
    if not isinstance(definition, dict):
        # The catalogue this client listed (e.g. as legs of the call itself, in the stateless era).
        definition = client.known_definition(server, tool)
    if error is None and isinstance(definition, dict):
        problem = check_structured(definition, result, server=server.label)
        if problem is not None:
            error = McpTransportError.output_schema(server.label, tool, problem)
    tool_result = tool_result_for(tool, server, result, error)
    trace = trace if trace is not None else RunTrace()
    step = trace.record_tool_result(round, tool, arguments or {}, tool_result, _elapsed_ms(recorder),
                                    legs=_legs(recorder), server_requests=server_requests_summary(recorder),
                                    progress=progress_notes(recorder), progress_dropped=recorder.progress_dropped,
                                    server_told_to_stop=_told(recorder),
                                    server_notifications=notifications_summary(recorder),
                                    wire=wire_fields(server, recorder))
    if tool_result.outcome is ToolOutcome.CANCELLED:
        health = "cancelled"
    elif error is not None and error.kind is not ErrorKind.OUTPUT_SCHEMA:
        health = "failed"
    else:  # the server answered; the tool may still have failed (its own error, or a result breaking
        # its output schema), counted apart: the server was reached
        health = "tool_error" if tool_result.outcome is ToolOutcome.FAILED else "ok"
    return OperationRecord(step, tool_result.outcome.value, health, _elapsed_ms(recorder), started_at, error,
                           result, tool_result, _told(recorder))


async def request_step(operation: str, server: ServerEndpoint, describe: Callable[[Any], Said | Message | str],
                        call: Callable[[OperationRecorder], Awaitable[Any]]) -> OperationRecord:
    """Run a non-tool operation and record it as a ``request`` step (no tool outcome). ``describe``
    says what it found: a :class:`Said` or a :class:`Message` is also stored as data (``wording``),
    for a reader to say in its own language."""
    recorder = OperationRecorder()
    started_at = datetime.now(timezone.utc)
    result, error = None, None
    try:
        result = await call(recorder)
    except McpTransportError as exc:
        error = exc
    said = describe(result) if error is None else said_of(error)
    progress, dropped = bound_progress(progress_notes(recorder))
    dropped += recorder.progress_dropped  # a long call's, not kept by its recorder either
    step = RunStep(kind=StepKind.REQUEST, round=0, duration_ms=_elapsed_ms(recorder),
                   content=f"{operation}: {said}", wording=wording_of(said, operation), legs=_legs(recorder),
                   server_requests=server_requests_summary(recorder) or None,
                   server_notifications=notifications_summary(recorder) or None,
                   progress=progress or None, progress_dropped=dropped or None,
                   server_told_to_stop=_told(recorder), **wire_fields(server, recorder))
    status = "ok" if error is None else ("cancelled" if error.is_cancellation else "failed")
    return OperationRecord(step, status, status, _elapsed_ms(recorder), started_at, error, result,
                           server_told_to_stop=_told(recorder))


async def sign_in_step(client: McpClient, server: ServerEndpoint, *, challenge: Any = None,
                       previous_scope: str | None = None, budget_s: object = None,
                       cancel: CancelSignal | None = None, observer: OperationObserver | None = None,
                       browser: Any = None) -> OperationRecord:
    """Sign in to ``server`` (an operation of its own) and record it as a ``request`` step, so a
    run shows that, and how long, it waited for a sign-in; the result is the ``SignedIn``."""
    return await request_step(
        "sign-in", server, _signed_in_sentence,
        lambda recorder: client.sign_in(server, challenge=challenge, previous_scope=previous_scope, budget_s=budget_s,
                                        cancel=cancel, observer=FanOut(recorder, observer), browser=browser))


def _signed_in_sentence(signed: Any) -> Message:
    """What a sign-in gave, without a secret: the authorization server, the client, the scope."""
    tokens = signed.tokens
    said = {"issuer": tokens.issuer, "client": signed.client.client_id}
    if tokens.scope:
        return Message(N_("signed in with {issuer} as client {client}, scope {scope}"), {**said, "scope": tokens.scope})
    return Message(N_("signed in with {issuer} as client {client}"), said)


def catalogue_sentence(tools: int, pages: int, names: list[str]) -> Said:
    """What a catalogue walk found, with real plural forms: "2 tools in 1 page: a, b"."""
    if pages == 1:
        head = NP_("{count} tool in 1 page:", "{count} tools in 1 page:", {"count": tools}, "count")
    else:
        head = NP_("{count} tool in {pages} pages:", "{count} tools in {pages} pages:",
                   {"count": tools, "pages": pages}, "count")
    return Said(head, ", ".join(names))


async def list_tools_step(client: McpClient, server: ServerEndpoint, *, budget_s: object = None,
                          cancel: CancelSignal | None = None,
                          observer: OperationObserver | None = None) -> OperationRecord:
    """Walk the catalogue and record it as a ``request`` step (a catalogue walk is not a tool call)."""
    return await request_step(
        "tools/list", server,
        lambda catalogue: catalogue_sentence(len(catalogue.tools), catalogue.pages, catalogue.names),
        lambda recorder: client.list_tools(server, budget_s=budget_s, cancel=cancel,
                                           observer=FanOut(recorder, observer)))


async def look_up_task_step(client: McpClient, server: ServerEndpoint, task_id: str, *, budget_s: object = None,
                            cancel: CancelSignal | None = None, observer: OperationObserver | None = None,
                            session_id: str | None = None) -> OperationRecord:
    """Look a task made earlier up (``tasks/get``, and ``tasks/result`` when it has ended), recorded as
    a ``request`` step; the result is ``(TaskSeen, ToolCallResult | None)``. ``session_id``: the
    session it was made in, when that was kept open."""

    async def call(recorder: OperationRecorder) -> tuple[Any, ToolCallResult | None]:
        seen, result = await look_up_task(client, server, task_id, budget_s=budget_s, cancel=cancel,
                                          observer=FanOut(recorder, observer), session_id=session_id)
        return seen, (ToolCallResult.from_result(task_id, result) if result is not None else None)

    def describe(found: tuple[Any, ToolCallResult | None]) -> str:
        seen, result = found
        if result is None:
            return Message(N_("the task {task} is {status}"), {"task": task_id, "status": seen.status})
        return Said(Message(N_("the task {task} is {status}:"), {"task": task_id, "status": seen.status}),
                    result.content)

    return await request_step("tasks/get", server, describe, call)


_PING = N_("the server {server} speaks MCP {version} and answered ping in {seconds} s")
#: The stateless era has no ping: what answered was server/discover (the stored sentence says so).
_STATELESS_PING = N_("the server {server} speaks MCP {version} and answered server/discover in {seconds} s (the "
                     "stateless era has no ping)")


async def ping_step(client: McpClient, server: ServerEndpoint, *, budget_s: object = None,
                    cancel: CancelSignal | None = None,
                    observer: OperationObserver | None = None) -> OperationRecord:
    """The handshake and MCP's ``ping`` request, recorded as a ``request`` step."""
    return await request_step(
        "ping", server,
        lambda ping: Message(_STATELESS_PING if ping.stateless else _PING, {
            "server": ping.server_name or "(unnamed)", "version": ping.protocol_version,
            "seconds": Number(round(ping.latency_ms / 1000, 3), f"{ping.latency_ms / 1000:.3f}")}),
        lambda recorder: client.ping(server, budget_s=budget_s, cancel=cancel, observer=FanOut(recorder, observer)))
