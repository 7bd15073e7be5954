"""A small MCP server that runs tool calls as tasks, in either shape, for tests on 127.0.0.1.

``TaskServer("2025-11-25")`` speaks the handshake era: ``initialize`` declares
``capabilities.tasks.requests.tools.call``; ``tools/call`` with ``params.task`` answers
``{task: {...}}``; ``tasks/get``, ``tasks/result`` and ``tasks/cancel`` follow. ``TaskServer("2026-07-28")``
speaks the stateless era with the extension ``io.modelcontextprotocol/tasks``: ``server/discover``,
requests carrying ``_meta``, ``tools/call`` answered with ``resultType: "task"``, ``tasks/get``
inlining the end, ``tasks/update`` and ``tasks/cancel``.

The tools (their ``execution.taskSupport`` in brackets), each ending after its number of polls:
``slow`` (optional: completes after 2 polls), ``must`` (required: after 1), ``forever`` (optional:
never ends by itself), ``broken`` (optional: fails after 1 poll, "the disk is on fire"), ``asks``
(optional: needs input once, then completes), ``plain`` (no task support). Everything the server
received is in ``seen`` (method, params), cancelled task ids in ``cancelled``. In the handshake era a
task belongs to the session that made it (as in the TypeScript SDK's task store): another session
is told it does not exist; ``ended`` lists the sessions ended with DELETE.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tests.support.asgi_server import serve_asgi

HANDSHAKE = "2025-11-25"
STATELESS = "2026-07-28"
EXTENSION = "io.modelcontextprotocol/tasks"
#: Polls before each tool's task ends (None: never).
ENDS_AFTER = {"slow": 2, "must": 1, "forever": None, "broken": 1, "asks": 2}
SUPPORT = {"slow": "optional", "must": "required", "forever": "optional", "broken": "optional",
           "asks": "optional"}


def _tools() -> list[dict[str, Any]]:
    tools = [{"name": name, "description": f"a task tool ({support})", "inputSchema": {"type": "object"},
              "execution": {"taskSupport": support}} for name, support in SUPPORT.items()]
    tools.append({"name": "plain", "inputSchema": {"type": "object"}})
    return tools


class TaskServer:
    """The server's state; :meth:`serve` runs it on a free port (a context manager yielding its URL)."""

    def __init__(self, shape: str = HANDSHAKE, *, poll_ms: int = 20) -> None:
        self.shape = shape
        self.poll_ms = poll_ms
        self.seen: list[tuple[str, dict[str, Any]]] = []
        #: The MCP headers of each request in ``seen`` (``mcp-method``, ``mcp-name``, ``mcp-protocol-version``).
        self.headers: list[dict[str, str]] = []
        self.cancelled: list[str] = []
        self.tasks: dict[str, dict[str, Any]] = {}
        self.ended: list[str] = []
        self._ids = itertools.count(1)
        self._sessions = itertools.count(1)
        self._session: str | None = None
        self._lock = threading.Lock()

    def methods(self) -> list[str]:
        return [method for method, _ in self.seen]

    @contextmanager
    def serve(self) -> Iterator[str]:
        app = Starlette(routes=[Route("/mcp", self._endpoint, methods=["POST", "GET", "DELETE"])])
        with serve_asgi(app) as url:
            yield url

    # -- the wire --------------------------------------------------------------------------------

    async def _endpoint(self, request: Request) -> Response:
        if request.method == "DELETE":
            self.ended.append(request.headers.get("mcp-session-id", ""))
            return Response(status_code=200)
        if request.method == "GET":
            return Response(status_code=405)
        message = await request.json()
        method = message.get("method")
        params = message.get("params") or {}
        if method is None:
            return Response(status_code=202)  # a reply of ours, not expected here
        self.seen.append((method, params))
        self.headers.append({key: value for key, value in request.headers.items() if key.startswith("mcp-")})
        if "id" not in message:
            return Response(status_code=202)
        self._session = request.headers.get("mcp-session-id")
        if self.shape == HANDSHAKE and method != "initialize" and (self._session is None
                                                                   or self._session in self.ended):
            return Response(status_code=404)
        try:
            result = self._answer(method, params)
        except _RpcError as error:
            body = {"jsonrpc": "2.0", "id": message["id"], "error": {"code": error.code, "message": error.text}}
            # The stateless era answers an unknown method with 404 (and -32601), other errors with 400.
            status = 200 if self.shape == HANDSHAKE else (404 if error.code == -32601 else 400)
            return JSONResponse(body, status_code=status)
        headers = {"Mcp-Session-Id": result.pop("_session")} if method == "initialize" else None
        return JSONResponse({"jsonrpc": "2.0", "id": message["id"], "result": result}, headers=headers)

    def _answer(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        if self.shape == STATELESS:
            if method == "initialize":
                raise _RpcError(-32601, "initialize is gone in this revision")
            if method != "server/discover" and "io.modelcontextprotocol/protocolVersion" not in params.get("_meta", {}):
                raise _RpcError(-32602, "missing _meta")
        if self.shape == HANDSHAKE and method == "server/discover":
            raise _RpcError(-32601, "unknown method server/discover")  # as a server of that era answers
        handler = getattr(self, "_" + method.replace("/", "_"), None)
        if handler is None:
            raise _RpcError(-32601, f"unknown method {method}")
        return handler(params)

    # -- methods -----------------------------------------------------------------------------------

    def _initialize(self, params: dict[str, Any]) -> dict[str, Any]:
        capabilities = {"tools": {}, "tasks": {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}}
        return {"protocolVersion": HANDSHAKE, "capabilities": capabilities,
                "serverInfo": {"name": "task-server", "version": "1"}, "_session": f"session-{next(self._sessions)}"}

    def _server_discover(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"resultType": "complete", "supportedVersions": [STATELESS],
                "capabilities": {"tools": {}, "extensions": {EXTENSION: {}}},
                "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "task-server", "version": "1"}}}

    def _tools_list(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"tools": _tools()}

    def _tools_call(self, params: dict[str, Any]) -> dict[str, Any]:
        name = params.get("name")
        if name == "plain":
            return {"content": [{"type": "text", "text": "plain answer"}]}
        if name not in SUPPORT:
            raise _RpcError(-32602, f"unknown tool {name}")
        if self.shape == HANDSHAKE:
            if "task" not in params:
                if SUPPORT[name] == "required":
                    raise _RpcError(-32601, f"{name} must run as a task")
                return {"content": [{"type": "text", "text": f"{name} at once"}]}
        else:
            capabilities = params["_meta"].get("io.modelcontextprotocol/clientCapabilities", {})
            if EXTENSION not in (capabilities.get("extensions") or {}):
                return {"resultType": "complete", "content": [{"type": "text", "text": f"{name} at once"}]}
        with self._lock:
            task_id = f"task-{next(self._ids)}"
            self.tasks[task_id] = {"tool": name, "polls": 0, "status": "working", "answered": False,
                                   "session": self._session}
        return self._created(task_id)

    def _tasks_get(self, params: dict[str, Any]) -> dict[str, Any]:
        task = self._task(params)
        task["polls"] += 1
        ends = ENDS_AFTER[task["tool"]]
        if task["status"] == "working" and ends is not None and task["polls"] >= ends:
            if task["tool"] == "asks" and not task["answered"]:
                task["status"] = "input_required"
            else:
                task["status"] = "failed" if task["tool"] == "broken" else "completed"
        return self._view(params["taskId"], inline=True)

    def _tasks_result(self, params: dict[str, Any]) -> dict[str, Any]:
        task = self._task(params)
        if task["status"] == "input_required":  # answered by itself here: the test server asks nobody
            task["answered"], task["status"] = True, "completed"
        if task["status"] == "failed":
            raise _RpcError(-32603, "the disk is on fire")
        if task["status"] != "completed":
            raise _RpcError(-32602, f"task {params['taskId']} is {task['status']}")
        return {"content": [{"type": "text", "text": f"{task['tool']} done after {task['polls']} polls"}],
                "_meta": {"io.modelcontextprotocol/related-task": {"taskId": params["taskId"]}}}

    def _tasks_update(self, params: dict[str, Any]) -> dict[str, Any]:
        task = self._task(params)
        task["answered"], task["status"] = True, "working"
        task["responses"] = params.get("inputResponses")
        return {"resultType": "complete"}

    def _tasks_cancel(self, params: dict[str, Any]) -> dict[str, Any]:
        task = self._task(params)
        if task["status"] in ("completed", "failed", "cancelled"):
            raise _RpcError(-32602, "the task has ended")
        task["status"] = "cancelled"
        self.cancelled.append(params["taskId"])
        if self.shape == STATELESS:
            return {"resultType": "complete"}
        return self._view(params["taskId"], inline=False)

    # -- helpers -----------------------------------------------------------------------------------

    def _task(self, params: dict[str, Any]) -> dict[str, Any]:
        task = self.tasks.get(params.get("taskId"))
        if task is None or task["session"] != self._session:
            raise _RpcError(-32602, "no such task")
        return task

    def _fields(self, task_id: str) -> dict[str, Any]:
        task = self.tasks[task_id]
        fields = {"taskId": task_id, "status": task["status"], "createdAt": "2026-12-02T00:00:00Z",
                  "lastUpdatedAt": "2026-12-02T00:00:00Z"}
        if self.shape == HANDSHAKE:
            fields.update(ttl=60_000, pollInterval=self.poll_ms)
        else:
            fields.update(ttlMs=60_000, pollIntervalMs=self.poll_ms)
        if task["status"] == "failed":
            fields["statusMessage"] = "the disk is on fire"
        return fields

    def _created(self, task_id: str) -> dict[str, Any]:
        if self.shape == HANDSHAKE:
            return {"task": self._fields(task_id)}
        return {"resultType": "task", **self._fields(task_id)}

    def _view(self, task_id: str, *, inline: bool) -> dict[str, Any]:
        fields = self._fields(task_id)
        if self.shape == HANDSHAKE:
            return fields
        task = self.tasks[task_id]
        fields["resultType"] = "complete"
        if inline and task["status"] == "completed":
            fields["result"] = {"content": [{"type": "text", "text": f"{task['tool']} done"}], "isError": False}
        elif inline and task["status"] == "failed":
            fields["error"] = {"code": -32603, "message": "the disk is on fire"}
        elif inline and task["status"] == "input_required":
            fields["inputRequests"] = {"q1": {"method": "elicitation/create", "params": {
                "mode": "form", "message": "Go on?", "requestedSchema": {"type": "object", "properties": {}}}}}
        return fields


class _RpcError(Exception):
    def __init__(self, code: int, text: str) -> None:
        super().__init__(text)
        self.code = code
        self.text = text
