"""Start the demo server on 127.0.0.1 in a background thread, and stop it cleanly."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from typing import Any

import uvicorn

from .app import MCP_PATH, build_app
from .options import DemoOptions
from .state import DemoState

START_TIMEOUT_S = 10.0
STOP_TIMEOUT_S = 5.0
#: How often the serving loop looks up on its own (uvicorn's tick: a Date header fresh to the second).
TICK_S = 0.1
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
    """Uvicorn without its own signal handlers (the process that starts us keeps Ctrl-C), told at once
    when it is up and when it is to stop: uvicorn itself notices a stop only at its next tick, so a
    stop waited up to a tenth of a second more (benchmarks/README.md, section 13)."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.up = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None

    def install_signal_handlers(self) -> None:
        pass

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:
            self.up.set()

    async def main_loop(self) -> None:
        self._loop, self._wake = asyncio.get_running_loop(), asyncio.Event()
        counter = 0
        while not await self.on_tick(counter):
            counter = (counter + 1) % 864000
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), TICK_S)

    def ask_to_exit(self) -> None:
        """Stop serving (from any thread) without waiting for it."""
        self.should_exit = True
        loop, wake = self._loop, self._wake
        if loop is not None and wake is not None:
            with contextlib.suppress(RuntimeError):  # its loop has ended already
                loop.call_soon_threadsafe(wake.set)


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
        while not server.up.wait(0.02):
            if not thread.is_alive() or waited > START_TIMEOUT_S:
                self.stop()
                reason = str(failure[0]) if failure else None
                raise DemoServerError(f"The demo server did not start on port {port}: "
                                      f"{reason or 'it gave no reason'}.", port, reason=reason)
            waited += 0.02
        self.url = f"http://{HOST}:{port}{MCP_PATH}"
        return self.url

    def request_stop(self) -> None:
        """Ask the server to stop without waiting for it; :meth:`stop` then waits. Uvicorn's shutdown
        takes a tenth of a second of waiting: a caller with other work (a command's report) lets it
        pass meanwhile."""
        if self._server is not None:
            self._server.ask_to_exit()

    def stop(self) -> None:
        """Stop serving and wait for the server's thread (bounded). Safe to call twice."""
        server, thread = self._server, self._thread
        self._server, self._thread = None, None
        if server is None or thread is None:
            return
        server.ask_to_exit()
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
