"""The recording proxy as a server: it listens (on 127.0.0.1 unless told otherwise) in a thread of its own."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import uvicorn

from inspector.i18n import N_
from inspector.i18n.messages import Message
from inspector.i18n.os_reasons import os_reason
from inspector.mcp import public_url
from inspector.mcp.url_parts import readable_parts
from inspector.runs.loopback import is_loopback

from .book import OperationBook, ProxiedOperation
from .connections import ConnectionBounds
from .forward import ForwardingApp
from .scrub import scrubbed
from .steps import ProxiedRun, run_of, run_title
from .writer import RunWriter

START_TIMEOUT_S = 10.0
STOP_TIMEOUT_S = 5.0
#: The path the agent is given (any path reaches the server's address).
AGENT_PATH = "/mcp"


class ProxyAddressError(RuntimeError):
    """The proxy cannot listen where it was asked to, or the server's address is not one; the message says why."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


class _Uvicorn(uvicorn.Server):
    def install_signal_handlers(self) -> None:
        pass  # the process that starts the proxy keeps Ctrl-C


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (or ``PORT``) as a pair; :class:`ProxyAddressError` when it is neither."""
    host, _, port = text.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ProxyAddressError(Message(N_("The address to listen on must be HOST:PORT (e.g. 127.0.0.1:8808), "
                                           "got {text}."), {"text": text}))
    return host, int(port)


class ProxyServer:
    """Forwards an agent's MCP traffic to ``target`` and records each operation in ``db_path``.

    ``start()`` returns the address the agent should use once the proxy accepts connections;
    ``stop()`` ends it (runs still waiting are recorded). ``recorded(run_id, run)`` is called on
    the writer's thread after each run is stored; ``problem(message)`` when one could not be.
    """

    def __init__(self, target: str, db_path: Path, *, host: str = "127.0.0.1", port: int = 0,
                 budget_s: float | None = None, server_label: str | None = None, verify: bool = True,
                 recorded: Callable[[int, ProxiedRun], None] | None = None,
                 problem: Callable[[Message], None] | None = None) -> None:
        parts = readable_parts(target)  # an unclosed "[", a port that is no number in range: no scheme, no host
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ProxyAddressError(Message(N_("The server's address must be an http:// or https:// URL, got {url}."),
                                            {"url": target}))
        self.target = target
        #: What runs and the server's health name: the address without user info and query (credentials),
        #: as Run Inspector's own runs name a server.
        self.server_url = public_url(target)
        self.host, self.port = host, port
        self.budget_s = budget_s
        self.server_label = server_label or self.server_url
        self._problem = problem
        self._writer = RunWriter(db_path, written=recorded, problem=problem)
        self._book = OperationBook(self._finished, self._started)
        self._app = ForwardingApp(target, self._book, budget_s=budget_s, verify=verify, local_only=is_loopback(host))
        #: How many agents' connections are held, and how long a request's head may take (see :mod:`.connections`).
        self.connections = ConnectionBounds()
        self._server: _Uvicorn | None = None
        self._thread: threading.Thread | None = None
        self.url: str | None = None

    @property
    def recorded_count(self) -> int:
        return self._writer.count

    def _started(self, operation: ProxiedOperation) -> None:
        self._writer.begin(operation.number, run_title(operation), self.server_url, operation.started_at)

    def _finished(self, operation: ProxiedOperation) -> None:
        try:
            run = scrubbed(run_of(operation, self.server_url, self.server_label), operation)
        except (ValueError, TypeError, KeyError) as exc:  # a fault of ours: said, and the forwarding goes on
            if self._problem is not None:
                self._problem(Message(N_("The proxy could not record {title} ({reason})."),
                                      {"title": run_title(operation), "reason": exc}))
            return
        self._writer.put(run)

    def start(self) -> str:
        """Listen; return the agent's address (``http://HOST:PORT/mcp``)."""
        sock = _bind(self.host, self.port)
        self._writer.start()
        port = sock.getsockname()[1]
        config = uvicorn.Config(self._app, log_level="critical", lifespan="on", server_header=False,
                                date_header=False, timeout_graceful_shutdown=1, ws="none",
                                http=self.connections.protocol())
        server = _Uvicorn(config)
        failure: list[BaseException] = []

        def serve() -> None:
            try:
                server.run(sockets=[sock])
            except BaseException as exc:  # noqa: BLE001 - reported to start()
                failure.append(exc)
            finally:
                sock.close()
                self._book.close()

        thread = threading.Thread(target=serve, name=f"recording-proxy-{port}", daemon=True)
        self._server, self._thread = server, thread
        thread.start()
        while not server.started:
            if not thread.is_alive():
                self.stop()
                raise ProxyAddressError(Message(N_("The proxy did not start on port {port}: {reason}."),
                                                {"port": port, "reason": failure[0] if failure else "no reason given"}))
            thread.join(0.02)
        shown = f"[{self.host}]" if ":" in self.host else self.host
        self.url = f"http://{shown}:{port}{AGENT_PATH}"
        self.port = port
        return self.url

    def stop(self) -> None:
        """Stop listening (open streams are closed), record what waits, close the database. Safe twice."""
        server, thread = self._server, self._thread
        self._server, self._thread = None, None
        if server is not None and thread is not None:
            server.should_exit = True
            thread.join(STOP_TIMEOUT_S)
            if thread.is_alive():
                server.force_exit = True
                thread.join(STOP_TIMEOUT_S)
        self._writer.stop()

    def __enter__(self) -> ProxyServer:
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named, so that asyncio turns Nagle's algorithm off on the accepted sockets (see
    # inspector/demo/runner.py: otherwise each answer after a connection's first waits ~40 ms).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise ProxyAddressError(Message(N_("The proxy cannot listen on {host}:{port} ({reason}); choose another "
                                           "port, or 0 for any free one."),
                                        {"host": host, "port": port, "reason": os_reason(exc)})) from None
    sock.listen(128)
    return sock


__all__ = ["AGENT_PATH", "ProxyAddressError", "ProxyServer", "is_loopback", "parse_listen"]
