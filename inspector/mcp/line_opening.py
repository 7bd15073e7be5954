"""Making an operation's line ready: a session on an address, a command server's process or the older
transport's stream (also for an address whose POST is refused as that transport's servers refuse it).

A command server's process is started by the first operation that needs it (a ``start`` leg, then
the handshake, whose answer is kept) and reused by the later ones, which wait in a ``start`` leg
of their own while another operation starts it. The older HTTP+SSE transport gets a ``connect``
leg (its event stream) and a handshake per operation. An operation that runs out of time on a
process that wrote nothing meanwhile is counted: a process silent through
:data:`WEDGED_AFTER` of them in a row is taken for wedged and stopped.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import httpx

from .channels.lines import LineRoutes, LineTransport
from .channels.sse_legacy import LegacySseChannel, SignInRefused
from .channels.stdio import ChannelError
from .era_opening import keep_handshake, open_in_era, reprobed_after_no_stream
from .eras import AUTO
from .errors import ErrorKind, McpTransportError
from .legs import LegWire
from .processes import Handshake, RunningServer, ServerProcesses
from .refusal_words import NO_SERVER_AT_ADDRESS
from .server import ServerEndpoint

if TYPE_CHECKING:
    from .client import _Operation

#: After this many operations in a row that ran out of time on a process that wrote nothing meanwhile,
#: the process is taken for wedged: it is stopped, and the next operation starts it anew.
WEDGED_AFTER = 3
#: HTTP statuses with which a server of the older HTTP+SSE transport refuses the POST of ``initialize``.
LEGACY_STATUSES = (404, 405)


class NotLegacy(Exception):  # noqa: N818 - a finding, not an error
    """An address refused the POST and is no server of the older transport either."""


class LineOpener:
    """Opens the lines of operations; the processes it starts are ``processes``'."""

    def __init__(self, processes: ServerProcesses) -> None:
        self.processes = processes
        #: Addresses found to speak the older HTTP+SSE transport (their POST was refused with 404 or 405).
        self.legacy: set[str] = set()

    async def open(self, op: _Operation, server: ServerEndpoint, http: httpx.AsyncClient | None) -> None:
        """Make the operation's line ready: a session on an address, or the server's process."""
        if server.is_command:
            await self.open_process(op, server)
            return
        if isinstance(op.transport, LineTransport):
            assert http is not None
            await self.open_legacy(op, server, http)
            return
        try:
            await open_in_era(op, server.era)
        except McpTransportError as refused:
            if refused.method != "initialize" or refused.http_status not in LEGACY_STATUSES \
                    or refused.kind is ErrorKind.RPC_ERROR:
                raise
            # Perhaps a server of the older transport, which takes no POST at its address: ask it so.
            assert http is not None
            posted = op.transport
            frame = posted.frame
            op.transport = LineTransport(frame, server, observer=op.observer, clock=frame.clock, handler=op.handler)
            try:
                await self.open_legacy(op, server, http, tried=True)
            except NotLegacy:
                line, op.transport = op.transport, posted
                if await reprobed_after_no_stream(op):
                    return
                op.transport = line
                refused.add_sentence(NO_SERVER_AT_ADDRESS)
                raise refused from None
            finally:
                if server.era == AUTO:
                    keep_handshake(op)  # a server of the older transport speaks the handshake era
            self.legacy.add(server.key)

    async def open_legacy(self, op: _Operation, server: ServerEndpoint, http: httpx.AsyncClient,
                           tried: bool = False) -> None:
        """The older HTTP+SSE transport: open the event stream (a ``connect`` leg), then the handshake."""
        transport = op.transport
        assert isinstance(transport, LineTransport)
        routes = LineRoutes()

        async def connect(wire: LegWire) -> LegacySseChannel:
            try:
                return await LegacySseChannel.open(http, server, wait_s=max(op.deadline_remaining(), 0.0),
                                                   on_message=routes.dispatch, on_problem=transport.line_problem)
            except SignInRefused as refused:
                raise refused.error from None
            except ChannelError as error:
                if tried:
                    raise NotLegacy() from None
                raise McpTransportError.no_event_stream(server.label, error.sentence) from None

        channel = await transport.frame.run(None, "connect", connect)
        op.wire = "sse"  # the event stream stands: whatever the address was taken for, this is its transport
        op.line_close = channel.close
        transport.line = routes.line = channel
        routes.enter(transport)
        op.routes = routes
        await op.handshake()

    async def open_process(self, op: _Operation, server: ServerEndpoint) -> None:
        """The server's process: started (a ``start`` leg, then the handshake) unless it runs."""
        transport = op.transport
        assert isinstance(transport, LineTransport)
        entry = self.processes.entry(server)
        for _attempt in range(2):
            if entry.ready:
                break
            if entry.starting is not None and not entry.starting.done():
                waited = entry.starting  # another operation starts it: wait for it, on our budget

                async def wait(wire: LegWire, waited: asyncio.Future[bool] = waited) -> bool:
                    return await asyncio.shield(waited)

                await transport.frame.run(None, "start", wait)
                continue
            await self._start_process(op, server, entry)
            return
        assert entry.process is not None and entry.handshake is not None
        op.heard_at_start = entry.process.heard
        transport.line = entry.process
        entry.routes.enter(transport)
        op.routes = entry.routes
        op.adopt(entry.handshake)
        level = op.log_level
        if level is not None and level != entry.handshake.log_level and "logging" in op.server_capabilities \
                and not op.session.stateless:
            if await op.ask_log_level(level):
                entry.handshake.log_level = level

    def wedged(self, server: ServerEndpoint, op: _Operation, error: McpTransportError) -> bool:
        """Count an operation that ran out of time on a silent process; stop the process at the limit.

        One slow call never costs the process (other operations may be using it); a process that
        answers nothing to operation after operation is of no use to any of them."""
        entry = self.processes.entry(server)
        process = entry.process
        if process is None or op.heard_at_start is None:
            return False
        if error.kind is not ErrorKind.TIMED_OUT or process.heard != op.heard_at_start:
            entry.silent_timeouts = 0
            return False
        entry.silent_timeouts += 1
        if entry.silent_timeouts < WEDGED_AFTER:
            return False
        entry.silent_timeouts = 0
        entry.process = None
        self.processes.drop(process)
        return True

    async def _start_process(self, op: _Operation, server: ServerEndpoint, entry: RunningServer) -> None:
        transport = op.transport
        assert isinstance(transport, LineTransport)
        started = entry.starting = asyncio.get_running_loop().create_future()
        try:
            async def start(wire: LegWire) -> None:
                try:
                    await self.processes.start(server, entry)
                except ChannelError as error:
                    raise McpTransportError.not_started(server.label, error.sentence) from None

            await transport.frame.run(None, "start", start)
            transport.line = entry.process
            entry.routes.enter(transport)
            op.routes = entry.routes
            op.program_starting = True  # a probe's time is then no request's (operation.adopt_discovered)
            await open_in_era(op, server.era)
            entry.handshake = Handshake(op.session.protocol_version or "", op.server_info, op.server_capabilities,
                                        op.log_level if "logging" in op.server_capabilities else None)
        except BaseException:
            # A process whose handshake did not stand is of no use: it goes (in the background,
            # and close() waits for it).
            process, entry.process = entry.process, None
            if process is not None:
                self.processes.drop(process)
            raise
        finally:
            if not started.done():
                started.set_result(entry.handshake is not None)


__all__ = ["WEDGED_AFTER", "LineOpener", "NotLegacy"]
