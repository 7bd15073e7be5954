"""An operation the proxy carried, as a run: its title, its one step with legs, its outcome.

The rules are those of Run Inspector's own calls (:mod:`inspector.agent.operations`): a tool's
``isError`` or a JSON-RPC error is *failed*, so is an answer that never came (the sentence says
why); a call the agent cancelled (``notifications/cancelled``) or left (it closed the connection
before the answer), or one the proxy was stopped under, is *cancelled*, never failed; the proxy's
own budget ending a call is *failed* (timed out), and the step says that the proxy ended it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from inspector.agent.operations import (
    Said,
    answer_head,
    catalogue_sentence,
    image_artifacts,
    notification_entry,
    reported_error,
    wording_of,
)
from inspector.mcp.eras import era_of_version
from inspector.mcp.errors import UNSUPPORTED_PROTOCOL_VERSION
from inspector.mcp.messages import N_, Message, Number, whole
from inspector.mcp.results import ToolCallResult
from inspector.mcp.standalone import ServerNotification
from inspector.runs import Leg, RunStep, RunTrace, StepKind, ToolOutcome, ToolResult
from inspector.runs.progress import bound_progress, progress_note
from inspector.runs.status import PROXY_TITLE_MARK

from .book import ProxiedOperation
from .legs import AGENT_LEFT, BUDGET, COMPLETE, MAX_PARSED_BYTES, PROXY_STOPPED, SERVER_BROKE, CapturedLeg

#: How many of the server's notifications a step keeps (as our own calls keep).
MAX_NOTIFICATIONS = 50
#: What a proxied run's title says after the operation, so it reads apart from calls made here.
TITLE_MARK = PROXY_TITLE_MARK
#: How a leg ends whose answer the agent did not get whole, through no fault of the server's: the agent
#: closed its connection, or the proxy was stopped (Ctrl-C, Stop in the window) under it.
_CUT_SHORT = (AGENT_LEFT, PROXY_STOPPED)


@dataclass(frozen=True)
class ProxiedRun:
    """What the writer stores for one operation."""

    title: str
    server_url: str
    step: RunStep
    #: ok, failed or cancelled.
    status: str
    #: What the server's health counts: ok, tool_error, failed or cancelled (not its fault); ``None``:
    #: nothing (a leg of the agent's operations, not one of its own: see :func:`health_of`).
    health: str | None
    latency_ms: float
    started_at: datetime
    #: The operation's number in the proxy (its running row, if one was written, is under it).
    number: int = 0


def leg_outcome(leg: CapturedLeg, operation: ProxiedOperation) -> str:
    """How one leg ended: ok, failed or cancelled."""
    if leg.http_method in ("GET", "DELETE") and (leg.ending in _CUT_SHORT or leg.status == 405):
        return Leg.OK  # the agent closing the server's stream is its normal end; 405: no stream offered
    if leg.ending in _CUT_SHORT and (leg.rpc_id is None or leg.answer is None):
        return Leg.CANCELLED
    if leg is operation.main and (operation.cancelled_by_agent or operation.session_ended_by_agent) \
            and _no_result(leg):
        return Leg.CANCELLED
    if refused_probe(leg):
        return Leg.OK  # an answer, as Run Inspector's own probe takes it: no fault of the server
    if leg.ending in (SERVER_BROKE, BUDGET) or leg.status is None or leg.status >= 400:
        return Leg.FAILED
    if leg.error_message is not None:
        return Leg.FAILED
    if leg.rpc_id is not None and _no_result(leg):
        return Leg.FAILED  # a request answered with something that is not its JSON-RPC response, any method
    return Leg.OK


def refused_probe(leg: CapturedLeg) -> bool:
    """``server/discover`` answered the way a server of the handshake era answers it (HTTP 400, 404
    or 405, or a JSON-RPC error): the agent's probe found its answer, the server is not at fault."""
    if leg.method != "server/discover" or leg.ending != COMPLETE or leg.status is None:
        return False
    error = (leg.answer or {}).get("error")
    if isinstance(error, dict) and error.get("code") == UNSUPPORTED_PROTOCOL_VERSION:
        return False  # a server of the stateless era that speaks other revisions: the agent asks again
    return leg.status in (400, 404, 405) or (leg.status < 300 and leg.error_message is not None)


def legs_of(operation: ProxiedOperation) -> tuple[Leg, ...]:
    return tuple(Leg(leg.method, operation.granted_s(leg), leg.elapsed_ms, leg.status, leg_outcome(leg, operation),
                     leg.exchange()) for leg in operation.legs)


def _span_ms(operation: ProxiedOperation) -> float:
    """The time the operation's legs were on the wire: the union of their spans. The handshake's
    legs open a session's first operation, and an agent often thinks (asks its model) between the
    handshake and its first call: that pause is the agent's, not the server's, and is left out, as
    it is not in an operation Run Inspector makes itself (its legs follow one another)."""
    spans = sorted((leg.started_ns, leg.ended_ns or leg.started_ns) for leg in operation.legs)
    busy, start, end = 0, spans[0][0], spans[0][1]
    for leg_start, leg_end in spans[1:]:
        if leg_start > end:
            busy += end - start
            start = leg_start
        end = max(end, leg_end)
    busy += end - start
    return round(busy / 1e6, 2)


def _why_unanswered(operation: ProxiedOperation, server: str) -> Message | str:
    """Why no result came, as a sentence kept in English and said again in a reader's language."""
    leg = operation.main
    method = operation.method
    if operation.ended_by_budget:
        budget = operation.budget_s or 0.0
        return Message(N_("The proxy's budget of {budget} s for this operation ran out: the proxy ended {method} "
                          "(timed out) and told the agent so."),
                       {"budget": Number(budget, f"{budget:g}"), "method": method})
    if leg.reason:
        return leg.reason
    if leg.error_message is not None:
        return Message(N_("The server {server} answered {method} with an error: {error}"),
                       {"server": server, "method": method, "error": leg.error_message})
    if leg.status is not None and leg.status >= 400:
        return Message(N_("The server {server} answered {method} with HTTP {status}."),
                       {"server": server, "method": method, "status": str(leg.status)})
    if leg.too_large:
        return Message(N_("The server's answer to {method} is larger than the {mib} MiB the proxy reads of it: it "
                          "was passed on to the agent whole, but what it said is not recorded."),
                       {"method": method, "mib": whole(MAX_PARSED_BYTES // (1024 * 1024))})
    if leg.unparsed:
        return Message(N_("The proxy could not read the server's answer to {method} (not JSON-RPC it knows)."),
                       {"method": method})
    return Message(N_("The server {server} ended its answer to {method} without a result."),
                   {"server": server, "method": method})


def _cancel_sentence(operation: ProxiedOperation) -> Message:
    if operation.main.ending == PROXY_STOPPED and not operation.cancelled_by_agent:
        return Message(N_("The proxy was stopped before the answer to {method} came: the agent's request was "
                          "cut off."), {"method": operation.method})
    if operation.cancelled_by_agent:
        return Message(N_("The agent cancelled {method} (notifications/cancelled) before the answer came."),
                       {"method": operation.method})
    if operation.session_ended_by_agent and operation.main.ending not in _CUT_SHORT:
        return Message(N_("The agent ended its session (DELETE) before the answer to {method} came."),
                       {"method": operation.method})
    return Message(N_("The agent closed its connection before the answer to {method} came."),
                   {"method": operation.method})


def _no_result(leg: CapturedLeg) -> bool:
    """No result came: no answer, or an error (a server answers a request it was told to cancel with one)."""
    return leg.answer is None or "result" not in leg.answer


def _cancelled(operation: ProxiedOperation) -> bool:
    """The agent cancelled the operation (or left) before a result came: cancelled, never failed."""
    main = operation.main
    if operation.ended_by_budget or main.rpc_id is None:
        return False  # a stream or a session's end the agent closes has ended as it should
    return ((operation.cancelled_by_agent or operation.session_ended_by_agent) and _no_result(main)) \
        or (main.ending in _CUT_SHORT and main.answer is None)


def _wire(operation: ProxiedOperation) -> dict[str, Any]:
    version = None
    for leg in operation.legs:
        result = (leg.answer or {}).get("result")
        if leg.method == "initialize" and isinstance(result, dict) and isinstance(result.get("protocolVersion"), str):
            version = result["protocolVersion"]
    if version is None:
        for leg in operation.legs:
            header = leg.request_header("mcp-protocol-version")
            if header:
                version = header
    fields: dict[str, Any] = {"transport": "http"}
    if version:
        fields["protocol_version"] = version
        era = era_of_version(version)
        if era:
            fields["era"] = era
    return fields


def _heard(operation: ProxiedOperation) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """The server's requests (by method), its notifications (besides progress) and its progress notes."""
    requests: dict[str, dict[str, Any]] = {}
    notes: list[dict[str, Any]] = []
    progress: list[dict[str, Any]] = []
    start = operation.legs[0].started_ns
    for leg in operation.legs:
        for message, at_ns in leg.heard():
            method = str(message.get("method"))
            params = message.get("params") if isinstance(message.get("params"), dict) else {}
            if "id" in message:
                entry = requests.setdefault(method, {"method": method, "count": 0, "declined": False,
                                                     "exchanges": []})
                entry["count"] += 1
            elif method == "notifications/progress" and isinstance(params.get("progress"), (int, float)):
                total = params.get("total")
                text = params.get("message")
                progress.append(progress_note(round((at_ns - start) / 1e6, 3), float(params["progress"]),
                                              float(total) if isinstance(total, (int, float)) else None,
                                              text if isinstance(text, str) else None))
            elif len(notes) < MAX_NOTIFICATIONS:  # as our own calls keep them: the stream, a log's words
                via = "GET" if leg.http_method == "GET" else leg.method
                notes.append(notification_entry(ServerNotification(method, params, via)))
    return list(requests.values()), notes, progress


def run_of(operation: ProxiedOperation, server_url: str, server_label: str) -> ProxiedRun:
    """The run for ``operation`` (carried to ``server_url``, named ``server_label`` in sentences)."""
    legs = legs_of(operation)
    duration = _span_ms(operation)
    requests, notes, progress = _heard(operation)
    wire = _wire(operation)
    main = operation.main
    if operation.method == "tools/call":
        tool = str(main.params.get("name") or "?")
        arguments = main.params.get("arguments") if isinstance(main.params.get("arguments"), dict) else {}
        tool_result = _tool_result(operation, tool, server_label)
        step = RunTrace().record_tool_result(0, tool, arguments, tool_result, duration, legs,
                                             server_requests=requests, progress=progress,
                                             server_notifications=notes, wire=wire)
        status = tool_result.outcome.value
        if tool_result.outcome is ToolOutcome.CANCELLED:
            health = "cancelled"
        elif main.answer is not None and isinstance(main.answer.get("result"), dict):
            health = "tool_error" if tool_result.outcome is ToolOutcome.FAILED else "ok"
        else:
            health = "failed"
    else:
        status = "cancelled" if _cancelled(operation) else \
            ("ok" if all(leg.outcome != Leg.FAILED for leg in legs) else "failed")
        if status == "ok":
            said = _describe(operation)
        elif status == "cancelled":
            said = _cancel_sentence(operation)
        else:
            said = _why_unanswered(operation, server_label)
        bounded, dropped = bound_progress(progress)
        step = RunStep(kind=StepKind.REQUEST, round=0, duration_ms=duration, content=f"{operation.method}: {said}",
                       wording=wording_of(said, operation.method), legs=legs,
                       server_requests=requests or None, server_notifications=notes or None,
                       progress=bounded or None, progress_dropped=dropped or None, **wire)
        health = health_of(operation, status)
    skipped = sum(leg.progress_skipped for leg in operation.legs)
    if skipped:  # the middle of a long stream, which its leg did not keep either
        step = dataclasses.replace(step, progress_dropped=(step.progress_dropped or 0) + skipped)
    return ProxiedRun(run_title(operation), server_url, step, status, health, duration, operation.started_at,
                      operation.number)


def health_of(operation: ProxiedOperation, status: str) -> str | None:
    """What a run that is not a tool call counts in the server's health, as the window and ``call``
    count: one operation per request of the agent's, its legs (the handshake, the stream, the
    session's end) with it. So the runs of the server's stream (``GET``), of the session's end
    (``DELETE``), of a notification or an answer on its own, and of a ``server/discover`` probe (a
    leg before the handshake: the agent's next request is the operation) count nothing when they
    went well: not an "ok" each, nor a latency (a stream's is how long it stayed open). One that
    failed is the server's fault and counts as a failure (no contact, no latency), as the leg would
    fail an operation of the window's."""
    if operation.main.rpc_id is not None and operation.method != "server/discover":
        return status
    return "failed" if status == "failed" else None


def _tool_result(operation: ProxiedOperation, tool: str, server: str) -> ToolResult:
    main = operation.main
    result = (main.answer or {}).get("result")
    if _cancelled(operation):
        said = _cancel_sentence(operation)
        return ToolResult.cancelled(str(said), in_flight=True, wording=wording_of(said))
    if isinstance(result, dict) and not operation.ended_by_budget:
        answer = ToolCallResult.from_result(tool, result)
        if answer.is_error:
            said = reported_error(tool, server, answer.content)
            return ToolResult.error(str(said), content_blocks=answer.blocks, wording=wording_of(said),
                                    structured_content=answer.structured_content)
        return ToolResult.text(answer.content, image_artifacts(answer.images), content_blocks=answer.blocks,
                               wording=wording_of(answer_head(answer)), structured_content=answer.structured_content)
    said = _why_unanswered(operation, server)
    return ToolResult.error(str(said), wording=wording_of(said))


def run_title(operation: ProxiedOperation) -> str:
    """The run's title: the operation as our own calls name it, then :data:`TITLE_MARK`."""
    return f"{_title(operation)} {TITLE_MARK}"


def _title(operation: ProxiedOperation) -> str:
    if operation.method == "GET":
        return "GET stream"
    if operation.method == "DELETE":
        return "DELETE session"
    name = operation.main.params.get("name") or operation.main.params.get("uri")
    return f"{operation.method} {name}" if isinstance(name, str) and name else operation.method


def _describe(operation: ProxiedOperation) -> Said | Message:
    """What an operation that went well gave, in a few words."""
    pages = [leg for leg in operation.legs if leg.method == "tools/list"]
    if operation.method == "tools/list" and pages:
        names: list[str] = []
        for leg in pages:
            tools = ((leg.answer or {}).get("result") or {}).get("tools")
            names.extend(str(tool.get("name")) for tool in tools or [] if isinstance(tool, dict))
        return catalogue_sentence(len(names), len(pages), names)
    main = operation.main
    if refused_probe(main):
        return Message(N_("the server speaks the handshake era: it refused server/discover (HTTP {status})"),
                       {"status": str(main.status)})
    if operation.method == "initialize":
        result = (main.answer or {}).get("result") or {}
        info = result.get("serverInfo") if isinstance(result.get("serverInfo"), dict) else {}
        return Message(N_("the server {server} speaks MCP {version}"),
                       {"server": str(info.get("name") or "(unnamed)"), "version": str(result.get("protocolVersion"))})
    if operation.method == "GET":
        if main.ending == AGENT_LEFT:
            return Message(N_("the agent closed the server's stream"))
        if main.ending == PROXY_STOPPED:
            return Message(N_("the proxy was stopped, and the server's stream with it"))
        return Message(N_("the server's stream ended"))
    if operation.method == "DELETE":
        return Message(N_("the session ended (HTTP {status})"), {"status": str(main.status)})
    if main.rpc_id is None:
        return Message(N_("the server took it (HTTP {status})"), {"status": str(main.status)})
    return Message(N_("answered"))
