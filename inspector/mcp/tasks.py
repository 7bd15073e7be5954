"""A ``tools/call`` the server runs as a task, followed to its end as one operation (ADR-170).

Creating the task and every poll are legs of the same operation, on its one deadline: they show
in its budget bar like any other leg (named by their method, ``tasks/get``). The pauses between
polls follow the server's poll interval but never reach past the deadline. Two shapes exist:

- **2025-11-25** (the handshake era): the client asks for a task with ``params.task`` when the
  tool's ``execution.taskSupport`` allows it and the server declared
  ``capabilities.tasks.requests.tools.call``; the answer is ``{task: {...}}``; ``tasks/get`` polls,
  ``tasks/result`` fetches the result (and, while the task needs input, carries the server's
  requests to the client, answered by the operation's handler).
- **2026-07-28** (extension ``io.modelcontextprotocol/tasks``): the server decides; a ``tools/call``
  answered with ``resultType: "task"`` is polled with ``tasks/get``, which inlines the result or
  error when done, and input is given with ``tasks/update``.

The poll loop (:func:`follow_task`) is written once; a shape is a small strategy object
(:mod:`.task_shapes`). A user's
cancel tears down the leg in flight as for any operation and also asks the server to cancel the
task (``tasks/cancel``, sent after the operation, bounded, in the background). A task that outlives
the budget ends *timed out* and keeps its handle (:class:`TaskHandle`) on the error, so that it
can be looked up again (:func:`look_up_task`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from .eras import era_of_version
from .errors import ErrorKind, McpTransportError
from .messages import N_, Message, Number
from .reports import TaskHandle, TaskSeen
from .stateless import standard_headers
from .task_shapes import (
    EXTENSION_SHAPE,
    HANDSHAKE_SHAPE,
    TERMINAL,
    ExtensionTasks,
    HandshakeTasks,
    TaskShape,
    TaskState,
)

if TYPE_CHECKING:
    from .cancel import CancelSignal
    from .client import McpClient, _Operation
    from .reports import OperationObserver
    from .server import ServerEndpoint

#: The extension's identifier in the stateless era's capabilities.
TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
#: How long the client asks a 2025-11-25 server to keep a task after its creation: an hour, long
#: enough to look a timed-out task up again afterwards.
TASK_TTL_MS = 3_600_000
#: How many times a task may ask for input before the client gives up on it (a loop ends named).
MAX_INPUT_ROUNDS = 20
#: How ``taskSupport`` values read; anything else counts as ``forbidden`` (the spec's default).
TASK_SUPPORT = ("forbidden", "optional", "required")


def task_support(tool: dict[str, Any] | None) -> str:
    """A tool definition's ``execution.taskSupport``: forbidden (also when absent), optional, required."""
    execution = tool.get("execution") if isinstance(tool, dict) else None
    value = execution.get("taskSupport") if isinstance(execution, dict) else None
    return value if value in TASK_SUPPORT else "forbidden"


def server_runs_tool_tasks(capabilities: dict[str, Any]) -> bool:
    """Did a 2025-11-25 server declare ``capabilities.tasks.requests.tools.call``?"""
    tasks = capabilities.get("tasks")
    requests = tasks.get("requests") if isinstance(tasks, dict) else None
    tools = requests.get("tools") if isinstance(requests, dict) else None
    return isinstance(tools, dict) and isinstance(tools.get("call"), dict)


def wants_task(tool: dict[str, Any] | None, capabilities: dict[str, Any], asked: bool | None) -> bool:
    """Ask a 2025-11-25 server for a task? Only when it runs tool calls as tasks, and then: always for
    a tool that requires one, for an optional one when the caller asked (``asked``), never for a
    tool that forbids it. Without a definition, the caller's wish alone decides."""
    if not server_runs_tool_tasks(capabilities) or asked is False:
        return False
    support = task_support(tool) if tool is not None else None
    if support == "required":
        return True
    return bool(asked) and support in ("optional", None)


def outlived(label: str, handle: TaskHandle, status: str, budget_s: float) -> McpTransportError:
    """The budget ran out while the task was still running: timed out, its handle kept."""
    params = {"server": label, "task": handle.task_id, "status": status,
              "budget": Number(budget_s, f"{budget_s:g}", "s")}
    if handle.session_id is not None:
        params["session"] = handle.session_id
        template = N_("The task {task} on the server {server} was still {status} when the {budget}-second budget "
                      "of this operation ran out; it may go on running there, and its session was left open. Look "
                      "it up again with: run-inspector task \"{server}\" {task} --session {session}")
    else:
        template = N_("The task {task} on the server {server} was still {status} when the {budget}-second budget "
                      "of this operation ran out; it may go on running there. Look it up again with: "
                      "run-inspector task \"{server}\" {task}")
    return McpTransportError(ErrorKind.TIMED_OUT, label, Message(template, params), method="tasks/get",
                             budget_s=budget_s)


def still_there(label: str, handle: TaskHandle) -> Message:
    """Said after a leg's time-out once the task existed: where it can be found again."""
    params = {"server": label, "task": handle.task_id}
    if handle.session_id is None:
        return Message(N_("The task {task} may still be running on the server; look it up again with: "
                          "run-inspector task \"{server}\" {task}"), params)
    params["session"] = handle.session_id
    return Message(N_("The task {task} may still be running on the server, and its session was left open; look "
                      "it up again with: run-inspector task \"{server}\" {task} --session {session}"), params)


def _keep_for_lookup(op: _Operation, follow: _Follow) -> None:
    """The task outlived the budget: its session stays open (not ended afterwards), and the handle
    names it, since a server of the handshake era may know the task only in that session."""
    session_id = getattr(op.session, "session_id", None) if hasattr(op, "session") else None
    if session_id:
        op.keep_session = True
        follow.handle = replace(follow.handle, session_id=session_id)
        follow.report(op.observer)


@dataclass
class _Follow:
    """One task being followed: its shape, handle, last state and polls so far."""

    shape: TaskShape
    handle: TaskHandle
    state: TaskState
    polls: int = 0

    def report(self, observer: OperationObserver) -> None:
        observer.task_seen(TaskSeen(self.handle, self.state.status, self.polls, self.state.status_message))


async def call_tool(op: _Operation, params: dict[str, Any], *, tool: dict[str, Any] | None = None,
                    task: bool | None = None, shapes: tuple[TaskShape, ...] | None = None,
                    send: Callable[[dict[str, Any]], Awaitable[dict[str, Any]]] | None = None) -> dict[str, Any]:
    """``tools/call`` as a leg of ``op``, as a task when it should be one, followed to its end:
    the final ``CallToolResult`` (a dict), as a plain call returns it.

    ``tool`` is the tool's definition from the catalogue (its ``execution.taskSupport`` decides);
    ``task`` is the caller's wish (True: as a task if allowed, False: never ask for one, None: only
    when the tool requires it). The 2026-07-28 server decides by itself; its task is followed too.
    ``send(params)`` sends the ``tools/call`` leg (the client's own, with its era's headers); by
    default a plain request of ``op``."""
    shapes = shapes if shapes is not None else (HandshakeTasks(), ExtensionTasks())
    if tool is None and task is not False and server_runs_tool_tasks(op.server_capabilities):
        # The caller does not know the tool (the command line): whether it requires, allows or
        # forbids a task is in the catalogue, read as legs of this operation.
        tool = await find_definition(op, params.get("name"))
    asked = wants_task(tool, op.server_capabilities, task)
    if asked:
        params = {**params, "task": {"ttl": TASK_TTL_MS}}
    answer = await (send(params) if send is not None else op.request("tools/call", params, is_work=True))
    label = op.transport.server.label
    for shape in shapes:
        if shape.name == HANDSHAKE_SHAPE and not asked:
            continue  # a 2025-11-25 task only answers a call that asked for one
        state = shape.created(label, answer)
        if state is not None:
            return await follow_task(op, shape, state)
    return answer


#: How many catalogue pages a call reads to find its tool's definition.
MAX_DEFINITION_PAGES = 10


async def find_definition(op: _Operation, name: Any) -> dict[str, Any] | None:
    """The tool's definition from ``tools/list`` (legs of ``op``), or None when not found (then a
    catalogue read to its end is noted, so whoever reports the call can say what the server lists)."""
    cursor: str | None = None
    read: list[dict[str, Any]] = []
    for _ in range(MAX_DEFINITION_PAGES):
        answer = await op.request("tools/list", {} if cursor is None else {"cursor": cursor})
        tools = answer.get("tools")
        for tool in tools if isinstance(tools, list) else ():
            if isinstance(tool, dict) and tool.get("name") == name:
                return tool
            if isinstance(tool, dict):
                read.append(tool)
        cursor = answer.get("nextCursor") if isinstance(answer.get("nextCursor"), str) else None
        if not cursor:
            op.note_catalogue(read)
            break
    return None


async def follow_task(op: _Operation, shape: TaskShape, state: TaskState) -> dict[str, Any]:
    """Poll a task until it ends, on the operation's deadline; return its result or raise."""
    transport = op.transport
    label = transport.server.label
    follow = _Follow(shape, TaskHandle(state.task_id, label, shape.name), state)
    follow.report(op.observer)
    rounds = 0
    try:
        while True:
            if follow.state.status in TERMINAL:
                return await shape.outcome(op, follow.state)
            if follow.state.status == "input_required":
                rounds += 1
                if rounds > MAX_INPUT_ROUNDS:
                    raise too_many_rounds(label, follow.handle)
                done = await shape.give_input(op, follow.state)
                if done is not None:  # tasks/result answered once the task had ended
                    follow.state = replace(follow.state, status="completed")
                    follow.report(op.observer)
                    return done
            else:
                await _pause(op, follow)
            follow.state = await shape.poll(op, follow.handle.task_id)
            follow.polls += 1
            follow.report(op.observer)
    except asyncio.CancelledError:
        # The user's cancel between two polls: ours to report (as the operation frame would), with the task.
        cancel = transport.frame.cancel
        current = asyncio.current_task()
        if cancel is None or not cancel.fired or current is None:
            raise
        current.uncancel()
        _cancel_on_server(op, shape, follow.handle)
        error = McpTransportError(ErrorKind.CANCELLED, label, Message(N_(
            "You cancelled the operation while the task {task} was {status} on the server {server}; the client "
            "asked the server to cancel it (tasks/cancel)."),
            {"task": follow.handle.task_id, "status": follow.state.status, "server": label}),
            method="tasks/get", in_flight=True, _cancellation=True)
        error.task = follow.handle.to_dict(follow.state.status, follow.polls)
        raise error from None
    except _Outlived:
        _keep_for_lookup(op, follow)
        error = outlived(label, follow.handle, follow.state.status, transport.frame.deadline.budget_s)
        error.task = follow.handle.to_dict(follow.state.status, follow.polls)
        raise error from None
    except McpTransportError as exc:
        if exc.is_cancellation:
            _cancel_on_server(op, shape, follow.handle)
            exc.add_sentence(_asked_to_cancel(follow))
        elif exc.kind is ErrorKind.EXHAUSTED_BUDGET:
            # "Not sent: used up by earlier steps" would hide what matters: the task outlived the budget.
            _keep_for_lookup(op, follow)
            error = outlived(label, follow.handle, follow.state.status, transport.frame.deadline.budget_s)
            error.task = follow.handle.to_dict(follow.state.status, follow.polls)
            raise error from None
        elif exc.kind is ErrorKind.TIMED_OUT:
            _keep_for_lookup(op, follow)
            exc.add_sentence(still_there(label, follow.handle))
        exc.task = follow.handle.to_dict(follow.state.status, follow.polls)
        raise


def _asked_to_cancel(follow: _Follow) -> Message:
    return Message(N_("The task {task} was {status} on the server; the client asked the server to cancel it "
                      "(tasks/cancel)."), {"task": follow.handle.task_id, "status": follow.state.status})


class _Outlived(Exception):  # noqa: N818 - a signal inside the loop, turned into the timed-out error
    """No time is left for another poll."""


#: The time kept back for the last look at a task before the deadline (one quick ``tasks/get``).
LAST_LOOK_S = 0.1


async def _pause(op: _Operation, follow: _Follow) -> None:
    """Wait the poll interval, but never past the deadline: when the interval would reach past it,
    the wait ends just before it, for a last look. Cancel ends the wait at once (the operation's
    task is cancelled)."""
    remaining = op.deadline_remaining()
    if remaining <= LAST_LOOK_S:
        raise _Outlived
    await asyncio.sleep(min(follow.state.poll_s, remaining - LAST_LOOK_S))


def too_many_rounds(label: str, handle: TaskHandle) -> McpTransportError:
    return McpTransportError(ErrorKind.RPC_ERROR, label, Message(N_(
        "The task {task} on the server {server} asked for input more than {count} times; the client stopped "
        "following it."), {"task": handle.task_id, "server": label, "count": MAX_INPUT_ROUNDS}),
        method="tasks/get")


def _cancel_on_server(op: _Operation, shape: TaskShape, handle: TaskHandle) -> None:
    """Ask the server to cancel the task after the operation (bounded, in the background)."""
    method, params = shape.cancel_request(handle.task_id)
    op.parting.append((method, params))


async def send_parting(op: _Operation,
                       post: Callable[[dict[str, Any], dict[str, str]], Awaitable[Any]] | None = None) -> None:
    """Send the requests said after an operation (a task's ``tasks/cancel``): over HTTP with
    ``post(message, headers)`` (the JSON-RPC request as a dict, and the headers of its own the
    stateless era asks for), on a shared line through the line itself. In the stateless era each
    carries its ``_meta``. Errors are swallowed: the operation has ended already, and the caller
    bounds the time."""
    stateless = bool(getattr(op.session, "stateless", False))
    for number, (method, params) in enumerate(op.parting, start=1):
        headers: dict[str, str] = {}
        if stateless:
            params = {**params, "_meta": op.request_meta(False)}
            headers = standard_headers(op.session.protocol_version or "", method, params)
        message = {"jsonrpc": "2.0", "id": f"parting-{number}", "method": method, "params": params}
        with contextlib.suppress(Exception):
            if post is not None:
                await post(message, headers)
            elif getattr(op.transport, "line", None) is not None:
                await op.transport.line.request(message)
    op.parting.clear()


async def look_up_task(client: McpClient, server: ServerEndpoint, task_id: str, *, budget_s: object = None,
                       cancel: CancelSignal | None = None, observer: OperationObserver | None = None,
                       shape: TaskShape | None = None,
                       session_id: str | None = None) -> tuple[TaskSeen, dict[str, Any] | None]:
    """One operation: ``tasks/get`` for a task made earlier, and its result (``tasks/result``)
    when it has completed or failed. Returns what was seen and the result, if any.

    ``session_id``: the session the task was made in (kept open when it outlived its budget). The
    lookup's legs are sent in it; the operation's own fresh session is the one ended afterwards."""
    async def work(op: _Operation) -> tuple[TaskSeen, dict[str, Any] | None]:
        nonlocal shape
        if shape is None:  # the revision spoken decides the shape
            stateless = era_of_version(op.session.protocol_version) == "stateless"
            shape = ExtensionTasks() if stateless else HandshakeTasks()
        own = op.session
        if session_id and own.session_id:
            op.session = type(own)(session_id, own.protocol_version)
        try:
            try:
                state = await shape.poll(op, task_id)
            except McpTransportError as exc:
                if exc.kind is ErrorKind.RPC_ERROR and session_id is None and own.session_id:
                    exc.add_sentence(Message(N_(
                        "A server may know a task only in the session that made it: a timed-out task's message "
                        "names that session (--session).")))
                raise
            seen = TaskSeen(TaskHandle(task_id, server.label, shape.name, session_id), state.status, 1,
                            state.status_message)
            op.observer.task_seen(seen)
            if state.status in ("completed", "failed"):
                return seen, await shape.outcome(op, state)
            return seen, None
        finally:
            op.session = own

    return await client._operate("tasks/get", server, work, budget_s, cancel, observer)  # noqa: SLF001


__all__ = ["EXTENSION_SHAPE", "HANDSHAKE_SHAPE", "TASKS_EXTENSION", "ExtensionTasks", "HandshakeTasks",
           "TaskHandle", "TaskSeen", "TaskShape", "TaskState", "call_tool", "follow_task", "look_up_task",
           "send_parting", "task_support", "wants_task"]
