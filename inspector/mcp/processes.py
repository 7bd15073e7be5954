"""The running server processes of one client: one per command server, shared by its operations.

A process is started by the first operation that needs it and kept until the client stops it
(the window when it closes or forgets the server, the command line after its command). While one
operation starts a process and makes its handshake, the others that need it wait (their wait is a
``start`` leg of their own, on their budget); a process that exited is started anew by the next
operation. What the process writes on stderr and the line's faults go to every operation on it
and to ``on_output(server key, line)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .channels.lines import LineRoutes
from .channels.stdio import ChannelError, StdioProcess
from .messages import N_, Message
from .server import ServerEndpoint
from .standalone import LINE_PROBLEM, STDERR, ServerNotification, line_note

#: ``on_output(server key, line)``: a stderr line of a server (a ``str``: its own words), or a fault of
#: its line (a :class:`Message`: ours, e.g. a stdout line that is not JSON, said in the reader's
#: language by whoever shows it), on the loop's thread.
OutputListener = Callable[[str, str | Message], None]


@dataclass
class Handshake:
    """What a process's handshake established: kept for the operations that reuse the process."""

    protocol_version: str
    server_info: dict[str, Any]
    capabilities: dict[str, Any]
    log_level: str | None = None


@dataclass
class RunningServer:
    """One command server's process, the operations on it, and its handshake once made."""

    key: str
    routes: LineRoutes = field(default_factory=LineRoutes)
    process: StdioProcess | None = None
    handshake: Handshake | None = None
    #: Set while an operation starts the process; done (result True) when the handshake stands.
    starting: asyncio.Future[bool] | None = None
    #: Operations in a row that ran out of time while the process wrote nothing.
    silent_timeouts: int = 0

    @property
    def ready(self) -> bool:
        return self.process is not None and self.process.running and self.handshake is not None


class ServerProcesses:
    """The command servers' processes, by server key."""

    def __init__(self, on_output: OutputListener | None = None,
                 on_notification: Callable[[str, ServerNotification], None] | None = None) -> None:
        self._running: dict[str, RunningServer] = {}
        self.on_output = on_output
        #: ``on_notification(server key, note)``: what a server says while none of its operations runs.
        self.on_notification = on_notification
        #: Shutdowns of processes that were dropped (their handshake did not stand), still under way.
        self._dropping: set[asyncio.Task[None]] = set()

    def entry(self, server: ServerEndpoint) -> RunningServer:
        entry = self._running.get(server.key)
        if entry is None:
            entry = self._running[server.key] = RunningServer(server.key)
        return entry

    def running(self) -> list[str]:
        """The keys of the servers whose process runs."""
        return [key for key, entry in self._running.items() if entry.process is not None and entry.process.running]

    def pid(self, key: str) -> int | None:
        entry = self._running.get(key)
        return entry.process.pid if entry is not None and entry.process is not None else None

    async def start(self, server: ServerEndpoint, entry: RunningServer) -> StdioProcess:
        """Start the server's process (any earlier one of it is shut down first)."""
        assert server.command is not None
        if entry.process is not None:
            await self._close(entry)
        routes = entry.routes
        secrets = server.secrets()

        def unclaimed(note: ServerNotification) -> None:
            if self.on_notification is not None:
                params = secrets.scrub_parsed(note.params, json.dumps(note.params)) if secrets else note.params
                with contextlib.suppress(Exception):  # a listener's fault is not the server's
                    self.on_notification(server.key, ServerNotification(note.method, params, note.via))

        routes.on_unclaimed = unclaimed

        def stderr(text: str) -> None:
            # A server may print its environment: the secret values go before anyone hears it.
            text = secrets.scrub_values(text)
            for transport in routes.operations:
                transport.notification(line_note(STDERR, text, transport.current))
            self._output(server.key, text)

        def problem(sentence: Message) -> None:
            sentence = secrets.scrub_message(sentence)
            for transport in routes.operations:
                transport.line_problem(sentence)
            self._output(server.key, sentence)

        process = await StdioProcess.start(server.command, on_message=routes.dispatch, on_stderr=stderr,
                                           on_problem=problem)
        if self._running.get(server.key) is not entry:
            # Stopped (the client closed) while the process was being started: nobody would stop it later.
            await self._close_process(process)
            raise ChannelError(Message(N_("the server was stopped while its process was starting")))
        entry.process = routes.line = process
        entry.handshake = None
        return process

    def _output(self, key: str, text: str | Message) -> None:
        if self.on_output is not None:
            with contextlib.suppress(Exception):  # a listener's fault is not the server's
                self.on_output(key, text)

    async def stop(self, key: str) -> None:
        """Shut one server's process down (the spec's order, bounded); its operations fail."""
        entry = self._running.pop(key, None)
        if entry is not None:
            await self._close(entry)

    async def stop_all(self) -> None:
        """Shut every process down at once (each bounded, in parallel), and wait for the dropped
        ones still shutting down: the owner may end its event loop next, and a shutdown cut
        short there would leave a process behind."""
        entries, self._running = list(self._running.values()), {}
        dropping = [task for task in self._dropping if not task.done()]
        await asyncio.gather(*(self._close(entry) for entry in entries), *dropping, return_exceptions=True)

    def drop(self, process: StdioProcess) -> None:
        """Shut down, in the background, a process of no use (its handshake did not stand);
        :meth:`stop_all` waits for it."""
        task = asyncio.get_running_loop().create_task(self._close_process(process))
        self._dropping.add(task)
        task.add_done_callback(self._dropping.discard)

    async def _close(self, entry: RunningServer) -> None:
        process, entry.process, entry.handshake = entry.process, None, None
        if process is not None:
            await self._close_process(process)

    @staticmethod
    async def _close_process(process: StdioProcess) -> None:
        with contextlib.suppress(ChannelError, ProcessLookupError, OSError):
            await process.close()


__all__ = ["LINE_PROBLEM", "Handshake", "OutputListener", "RunningServer", "ServerProcesses"]
