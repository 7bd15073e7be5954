"""The agent run loop: rounds of a model step (``llm``) and the tool steps it asked for (``tool``).

The loop goes on until the model answers without tool calls, the round limit is reached, or the
run is cancelled. A failed or cancelled tool call is told back to the model (see
:meth:`ToolFeedback.told`); cancelling the *run* cancels the call in flight, records no further
step and ends the run ``cancelled``.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Awaitable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, TypeVar

from inspector.mcp import CancelSignal, McpClient, OperationObserver, Secrets, ServerEndpoint, public_url
from inspector.mcp.messages import note_of
from inspector.runs import RunStep, RunTrace, StepKind, ToolOutcome
from inspector.runs._frozen import freeze

from .model import ChatModel, ModelError, ModelRequest, ModelTurn, ToolCall, ToolFeedback
from .operations import execute_tool, list_tools_step
from .recording import NullSink, RunSink
from .tracing import TraceContext, step_trace, traced

T = TypeVar("T")

DEFAULT_MAX_ROUNDS = 8
#: How long the end of a run waits for housekeeping (cancel notices, session ends).
DRAIN_BOUND_S = 1.0


class _RunCancelled(Exception):
    """The run's cancel landed while the model was thinking."""


@dataclass(frozen=True)
class AgentOutcome:
    """How a run ended."""

    #: ``ok``, ``failed`` or ``cancelled`` (the run statuses).
    status: str
    #: Why the loop stopped: ``answered``, ``round_limit``, ``cancelled``, ``model_error``, ``catalogue``.
    stop_reason: str
    rounds: int
    trace: RunTrace
    final_answer: str | None = None
    error: str | None = None
    #: The error as a sentence a display layer says in the reader's language (``error`` is English).
    error_sentence: Any = None


def tool_specs(catalogue_tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """MCP catalogue entries as chat-completions ``tools``."""
    specs = []
    for tool in catalogue_tools:
        name = tool.get("name")
        if not isinstance(name, str) or not name:
            continue
        schema = tool.get("inputSchema")
        specs.append({"type": "function", "function": {
            "name": name, "description": str(tool.get("description") or ""),
            "parameters": schema if isinstance(schema, dict) else {"type": "object", "properties": {}}}})
    return specs


class AgentRun:
    """One agent run against one MCP server. Build it, then ``await run()`` on any event loop.

    :meth:`cancel` and :meth:`cancel_current_call` may be called from any thread.
    """

    def __init__(self, model: ChatModel, server: ServerEndpoint, prompt: str, *, title: str | None = None,
                 client: McpClient | None = None, sink: RunSink | None = None,
                 max_rounds: int = DEFAULT_MAX_ROUNDS, budget_s: object = None,
                 cancel_after_s: float | None = None, observer: OperationObserver | None = None,
                 system_prompt: str | None = None, secrets: Secrets | None = None) -> None:
        if max_rounds < 1:
            raise ValueError("a run needs at least one round")
        self.model = model
        self.server = server
        self.prompt = prompt
        self.title = title or f"agent: {prompt[:60]}"
        self.client = client or McpClient()
        self.sink = sink or NullSink()
        #: The run's uid (the sink stores the run under it): a stored run's requests name its trace.
        self.uid = uuid.uuid4().hex
        self._traced = not isinstance(self.sink, NullSink)
        self.max_rounds = max_rounds
        self.budget_s = budget_s
        self.cancel_after_s = cancel_after_s
        self.observer = observer
        self.system_prompt = system_prompt
        # Cut out of a model's failure before it is stored or told: the model's own key, and the
        # secrets the caller knows (a model that is not OpenAIChatModel may quote anything).
        own = getattr(model, "secrets", None)
        self.secrets = (secrets or Secrets()).joined(own if isinstance(own, Secrets) else None)
        self.trace = RunTrace()
        #: The tools the catalogue listed, by name: a call's result is checked against its output schema.
        self._definitions: dict[str, dict[str, Any]] = {}
        self._run_cancel = CancelSignal()
        self._call_cancel: CancelSignal | None = None

    # -- control, from any thread ----------------------------------------------------------------

    @property
    def cancelled(self) -> bool:
        return self._run_cancel.fired

    def cancel(self) -> None:
        """Cancel the run: the call in flight is cancelled and nothing further is recorded."""
        self._run_cancel.fire()
        call = self._call_cancel
        if call is not None:
            call.fire()

    def cancel_current_call(self) -> None:
        """Cancel only the tool call in flight; the model is told and the run goes on."""
        call = self._call_cancel
        if call is not None:
            call.fire()

    # -- the loop ---------------------------------------------------------------------------------

    async def run(self) -> AgentOutcome:
        """Play the run to its end; never raises for a tool failure, a model failure or a cancel."""
        server_url = public_url(self.server.url)
        self.sink.run_started(self.title, server_url, self.uid)
        timer = None
        if self.cancel_after_s is not None:
            timer = asyncio.get_running_loop().call_later(self.cancel_after_s, self.cancel)
        try:
            outcome = await self._rounds(server_url)
        finally:
            if timer is not None:
                timer.cancel()
        self.sink.run_finished(outcome.status)
        # The cancel notice of a call cut off must reach the server before the loop may close.
        await self.client.drain(DRAIN_BOUND_S)
        return outcome

    async def _rounds(self, server_url: str) -> AgentOutcome:
        messages: list[dict[str, Any]] = []
        if self.system_prompt:
            messages.append({"role": "system", "content": self.system_prompt})
        messages.append({"role": "user", "content": self.prompt})
        specs: list[dict[str, Any]] = []
        if self.model.wants_catalogue:
            with traced(self._next_step_trace()):
                record = await list_tools_step(self.client, self.server, budget_s=self.budget_s,
                                               cancel=self._run_cancel, observer=self.observer)
            self._record(record.step, record.started_at)
            self.sink.operation_finished(server_url, record.health, record.latency_ms)
            if self.cancelled:
                return self._ended("cancelled", 0)
            if record.error is not None:
                return self._ended("catalogue", 0, error=record.error.message, sentence=record.error)
            specs = tool_specs(record.result.tools)
            self._definitions = {str(tool.get("name")): tool for tool in record.result.tools}
        feedback: tuple[ToolFeedback, ...] = ()
        sent = _SentSoFar(specs)
        for round_number in range(1, self.max_rounds + 1):
            if self.cancelled:
                return self._ended("cancelled", round_number - 1)
            request = ModelRequest(round_number, tuple(messages), tuple(specs), feedback)
            started_at, started = datetime.now(timezone.utc), time.monotonic()
            try:
                turn = await self._unless_cancelled(self.model.respond(request))
            except _RunCancelled:
                return self._ended("cancelled", round_number - 1)
            except ModelError as exc:
                reason = self.secrets.scrub(str(exc))
                sentence = self.secrets.scrub_message(exc.sentence) if exc.sentence is not None else None
                # The sentence as data beside it, for a reader to say in its own language.
                wording = note_of(sentence) if sentence is not None and reason.startswith(str(sentence)) else None
                self._record(RunStep(kind=StepKind.LLM, round=round_number, duration_ms=_ms_since(started),
                                     messages_sent=sent.of(messages), tool_specs=sent.specs, content=reason,
                                     finish_reason="error", wording=wording), started_at)
                return self._ended("model_error", round_number, error=reason, sentence=sentence)
            if self.cancelled:  # the answer came as the run was cancelled: nothing more is recorded
                return self._ended("cancelled", round_number - 1)
            self._record(_llm_step(round_number, _ms_since(started), sent.of(messages), sent.specs, turn),
                         started_at)
            messages.append(_assistant_message(turn))
            if not turn.tool_calls:
                return self._ended("answered", round_number, final_answer=turn.content)
            feedback = await self._call_tools(round_number, turn.tool_calls, messages, server_url)
            if self.cancelled:
                return self._ended("cancelled", round_number)
        return self._ended("round_limit", self.max_rounds)

    async def _call_tools(self, round_number: int, calls: tuple[ToolCall, ...], messages: list[dict[str, Any]],
                          server_url: str) -> tuple[ToolFeedback, ...]:
        feedback = []
        for call in calls:
            if self.cancelled:
                break  # a cancelled run records no further step
            signal = CancelSignal()
            self._call_cancel = signal
            if self.cancelled:  # cancel() came between the check above and now: send nothing
                self._call_cancel = None
                break
            try:
                with traced(self._next_step_trace()):
                    record = await execute_tool(self.client, self.server, call.name, call.arguments,
                                                round=round_number, trace=self.trace, budget_s=self.budget_s,
                                                cancel=signal, observer=self.observer,
                                                definition=self._definitions.get(call.name))
            finally:
                self._call_cancel = None
            self.sink.step_recorded(record.step, record.started_at)
            self.sink.operation_finished(server_url, record.health, record.latency_ms)
            result = record.tool_result
            assert result is not None  # execute_tool always gives one
            told = ToolFeedback(call, result)
            feedback.append(told)
            messages.append({"role": "tool", "tool_call_id": call.id, "content": told.told()})
        return tuple(feedback)

    async def _unless_cancelled(self, work: Awaitable[T]) -> T:
        """Await ``work`` in its own task, which the run's cancel cancels."""
        async def guarded() -> T:
            with self._run_cancel.bind_current_task():
                return await work

        task = asyncio.ensure_future(guarded())
        try:
            return await task
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if self.cancelled and task.cancelled() and (current is None or not current.cancelling()):
                raise _RunCancelled from None
            raise

    def _next_step_trace(self) -> TraceContext | None:
        """The trace context of the step recorded next (``None`` when the run is not stored)."""
        return step_trace(self.uid, len(self.trace.steps) + 1) if self._traced else None

    def _record(self, step: RunStep, started_at: datetime) -> None:
        self.trace.record_step(step)
        self.sink.step_recorded(step, started_at)

    def _ended(self, reason: str, rounds: int, *, final_answer: str | None = None,
               error: str | None = None, sentence: Any = None) -> AgentOutcome:
        return AgentOutcome(self._status(reason), reason, rounds, self.trace, final_answer, error,
                            sentence if sentence is not None else error)

    def _status(self, reason: str) -> str:
        if self.cancelled:
            return "cancelled"
        if reason in ("model_error", "catalogue"):
            return "failed"
        outcome = self.trace.outcome
        if outcome is ToolOutcome.CANCELLED:
            # The last call was cancelled on its own and the run went on: the run itself was not
            # cancelled, so it is judged by the other calls.
            failed = any(step.tool_outcome is ToolOutcome.FAILED for step in self.trace.steps)
            return "failed" if failed else "ok"
        return outcome.value


def _ms_since(started: float) -> float:
    return round((time.monotonic() - started) * 1000, 2)


class _SentSoFar:
    """What each model step records as sent: the conversation so far and the tool specs, frozen.

    A model step holds the whole conversation it was sent; freezing it anew each round made a run
    of 200 rounds freeze 40,000 messages (a third of the play worker's time, growing each round).
    Messages are only ever appended, never changed, so each is frozen once and the frozen ones
    are shared by the steps."""

    def __init__(self, specs: list[dict[str, Any]]) -> None:
        self.specs = freeze(specs)
        self._frozen: list[Any] = []

    def of(self, messages: list[dict[str, Any]]) -> tuple[Any, ...]:
        frozen = self._frozen
        frozen.extend(freeze(message) for message in messages[len(frozen):])
        return tuple(frozen)


def _llm_step(round_number: int, duration_ms: float, messages: tuple[Any, ...],
              specs: Any, turn: ModelTurn) -> RunStep:
    return RunStep(kind=StepKind.LLM, round=round_number, duration_ms=duration_ms, messages_sent=messages,
                   tool_specs=specs, content=turn.content, finish_reason=turn.finish_reason,
                   prompt_tokens=turn.prompt_tokens, completion_tokens=turn.completion_tokens,
                   total_tokens=turn.total_tokens,
                   requested_tool_calls=[call.to_dict() for call in turn.tool_calls], raw=turn.raw)


def _assistant_message(turn: ModelTurn) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": turn.content or None}
    if turn.tool_calls:
        message["tool_calls"] = [{"id": call.id, "type": "function",
                                  "function": {"name": call.name, "arguments": json.dumps(call.arguments)}}
                                 for call in turn.tool_calls]
    return message
