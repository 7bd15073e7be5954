"""The task shapes' reading and decisions, and the 2026-07-28 shape's loop against the test task
server's own logic (in process: the stateless era's transport comes from the client's core)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from inspector.mcp import ErrorKind, McpTransportError, OperationRecorder
from inspector.mcp.deadline import OperationDeadline
from inspector.mcp.server_requests import ServerRequestHandler, answer_server_request
from inspector.mcp.task_shapes import EXTENSION_SHAPE, MAX_POLL_S, MIN_POLL_S, ExtensionTasks, HandshakeTasks, read_task
from inspector.mcp.tasks import TASKS_EXTENSION, call_tool, task_support, wants_task
from tests.support.task_server import STATELESS, TaskServer, _RpcError

TASKS_CAPABLE = {"tasks": {"requests": {"tools": {"call": {}}}}}


@pytest.mark.parametrize(("support", "asked", "expected"), [
    ("required", None, True), ("required", True, True), ("required", False, False),
    ("optional", None, False), ("optional", True, True), ("forbidden", True, False), (None, True, False),
])
def test_whether_a_task_is_asked_for(support: str | None, asked: bool | None, expected: bool) -> None:
    tool: dict[str, Any] = {"name": "t"}
    if support is not None:
        tool["execution"] = {"taskSupport": support}
    assert wants_task(tool, TASKS_CAPABLE, asked) is expected
    # A server that did not declare task-augmented tool calls is never asked for one.
    assert wants_task(tool, {"tasks": {"list": {}}}, asked) is False


def test_a_strange_task_support_counts_as_forbidden() -> None:
    assert task_support({"execution": {"taskSupport": "sometimes"}}) == "forbidden"
    assert task_support({"execution": "required"}) == "forbidden"
    assert task_support(None) == "forbidden"


def test_without_a_definition_the_callers_wish_decides() -> None:
    assert wants_task(None, TASKS_CAPABLE, True) is True
    assert wants_task(None, TASKS_CAPABLE, None) is False


@pytest.mark.parametrize(("value", "expected"), [
    (1, MIN_POLL_S), (10**12, MAX_POLL_S), (250, 0.25), ("soon", 1.0), (True, 1.0), (float("nan"), 1.0),
])
def test_a_poll_interval_is_bounded(value: Any, expected: float) -> None:
    state = read_task("S", "tasks/get", {"taskId": "a", "status": "working", "pollIntervalMs": value},
                      "pollIntervalMs")
    assert state.poll_s == expected


@pytest.mark.parametrize("task", [{"status": "working"}, {"taskId": "", "status": "working"},
                                  {"taskId": "a", "status": "sleeping"}, "a task"])
def test_a_malformed_task_fails_named(task: Any) -> None:
    with pytest.raises(McpTransportError) as caught:
        read_task("S", "tasks/get", task, "pollInterval")
    assert caught.value.kind is ErrorKind.MALFORMED


def test_each_shape_knows_only_its_own_creation_answer() -> None:
    handshake, extension = HandshakeTasks(), ExtensionTasks()
    created_old = {"task": {"taskId": "a", "status": "working", "pollInterval": 500}}
    created_new = {"resultType": "task", "taskId": "b", "status": "working", "pollIntervalMs": 500}
    plain = {"content": [{"type": "text", "text": "hi"}]}
    assert handshake.created("S", created_old).task_id == "a"
    assert handshake.created("S", created_new) is None
    assert handshake.created("S", plain) is None
    assert extension.created("S", created_new).task_id == "b"
    assert extension.created("S", created_old) is None
    assert extension.created("S", {**plain, "resultType": "complete"}) is None


class _Server:
    def __init__(self) -> None:
        self.label = "Modern"


class _Frame:
    def __init__(self, budget_s: float) -> None:
        self.cancel = None
        self.deadline = OperationDeadline(budget_s)


class _Transport:
    def __init__(self, handler: ServerRequestHandler, budget_s: float) -> None:
        self.server = _Server()
        self.frame = _Frame(budget_s)
        self._handler = handler

    async def answer_request(self, via: str, request: dict[str, Any], deliver: Any) -> None:
        await deliver(await answer_server_request(self._handler, request, self.frame.deadline.remaining_s()))


class _StatelessOp:
    """What :mod:`inspector.mcp.tasks` needs of an operation, its requests answered by the test
    task server's logic with the stateless era's ``_meta`` (the extension declared)."""

    def __init__(self, server: TaskServer, handler: ServerRequestHandler | None = None, budget_s: float = 5) -> None:
        self.server = server
        self.transport = _Transport(handler or ServerRequestHandler(), budget_s)
        self.observer = OperationRecorder()
        self.server_capabilities: dict[str, Any] = {}
        self.parting: list[tuple[str, dict[str, Any]]] = []
        self.legs: list[str] = []

    def deadline_remaining(self) -> float:
        return self.transport.frame.deadline.remaining_s()

    async def request(self, method: str, params: dict[str, Any], *, is_work: bool = False) -> dict[str, Any]:
        self.legs.append(method)
        meta = {"io.modelcontextprotocol/protocolVersion": STATELESS,
                "io.modelcontextprotocol/clientCapabilities": {"extensions": {TASKS_EXTENSION: {}}}}
        self.server.seen.append((method, params))
        try:
            return self.server._answer(method, {**params, "_meta": meta})  # noqa: SLF001
        except _RpcError as error:
            raise McpTransportError.rpc_error("Modern", method, error.code, error.text) from None


def test_a_modern_task_is_polled_until_its_inline_result() -> None:
    server = TaskServer(STATELESS)
    op = _StatelessOp(server)
    result = asyncio.run(call_tool(op, {"name": "slow", "arguments": {}}))
    assert result["content"] == [{"type": "text", "text": "slow done"}]
    assert op.legs == ["tools/call", "tasks/get", "tasks/get"]  # no tasks/result in this shape
    assert "task" not in server.seen[0][1]  # the server decides; the client asks nothing
    seen = op.observer.task
    assert (seen.handle.task_id, seen.handle.shape, seen.status, seen.polls) == ("task-1", EXTENSION_SHAPE,
                                                                                "completed", 2)


def test_a_failed_modern_task_raises_its_inline_error_with_its_handle() -> None:
    op = _StatelessOp(TaskServer(STATELESS))
    with pytest.raises(McpTransportError) as caught:
        asyncio.run(call_tool(op, {"name": "broken", "arguments": {}}))
    assert caught.value.kind is ErrorKind.RPC_ERROR
    assert caught.value.rpc_code == -32603
    assert "the disk is on fire" in caught.value.message
    assert caught.value.task["taskId"] == "task-1"
    assert caught.value.task["status"] == "failed"


def test_a_modern_task_asking_for_input_gets_it_through_tasks_update() -> None:
    asked: list[str] = []

    async def elicit(request: Any) -> dict[str, Any]:
        asked.append(request.message)
        return {"action": "accept", "content": {}}

    server = TaskServer(STATELESS)
    op = _StatelessOp(server, ServerRequestHandler(elicit=elicit))
    result = asyncio.run(call_tool(op, {"name": "asks", "arguments": {}}))
    assert result["content"] == [{"type": "text", "text": "asks done"}]
    assert asked == ["Go on?"]
    assert op.legs.count("tasks/update") == 1
    assert server.tasks["task-1"]["responses"] == {"q1": {"action": "accept", "content": {}}}


def test_a_modern_task_that_outlives_the_budget_is_timed_out_not_cancelled() -> None:
    server = TaskServer(STATELESS, poll_ms=50)
    op = _StatelessOp(server, budget_s=0.3)
    with pytest.raises(McpTransportError) as caught:
        asyncio.run(call_tool(op, {"name": "forever", "arguments": {}}))
    assert caught.value.kind is ErrorKind.TIMED_OUT
    assert caught.value.task["taskId"] == "task-1"
    assert op.parting == []  # nobody asked to cancel it
    assert op.deadline_remaining() > -0.1  # no pause reached past the deadline


class _PlainOp(_StatelessOp):
    """Answers every tools/call with a result that has a ``task`` key of its own and no content."""

    async def request(self, method: str, params: dict[str, Any], *, is_work: bool = False) -> dict[str, Any]:
        self.legs.append(method)
        return {"task": {"taskId": "x", "status": "working"}}


def test_an_answer_to_a_call_that_asked_no_task_is_never_read_as_a_2025_task() -> None:
    op = _PlainOp(TaskServer())
    op.server_capabilities = TASKS_CAPABLE
    answer = asyncio.run(call_tool(op, {"name": "t", "arguments": {}}, tool={"name": "t"}, task=False))
    assert answer == {"task": {"taskId": "x", "status": "working"}}
    assert op.legs == ["tools/call"]
