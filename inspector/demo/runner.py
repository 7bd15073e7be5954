"""Start the demo server on 127.0.0.1 in a background thread, and stop it cleanly."""

from __future__ import annotations

import socket
import threading
from typing import Any

import uvicorn

from .app import MCP_PATH, build_app
from .options import DemoOptions
from .state import DemoState

START_TIMEOUT_S = 10.0
STOP_TIMEOUT_S = 5.0
HOST = "127.0.0.1"


class DemoServerError(RuntimeError):
    """The demo server could not start (e.g. its port is taken); the message says what to do (in
    English). ``port``, and ``os_error`` (the port could not be bound) or ``reason`` (the server's
    own, as it gave it), let a caller say it in the reader's language."""

    def __init__(self, message: str, port: int | None = None, os_error: OSError | None = None,
                 reason: str | None = None) -> None:
        super().__init__(message)
        self.port = port
        self.os_error = os_error
        self.reason = reason


class _Uvicorn(uvicorn.Server):
    """Uvicorn without its own signal handlers: the process that starts us keeps Ctrl-C."""

    def install_signal_handlers(self) -> None:
        pass


class DemoServer:
    """The demo MCP server, bound to 127.0.0.1 only.

    ``start()`` returns its URL once it accepts connections; ``stop()`` ends it and waits for
    its thread. Usable as a context manager. ``state`` tells what the tools saw.
    """

    def __init__(self, options: DemoOptions | None = None) -> None:
        self.options = options or DemoOptions()
        self.state = DemoState()
        self._server: _Uvicorn | None = None
        self._thread: threading.Thread | None = None
        self.url: str | None = None

    def start(self) -> str:
        """Start serving; return the endpoint URL (``http://127.0.0.1:PORT/mcp``)."""
        if self._server is not None:
            raise RuntimeError("the demo server is already running")
        sock = _bind(self.options.port)
        port = sock.getsockname()[1]
        # loop and http "auto": uvloop and httptools, dependencies of ours (uvloop where it builds),
        # answer in about a fifth less CPU than asyncio's loop and h11; the window shares its cores
        # with this server (benchmarks/README.md, section 8). The loop is this thread's alone.
        config = uvicorn.Config(build_app(self.options, self.state), log_level="warning", lifespan="on",
                                timeout_graceful_shutdown=1, loop="auto", http="auto")
        server = _Uvicorn(config)
        failure: list[BaseException] = []

        def serve() -> None:
            try:
                server.run(sockets=[sock])
            except BaseException as exc:  # noqa: BLE001 - reported to start()
                failure.append(exc)
            finally:
                sock.close()

        thread = threading.Thread(target=serve, name=f"demo-server-{port}", daemon=True)
        self._server, self._thread = server, thread
        thread.start()
        waited = 0.0
        while not server.started:
            if not thread.is_alive() or waited > START_TIMEOUT_S:
                self.stop()
                reason = str(failure[0]) if failure else None
                raise DemoServerError(f"The demo server did not start on port {port}: "
                                      f"{reason or 'it gave no reason'}.", port, reason=reason)
            thread.join(0.02)
            waited += 0.02
        self.url = f"http://{HOST}:{port}{MCP_PATH}"
        return self.url

    def stop(self) -> None:
        """Stop serving and wait for the server's thread (bounded). Safe to call twice."""
        server, thread = self._server, self._thread
        self._server, self._thread = None, None
        if server is None or thread is None:
            return
        server.should_exit = True
        thread.join(STOP_TIMEOUT_S)
        if thread.is_alive():  # a stuck connection: stop waiting for it
            server.force_exit = True
            thread.join(STOP_TIMEOUT_S)

    def __enter__(self) -> DemoServer:
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def _bind(port: int) -> socket.socket:
    """Bind before the thread starts, so a taken port is reported here and a free one is known."""
    # IPPROTO_TCP named: asyncio turns Nagle's algorithm off only for sockets that say TCP, and an
    # accepted socket says what the listening one said (with 0, every answer after a connection's
    # first waited ~40 ms for the client's delayed ACK: benchmarks/cli_call_start.py).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port))
    except OSError as exc:
        sock.close()
        raise DemoServerError(f"The demo server cannot listen on {HOST}:{port} ({exc.strerror}); "
                              "choose another port with --port, or 0 for any free one.", port, exc) from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock
