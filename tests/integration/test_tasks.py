"""A tool call run as a task (2025-11-25 shape) is one operation: creation and polls are its legs."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from inspector.agent import execute_tool
from inspector.agent.operations import look_up_task_step
from inspector.mcp import CancelSignal, ErrorKind, McpClient, OperationRecorder, ServerEndpoint
from inspector.mcp.reports import TaskSeen
from inspector.mcp.server_command import ServerCommand
from inspector.mcp.server_requests import ServerRequestHandler
from inspector.mcp.tasks import TASKS_EXTENSION
from inspector.runs import RunStep, ToolOutcome
from tests.support.cli_process import cli_here
from tests.support.task_server import STATELESS, SUPPORT, TaskServer, _tools

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def task_server() -> Iterator[tuple[TaskServer, ServerEndpoint]]:
    server = TaskServer(poll_ms=20)
    with server.serve() as url:
        yield server, ServerEndpoint(url, name="Tasks", era="handshake")


def _definition(name: str) -> dict[str, Any]:
    return next(tool for tool in _tools() if tool["name"] == name)


async def _call(endpoint: ServerEndpoint, tool: str, *, budget_s: float = 10, cancel: CancelSignal | None = None,
                recorder: OperationRecorder | None = None, definition: dict[str, Any] | None = None,
                as_task: bool | None = None):
    client = McpClient()
    try:
        return await execute_tool(client, endpoint, tool, {}, budget_s=budget_s, cancel=cancel, observer=recorder,
                                  definition=definition, as_task=as_task)
    finally:
        await client.close()


def test_a_completed_task_shows_its_polls_as_legs(task_server) -> None:
    server, endpoint = task_server
    recorder = OperationRecorder()
    record = asyncio.run(_call(endpoint, "slow", recorder=recorder, definition=_definition("slow"), as_task=True))

    assert record.status == "ok", record.error
    assert record.tool_result.content == "slow done after 2 polls"
    methods = [leg.method for leg in recorder.legs]
    assert methods == ["initialize", "notifications/initialized", "tools/call", "tasks/get", "tasks/get",
                       "tasks/result"]
    assert [leg.method for leg in record.step.legs] == methods  # the stored step keeps every poll
    call = dict(server.seen)["tools/call"]
    assert call["task"]["ttl"] > 0
    assert recorder.task == TaskSeen(recorder.task.handle, "completed", 2)
    assert record.step.task == {"taskId": "task-1", "server": "Tasks", "shape": "2025-11-25",
                                "status": "completed", "polls": 2}
    assert RunStep.from_payload(record.step.to_payload()).task == record.step.task


def test_an_optional_task_tool_runs_plainly_unless_asked(task_server) -> None:
    server, endpoint = task_server
    record = asyncio.run(_call(endpoint, "slow", definition=_definition("slow")))
    assert record.status == "ok"
    assert record.tool_result.content == "slow at once"
    assert "task" not in dict(server.seen)["tools/call"]
    assert record.step.task is None


@pytest.mark.parametrize("definition", [True, False], ids=["from the catalogue", "unknown to the caller"])
def test_a_tool_that_requires_a_task_runs_as_one_without_asking(task_server, definition: bool) -> None:
    server, endpoint = task_server
    record = asyncio.run(_call(endpoint, "must", definition=_definition("must") if definition else None))
    assert SUPPORT["must"] == "required"
    assert record.status == "ok", record.error
    assert record.tool_result.content == "must done after 1 polls"
    assert "task" in dict(server.seen)["tools/call"]


class _CancelAfterPolls(OperationRecorder):
    def __init__(self, cancel: CancelSignal, polls: int) -> None:
        super().__init__()
        self._cancel, self._polls = cancel, polls

    def task_seen(self, report: TaskSeen) -> None:
        super().task_seen(report)
        if report.polls >= self._polls:
            self._cancel.fire()  # on the loop's own thread, during the pause before the next poll


def test_cancel_cancels_the_task_on_the_server_and_the_step_is_cancelled(task_server) -> None:
    server, endpoint = task_server
    cancel = CancelSignal()
    recorder = _CancelAfterPolls(cancel, 2)

    async def scenario():
        client = McpClient()
        try:
            record = await execute_tool(client, endpoint, "forever", {}, budget_s=10, cancel=cancel,
                                        observer=recorder, as_task=True)
            await client.drain()  # the tasks/cancel goes out in the background
            return record
        finally:
            await client.close()

    record = asyncio.run(scenario())
    assert record.status == "cancelled"
    assert record.health == "cancelled"
    assert record.step.tool_outcome is ToolOutcome.CANCELLED
    assert server.cancelled == ["task-1"]
    assert server.methods().index("tasks/cancel") > server.methods().index("tasks/get")
    assert record.step.task["taskId"] == "task-1"


def test_cancel_during_a_poll_in_flight_also_cancels_the_task(task_server) -> None:
    server, endpoint = task_server
    cancel = CancelSignal()

    class FireOnPoll(OperationRecorder):
        def leg_started(self, report: Any) -> None:
            super().leg_started(report)
            if report.method == "tasks/get":
                cancel.fire()

    async def scenario():
        client = McpClient()
        try:
            record = await execute_tool(client, endpoint, "forever", {}, budget_s=10, cancel=cancel,
                                        observer=FireOnPoll(), as_task=True)
            await client.drain()
            return record
        finally:
            await client.close()

    record = asyncio.run(scenario())
    assert record.status == "cancelled"
    assert server.cancelled == ["task-1"]


def test_a_task_that_outlives_the_budget_times_out_and_keeps_its_handle(task_server) -> None:
    server, endpoint = task_server
    recorder = OperationRecorder()
    record = asyncio.run(_call(endpoint, "forever", budget_s=1, recorder=recorder, as_task=True))

    assert record.status == "failed"
    assert record.error.kind is ErrorKind.TIMED_OUT
    assert record.error.task["taskId"] == "task-1"
    assert "run-inspector task \"Tasks\" task-1" in record.error.message
    assert record.step.task["taskId"] == "task-1"
    assert record.step.task["status"] == "working"
    assert record.step.task["polls"] >= 2
    assert server.cancelled == []  # timed out is not cancelled: the task may go on, and be looked up
    assert recorder.finished.elapsed_ms < 1300  # no pause reached past the deadline


def test_a_failed_task_is_a_failed_step_with_its_error(task_server) -> None:
    server, endpoint = task_server
    record = asyncio.run(_call(endpoint, "broken", as_task=True))
    assert record.status == "failed"
    assert record.health == "failed"
    assert record.error.kind is ErrorKind.RPC_ERROR
    assert "the disk is on fire" in record.error.message
    assert record.step.task["status"] == "failed"
    assert record.step.tool_outcome is ToolOutcome.FAILED


@pytest.mark.parametrize("definition", [True, False], ids=["from the catalogue", "read from tools/list"])
def test_a_tool_without_task_support_is_never_asked_to_run_as_one(task_server, definition: bool) -> None:
    server, endpoint = task_server
    record = asyncio.run(_call(endpoint, "plain", as_task=True, definition=_definition("plain") if definition
                               else None))
    assert record.status == "ok"
    assert record.tool_result.content == "plain answer"
    assert "task" not in dict(server.seen)["tools/call"]
    assert ("tools/list" in server.methods()) is not definition


def test_a_timed_out_task_keeps_its_session_open_and_is_found_in_it(task_server) -> None:
    server, endpoint = task_server

    async def scenario():
        client = McpClient()
        try:
            record = await execute_tool(client, endpoint, "forever", {}, budget_s=1, as_task=True)
            await client.drain()
            session = record.step.task["sessionId"]
            found = await look_up_task_step(client, endpoint, "task-1", session_id=session)
            elsewhere = await look_up_task_step(client, endpoint, "task-1")
            await client.drain()
            return record, session, found, elsewhere
        finally:
            await client.close()

    record, session, found, elsewhere = asyncio.run(scenario())
    assert record.error.kind is ErrorKind.TIMED_OUT
    assert f"--session {session}" in record.error.message
    assert session not in server.ended  # left open for the lookup
    assert found.status == "ok", found.error
    assert found.step.content == "tasks/get: the task task-1 is working"
    assert found.step.task["status"] == "working"
    assert [leg.method for leg in found.step.legs] == ["initialize", "notifications/initialized", "tasks/get"]
    assert session not in server.ended and len(server.ended) == 2  # the lookups' own sessions ended
    # In another session the server does not know the task (as the TypeScript SDK's store does).
    assert elsewhere.status == "failed"
    assert "no such task" in elsewhere.error.message
    assert "only in the session that made it" in elsewhere.error.message


def test_a_finished_task_ends_its_session_as_any_operation(task_server) -> None:
    server, endpoint = task_server

    async def scenario():
        client = McpClient()
        try:
            record = await execute_tool(client, endpoint, "slow", {}, as_task=True)
            await client.drain()
            return record
        finally:
            await client.close()

    record = asyncio.run(scenario())
    assert record.status == "ok"
    assert "sessionId" not in record.step.task
    assert server.ended == ["session-1"]


def test_over_stdio_cancel_tells_the_server_on_the_line_which_stays_open() -> None:
    heard: list[str] = []
    told = asyncio.Event()
    endpoint = ServerEndpoint.for_command(ServerCommand(sys.executable, ("-m", "tests.support.stdio_task_server"),
                                                        cwd=str(ROOT)), era="handshake")
    cancel = CancelSignal()

    def output(key: str, line: str) -> None:
        heard.append(line)
        if line.startswith("tasks/cancel"):
            told.set()

    async def scenario():
        client = McpClient(server_output=output)
        try:
            record = await execute_tool(client, endpoint, "forever", {}, budget_s=10, cancel=cancel,
                                        observer=_CancelAfterPolls(cancel, 2), as_task=True)
            await asyncio.wait_for(told.wait(), 3)
            after = await execute_tool(client, endpoint, "slow", {}, budget_s=10, as_task=True)
            return record, after
        finally:
            await client.close()

    record, after = asyncio.run(scenario())
    assert record.status == "cancelled"
    assert "tasks/cancel task-1" in heard
    assert after.status == "ok"  # the same process goes on serving
    assert after.tool_result.content == "slow done after 2 polls"


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return cli_here(*args)  # in this process: what it says is the point, not its process


def test_the_command_line_runs_a_task_and_looks_a_timed_out_one_up_again(task_server) -> None:
    server, endpoint = task_server
    done = _cli("call", endpoint.url, "slow", "--task", "--no-store", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["content"] == "slow done after 2 polls"
    assert report["task"]["status"] == "completed" and report["task"]["polls"] == 2
    assert [leg["method"] for leg in report["legs"]][-3:] == ["tasks/get", "tasks/get", "tasks/result"]

    late = _cli("call", endpoint.url, "forever", "--task", "--budget", "1", "--no-store", "--json")
    assert late.returncode == 1
    report = json.loads(late.stdout)
    assert report["error"]["kind"] == "timed_out"
    handle = report["task"]
    looked = _cli("task", endpoint.url, handle["taskId"], "--session", handle["sessionId"], "--no-store")
    assert looked.returncode == 0, looked.stdout + looked.stderr
    assert f"Task {handle['taskId']} on {endpoint.url}: working after 1 poll." in looked.stdout



# -- the 2026-07-28 shape (extension io.modelcontextprotocol/tasks), in the stateless era ----------------


@pytest.fixture
def modern_server() -> Iterator[tuple[TaskServer, ServerEndpoint]]:
    server = TaskServer(STATELESS, poll_ms=20)
    with server.serve() as url:
        yield server, ServerEndpoint(url, name="Modern", era="stateless")


def test_a_modern_task_is_polled_to_its_inline_result(modern_server) -> None:
    server, endpoint = modern_server
    recorder = OperationRecorder()
    record = asyncio.run(_call(endpoint, "slow", recorder=recorder))
    assert record.status == "ok", record.error
    assert record.tool_result.content == "slow done"
    assert [leg.method for leg in recorder.legs][-3:] == ["tools/call", "tasks/get", "tasks/get"]
    assert "tasks/result" not in server.methods()  # gone in this revision: tasks/get inlines the result
    assert record.step.task["shape"] == "2026-07-28"
    assert "sessionId" not in record.step.task
    call = dict(server.seen)["tools/call"]
    assert call["_meta"]["io.modelcontextprotocol/clientCapabilities"]["extensions"] == {TASKS_EXTENSION: {}}
    gets = [headers for (method, _), headers in zip(server.seen, server.headers, strict=True) if method == "tasks/get"]
    assert gets and all(h.get("mcp-name") == "task-1" and h.get("mcp-method") == "tasks/get" for h in gets)


def test_a_modern_task_asks_and_is_answered_with_tasks_update(modern_server) -> None:
    server, endpoint = modern_server
    asked: list[str] = []

    async def elicit(request: Any) -> dict[str, Any]:
        asked.append(request.message)
        return {"action": "accept", "content": {}}

    async def scenario():
        client = McpClient(handler=ServerRequestHandler(elicit=elicit))
        try:
            return await execute_tool(client, endpoint, "asks", {}, budget_s=10)
        finally:
            await client.close()

    record = asyncio.run(scenario())
    assert record.status == "ok", record.error
    assert asked == ["Go on?"]
    assert server.methods().count("tasks/update") == 1
    assert server.tasks["task-1"]["responses"] == {"q1": {"action": "accept", "content": {}}}


def test_cancel_of_a_modern_task_sends_tasks_cancel_with_its_meta(modern_server) -> None:
    server, endpoint = modern_server
    cancel = CancelSignal()

    async def scenario():
        client = McpClient()
        try:
            record = await execute_tool(client, endpoint, "forever", {}, budget_s=10, cancel=cancel,
                                        observer=_CancelAfterPolls(cancel, 2))
            await client.drain()
            return record
        finally:
            await client.close()

    record = asyncio.run(scenario())
    assert record.status == "cancelled"
    assert server.cancelled == ["task-1"]  # the server refuses a request without _meta: it had one
    index = server.methods().index("tasks/cancel")
    assert server.headers[index].get("mcp-name") == "task-1"


def test_a_modern_task_outlives_the_budget_and_is_looked_up_by_its_id_alone(modern_server) -> None:
    server, endpoint = modern_server

    async def scenario():
        client = McpClient()
        try:
            late = await execute_tool(client, endpoint, "forever", {}, budget_s=1)
            found = await look_up_task_step(client, endpoint, late.step.task["taskId"])
            return late, found
        finally:
            await client.close()

    late, found = asyncio.run(scenario())
    assert late.error.kind is ErrorKind.TIMED_OUT
    assert "--session" not in late.error.message  # no session in this era: the id is the whole handle
    assert server.cancelled == []
    assert found.status == "ok", found.error
    assert found.step.task["status"] == "working"
    assert found.step.task["shape"] == "2026-07-28"
