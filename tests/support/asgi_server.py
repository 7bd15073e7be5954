"""Run an ASGI app (e.g. the official MCP SDK server) with uvicorn on a free loopback port."""

from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator

import uvicorn

from inspector.demo.runner import _Uvicorn

_CLOSED: list[socket.socket] = []


def closed_port() -> int:
    """A port on 127.0.0.1 where every connection is refused, for the rest of this test process: bound by
    a socket that never listens, so no other server can take it meanwhile."""
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    _CLOSED.append(holder)
    return holder.getsockname()[1]


class ReservedPort:
    """A port refused as :func:`closed_port`'s until :meth:`release`, which lets a test's own server bind it
    at once (the moment between is the only one another program could take it in)."""

    def __init__(self) -> None:
        self._holder: socket.socket | None = socket.socket()
        self._holder.bind(("127.0.0.1", 0))
        self.port: int = self._holder.getsockname()[1]

    def release(self) -> int:
        if self._holder is not None:
            self._holder.close()
            self._holder = None
        return self.port


class _Server(_Uvicorn):
    """The demo server's uvicorn: the test process keeps its own signal handlers, and a stop is heard at
    once (uvicorn's own loop notices it at its next tick: every test server's end waited up to a tenth
    of a second more)."""


@contextmanager
def serve_asgi(app: Any, path: str = "/mcp", tls: tuple[str, str] | None = None) -> Iterator[str]:
    """Serve ``app`` on 127.0.0.1 in a thread; yield its URL; stop it afterwards. With ``tls``
    (certificate file, key file) it serves HTTPS."""
    certificate, key = tls or (None, None)
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="error", lifespan="on",
                            timeout_graceful_shutdown=1, ssl_certfile=certificate, ssl_keyfile=key)
    # Bound here, on a port the system picks, and handed to the server: no moment between choosing a
    # port and binding it in which another program (another pytest-xdist worker) could take it.
    sock = config.bind_socket()
    port = sock.getsockname()[1]
    server = _Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name=f"asgi-{port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.up.wait(0.01):
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
    try:
        yield f"{'https' if tls else 'http'}://127.0.0.1:{port}{path}"
    finally:
        server.ask_to_exit()
        thread.join(5)
        sock.close()


def refused_after(port: int, asked: float) -> float:
    """Seconds from ``asked`` until the port stops accepting connections."""
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
        except OSError:
            return time.perf_counter() - asked
        time.sleep(0.002)
