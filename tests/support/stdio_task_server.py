"""The task server's logic (tests/support/task_server.py, handshake shape) over stdio.

Run as ``python -m tests.support.stdio_task_server``. It writes ``tasks/cancel <id>`` on stderr when
a task is cancelled, so a test can see the server was told."""

from __future__ import annotations

import json
import sys

from tests.support.task_server import TaskServer, _RpcError


def main() -> None:
    server = TaskServer(poll_ms=20)
    server._session = None  # noqa: SLF001 - a process is one session
    for line in sys.stdin:
        message = json.loads(line)
        method, params = message.get("method"), message.get("params") or {}
        if method is None or "id" not in message:
            continue
        try:
            result = server._answer(method, params)  # noqa: SLF001
            result.pop("_session", None)
            reply = {"jsonrpc": "2.0", "id": message["id"], "result": result}
        except _RpcError as error:
            reply = {"jsonrpc": "2.0", "id": message["id"], "error": {"code": error.code, "message": error.text}}
        if method == "tasks/cancel":
            print(f"tasks/cancel {params.get('taskId')}", file=sys.stderr, flush=True)
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
