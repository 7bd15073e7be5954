"""Child process: the official MCP SDK server (tests/support/sdk_server.py) under uvicorn.

Prints ``READY <port>`` once serving, and ``EVENT started|cancelled|finished`` when the ``slow``
tool reaches those points (so a parent process can tell a tool call is in flight, and whether
the cancel reached the handler). With ``--trace`` every HTTP request is printed as
``TRACE <verb> <json-rpc method> <time.time()>`` (diagnostics only; off in the measured runs).
Run by benchmarks/_common.py:SdkServerProcess; not a benchmark.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

import uvicorn  # noqa: E402

from tests.support.sdk_server import build_sdk_server  # noqa: E402


class _PrintingEvent:
    """Quacks like the threading.Event the SDK test server sets; also tells the parent."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._event = threading.Event()

    def set(self) -> None:
        self._event.set()
        print(f"EVENT {self.name}", flush=True)

    def is_set(self) -> bool:
        return self._event.is_set()

    def clear(self) -> None:
        self._event.clear()


class _Events:
    def __init__(self) -> None:
        self.started = _PrintingEvent("started")
        self.cancelled = _PrintingEvent("cancelled")
        self.finished = _PrintingEvent("finished")


def _tracing(app):  # type: ignore[no-untyped-def]
    async def wrapped(scope, receive, send):  # type: ignore[no-untyped-def]
        if scope["type"] != "http":
            return await app(scope, receive, send)
        chunks: list[bytes] = []

        async def spy():  # type: ignore[no-untyped-def]
            message = await receive()
            if message["type"] == "http.request" and scope["method"] == "POST":
                chunks.append(message.get("body", b""))
                if not message.get("more_body"):
                    method = "-"
                    try:
                        method = json.loads(b"".join(chunks)).get("method", "-")
                    except (ValueError, AttributeError):
                        pass
                    print(f"TRACE {scope['method']} {method} {time.time()}", flush=True)
            return message

        async def spy_send(message):  # type: ignore[no-untyped-def]
            if message["type"] == "http.response.start":
                print(f"TRACE-ANSWER {message['status']} {time.time()}", flush=True)
            return await send(message)

        if scope["method"] != "POST":
            print(f"TRACE {scope['method']} - {time.time()}", flush=True)
        return await app(scope, spy, spy_send)

    return wrapped


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json-response", action="store_true")
    parser.add_argument("--log-level", default="error")
    parser.add_argument("--trace", action="store_true")
    args = parser.parse_args()

    app = build_sdk_server(_Events()).streamable_http_app(json_response=args.json_response)  # type: ignore[arg-type]
    if args.trace:
        app = _tracing(app)
    # uvicorn binds the port itself (port 0: the kernel picks a free one), exactly as in a normal
    # deployment. (Handing it a ready socket made by socket.socket() would leave TCP_NODELAY off:
    # asyncio only sets it on sockets whose proto is IPPROTO_TCP, and a reused keep-alive
    # connection then stalls ~40 ms on Nagle + delayed ACK.)
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level=args.log_level, access_log=False,
                            lifespan="on", timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)

    def announce() -> None:
        while not server.started and not server.should_exit:
            threading.Event().wait(0.01)
        if server.started:
            port = server.servers[0].sockets[0].getsockname()[1]
            print(f"READY {port}", flush=True)

    threading.Thread(target=announce, daemon=True).start()
    server.run()


if __name__ == "__main__":
    main()
