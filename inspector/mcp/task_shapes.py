"""The two shapes of an MCP task, as small strategy objects for the one poll loop in :mod:`.tasks`.

- :class:`HandshakeTasks`, the 2025-11-25 revision: ``{task: {...}}`` answers ``tools/call``;
  ``tasks/get`` polls; ``tasks/result`` fetches the result (blocking, and carrying the server's
  requests while the task needs input).
- :class:`ExtensionTasks`, the 2026-07-28 extension ``io.modelcontextprotocol/tasks``: a result with
  ``resultType: "task"``; ``tasks/get`` inlines the result, the error or the questions;
  ``tasks/update`` gives the answers.

A shape reads answers into :class:`TaskState` and sends its requests as legs of the operation.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from .errors import ErrorKind, McpTransportError
from .messages import N_, Message

if TYPE_CHECKING:
    from .client import _Operation

#: The revision names of the two shapes (what a handle says it was made with).
HANDSHAKE_SHAPE = "2025-11-25"
EXTENSION_SHAPE = "2026-07-28"
#: The pause between polls when the server names none, and the bounds of one it names: a server
#: may not make the client spin, nor make it sleep past what a person waits for.
DEFAULT_POLL_S = 1.0
MIN_POLL_S = 0.05
MAX_POLL_S = 30.0
TERMINAL = frozenset({"completed", "failed", "cancelled"})
STATUSES = frozenset({"working", "input_required", *TERMINAL})


@dataclass(frozen=True)
class TaskState:
    """One answer about a task: its status, and what the answer carried with it."""

    task_id: str
    status: str
    poll_s: float
    status_message: str | None = None
    #: 2026-07-28 inlines these: the result (completed), the error (failed), the questions (input_required).
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    input_requests: dict[str, Any] | None = None


def _poll_s(value: Any) -> float:
    """A poll interval in milliseconds as seconds, bounded; the default when it is not a number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        return DEFAULT_POLL_S
    seconds = value / 1000
    return min(max(seconds, MIN_POLL_S), MAX_POLL_S)


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def read_task(label: str, method: str, task: Any, poll_key: str) -> TaskState:
    """A task object as the server sent it; a malformed one fails the operation, named."""
    if not isinstance(task, dict) or not isinstance(task.get("taskId"), str) or not task["taskId"]:
        raise McpTransportError.malformed(label, method, Message(N_("its task has no task id")))
    status = task.get("status")
    if status not in STATUSES:
        raise McpTransportError.malformed(label, method, Message(N_("its task has an unknown status {status}"),
                                                                 {"status": str(status)[:40]}))
    result, error, asked = task.get("result"), task.get("error"), task.get("inputRequests")
    return TaskState(task["taskId"], status, _poll_s(task.get(poll_key)), _text(task.get("statusMessage")),
                     result if isinstance(result, dict) else None, error if isinstance(error, dict) else None,
                     asked if isinstance(asked, dict) else None)


class TaskShape(Protocol):
    """How one revision makes, polls, feeds, finishes and cancels a task."""

    name: str

    def created(self, label: str, answer: dict[str, Any]) -> TaskState | None: ...
    async def poll(self, op: _Operation, task_id: str) -> TaskState: ...
    async def give_input(self, op: _Operation, state: TaskState) -> dict[str, Any] | None: ...
    async def outcome(self, op: _Operation, state: TaskState) -> dict[str, Any]: ...
    def cancel_request(self, task_id: str) -> tuple[str, dict[str, Any]]: ...


class HandshakeTasks:
    """The 2025-11-25 shape: ``{task: {...}}``, ``tasks/get``, blocking ``tasks/result``."""

    name = HANDSHAKE_SHAPE

    def created(self, label: str, answer: dict[str, Any]) -> TaskState | None:
        if "task" not in answer or "content" in answer:
            return None
        return read_task(label, "tools/call", answer["task"], "pollInterval")

    async def poll(self, op: _Operation, task_id: str) -> TaskState:
        answer = await op.request("tasks/get", {"taskId": task_id})
        # GetTaskResult is the task itself; a server that nests it under "task" is read too.
        task = answer.get("task") if isinstance(answer.get("task"), dict) else answer
        return read_task(op.transport.server.label, "tasks/get", task, "pollInterval")

    async def give_input(self, op: _Operation, state: TaskState) -> dict[str, Any] | None:
        # tasks/result carries the server's requests (answered by the handler) and returns the
        # result once the task has ended.
        return await self.outcome(op, state)

    async def outcome(self, op: _Operation, state: TaskState) -> dict[str, Any]:
        if state.status == "cancelled":  # cancelled there, not by this user: nothing to fetch
            raise ended_without_result(op.transport.server.label, state)
        # A failed tool call comes back as its result (isError) or as the same JSON-RPC error.
        return await op.request("tasks/result", {"taskId": state.task_id})

    def cancel_request(self, task_id: str) -> tuple[str, dict[str, Any]]:
        return "tasks/cancel", {"taskId": task_id}


class ExtensionTasks:
    """The 2026-07-28 extension: ``resultType: "task"``, ``tasks/get`` inlining the end,
    ``tasks/update`` for input. ``answer`` fulfils input requests (the stateless core's own
    answerer may be given; by default the operation's handler answers each one)."""

    name = EXTENSION_SHAPE

    def __init__(self, answer: Callable[[_Operation, dict[str, Any]], Awaitable[dict[str, Any]]] | None = None,
                 ) -> None:
        self._answer = answer or answer_input_requests
        #: Keys already answered: a server repeats its questions until it has read the answers.
        self._answered: set[str] = set()

    def created(self, label: str, answer: dict[str, Any]) -> TaskState | None:
        if answer.get("resultType") != "task":
            return None
        return read_task(label, "tools/call", answer, "pollIntervalMs")

    async def poll(self, op: _Operation, task_id: str) -> TaskState:
        answer = await op.request("tasks/get", {"taskId": task_id})
        return read_task(op.transport.server.label, "tasks/get", answer, "pollIntervalMs")

    async def give_input(self, op: _Operation, state: TaskState) -> dict[str, Any] | None:
        fresh = {key: asked for key, asked in (state.input_requests or {}).items() if key not in self._answered}
        if fresh:
            responses = await self._answer(op, fresh)
            self._answered.update(fresh)
            await op.request("tasks/update", {"taskId": state.task_id, "inputResponses": responses})
        return None

    async def outcome(self, op: _Operation, state: TaskState) -> dict[str, Any]:
        label = op.transport.server.label
        if state.status == "completed" and state.result is not None:
            return state.result
        if state.status == "failed" and state.error is not None:
            code = state.error.get("code")
            raise McpTransportError.rpc_error(label, "tasks/get", code if isinstance(code, int) else 0,
                                              str(state.error.get("message") or ""))
        raise ended_without_result(label, state)

    def cancel_request(self, task_id: str) -> tuple[str, dict[str, Any]]:
        return "tasks/cancel", {"taskId": task_id}


async def answer_input_requests(op: _Operation, requests: dict[str, Any]) -> dict[str, Any]:
    """Fulfil a task's input requests with the operation's handler (questions, sampling, roots);
    each is reported like a request of the server. A refused one is answered with its error."""
    responses: dict[str, Any] = {}
    for key, asked in requests.items():
        if not isinstance(asked, dict):
            continue
        request = {"jsonrpc": "2.0", "id": key, "method": asked.get("method"), "params": asked.get("params")}
        kept: dict[str, Any] = {}

        async def deliver(reply: dict[str, Any], kept: dict[str, Any] = kept) -> int | None:
            kept.update(reply)
            return None

        await op.transport.answer_request("tasks/get", request, deliver)
        responses[key] = kept.get("result", {"error": kept.get("error")})
    return responses


def ended_without_result(label: str, state: TaskState) -> McpTransportError:
    """A task that ended cancelled on the server, or failed without saying why."""
    params = {"server": label, "task": state.task_id, "status": state.status}
    if state.status_message:
        params["message"] = state.status_message
        template = N_("The task {task} on the server {server} ended {status}: {message}.")
    else:
        template = N_("The task {task} on the server {server} ended {status} without a result.")
    return McpTransportError(ErrorKind.RPC_ERROR, label, Message(template, params), method="tasks/get")


__all__ = ["EXTENSION_SHAPE", "HANDSHAKE_SHAPE", "TERMINAL", "ExtensionTasks", "HandshakeTasks", "TaskShape",
           "TaskState", "answer_input_requests", "ended_without_result", "read_task"]
