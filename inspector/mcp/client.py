"""The MCP client: each public method is one operation with one deadline across its legs."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import httpx

from .cancel import CancelSignal, claim_cancel
from .catalogues import MAX_PAGES as MAX_PAGES
from .catalogues import ToolCatalogues
from .channels.http import LegTransport
from .channels.http_client import new_http_client
from .channels.lines import LineTransport
from .clock import Clock, MonotonicClock
from .deadline import OperationDeadline
from .eras import EraMemory, RememberedEras
from .errors import McpTransportError
from .housekeeping import BACKGROUND_BOUND_S, Housekeeping
from .legs import LegFrame
from .line_opening import WEDGED_AFTER, LineOpener
from .messages import N_, Message
from .operation import CLIENT_NAME as CLIENT_NAME
from .operation import CLIENT_VERSION as CLIENT_VERSION
from .operation import _Operation
from .processes import OutputListener, ServerProcesses
from .reports import NullObserver, OperationFinished, OperationObserver, OperationStarted
from .results import PingResult, ToolCallResult, ToolCatalogue
from .secrets import Secrets
from .server import ServerEndpoint
from .server_requests import LOG_LEVELS, Root, ServerRequestHandler, declined_sentence
from .signin.challenge import Challenge
from .signin.flow import SignedIn
from .signin.model import MemoryVault, SignInVault, TokenSet
from .signin.operation import credentials_for, sign_in, signed_work, with_tokens
from .tasks import call_tool as call_tool_or_task
from .wire import DEFAULT_WIRE, check_level

T = TypeVar("T")

#: Revisions of the handshake era this client speaks; the first one is what it offers. 2025-03-26
#: (the first with Streamable HTTP) is still negotiated by many deployed servers, 2024-11-05 by
#: servers behind the older HTTP+SSE transport and by older stdio servers.
HANDSHAKE_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
#: How long a finished operation waits for a reply on the standalone stream still being delivered.
REPLY_SETTLE_S = 0.25


class McpClient:
    """Makes MCP operations on servers at an address (Streamable HTTP, or the older HTTP+SSE
    transport) or started as a command (stdio).

    Every call opens its own deadline; on an address also its own HTTP connection and MCP
    session, so one client may serve many operations and servers at once. A command server's
    process is started by the first operation that needs it and shared by the later ones until
    :meth:`stop_server` or :meth:`close`.
    """

    def __init__(self, *, clock: Clock | None = None, default_budget_s: object = None,
                 protocol_versions: tuple[str, ...] = HANDSHAKE_VERSIONS,
                 http_factory: Callable[[], httpx.AsyncClient] = new_http_client,
                 handler: ServerRequestHandler | None = None, standalone_stream: bool = False,
                 log_level: str | None = None,
                 roots_for: Callable[[str], tuple[Root, ...] | None] | None = None,
                 server_output: OutputListener | None = None, eras: EraMemory | None = None,
                 signin_vault: SignInVault | None = None, wire: str = DEFAULT_WIRE,
                 wire_patterns: Callable[[str], str] | None = None) -> None:
        self.clock = clock or MonotonicClock()
        #: How much of each leg's exchange an operation keeps (:data:`.wire.WIRE_LEVELS`), unless
        #: the operation is told otherwise; ``wire_patterns`` (the layer above's rules, e.g.
        #: ``inspector.traces.redact.redact_text``) cut tokens this layer was never given out of it.
        self.wire = check_level(wire)
        self.wire_patterns = wire_patterns
        self.default_budget_s = default_budget_s
        self.protocol_versions = protocol_versions
        self._http_factory = http_factory
        #: What ended operations leave to do (cancel notices, DELETEs), in the background.
        self.housekeeping = Housekeeping()
        #: Who answers the server's requests (questions, sampling, roots); declares the capabilities.
        self.handler = handler or ServerRequestHandler()
        #: Open the standalone GET stream for each operation (log messages, list changes, requests).
        self.standalone_stream = standalone_stream
        #: Ask the server for log messages of this level and above (``logging/setLevel``).
        if log_level is not None and log_level not in LOG_LEVELS:
            raise ValueError("The log level must be one of {levels}.".format(levels=", ".join(LOG_LEVELS)))
        self.log_level = log_level
        #: The roots configured for a server (by its URL without credentials); replaces the handler's.
        self.roots_for = roots_for
        #: The command servers' running processes; ``server_output(key, line)`` hears their stderr.
        #: Makes an operation's shared line ready: a command's process, the older transport's stream.
        self.lines = LineOpener(ServerProcesses(server_output))
        #: What ``auto`` found each server to speak (the store keeps it between sessions).
        self.eras: EraMemory = eras if eras is not None else RememberedEras()
        #: The tools each server last listed, by name: their ``x-mcp-header`` annotations make the
        #: headers of a ``tools/call`` in the stateless era.
        self.catalogues = ToolCatalogues()
        #: Where sign-in tokens are kept (``None``: requests carry only the configured headers).
        self.signin_vault = signin_vault

    @property
    def processes(self) -> ServerProcesses:
        """The command servers' running processes (several clients may share one set)."""
        return self.lines.processes

    @processes.setter
    def processes(self, processes: ServerProcesses) -> None:
        self.lines.processes = processes

    @property
    def protocol_version(self) -> str:
        """The revision offered in ``initialize``."""
        return self.protocol_versions[0]

    # -- public operations ---------------------------------------------------------------

    async def call_tool(self, server: ServerEndpoint, name: str, arguments: dict[str, Any] | None = None,
                        *, budget_s: object = None, cancel: CancelSignal | None = None,
                        observer: OperationObserver | None = None,
                        definition: dict[str, Any] | None = None, task: bool | None = None,
                        wire: str | None = None) -> ToolCallResult:
        """Handshake, then ``tools/call``. A tool reporting ``isError`` is a result, not an error.

        ``definition`` is the tool as its catalogue listed it, when the caller knows it: over HTTP in
        the stateless era its annotated arguments are repeated in ``Mcp-Param-*`` headers (without
        it, the client uses the catalogue it last listed, or lists it first, as legs of this call).
        It and ``task`` (the caller's wish) decide whether the call runs as a task, followed to its
        end as legs of this operation (see :mod:`.tasks`)."""

        async def work(op: _Operation) -> ToolCallResult:
            params = {"name": name, "arguments": arguments or {},
                      "_meta": {"progressToken": op.progress_token}}
            result = await call_tool_or_task(op, params, tool=definition, task=task,
                                             send=lambda sent: self.catalogues.call(op, server, name, sent, definition))
            return ToolCallResult.from_result(name, result)

        return await self._operate("tools/call", server, work, budget_s, cancel, observer, wire)

    async def list_tools(self, server: ServerEndpoint, *, budget_s: object = None,
                         cancel: CancelSignal | None = None,
                         observer: OperationObserver | None = None, wire: str | None = None) -> ToolCatalogue:
        """Handshake, then every page of ``tools/list`` under the one deadline (50 pages at most)."""

        async def work(op: _Operation) -> ToolCatalogue:
            return await self.catalogues.walk(op, server, is_work=True)

        return await self._operate("tools/list", server, work, budget_s, cancel, observer, wire)

    async def ping(self, server: ServerEndpoint, *, budget_s: object = None,
                   cancel: CancelSignal | None = None,
                   observer: OperationObserver | None = None) -> PingResult:
        """The handshake, then MCP's own ``ping`` request as a leg of its own: is the server
        there, what does it speak, and how long does a request take once the session stands?"""

        async def work(op: _Operation) -> PingResult:
            # The stateless era has no ping: server/discover is the request every server answers (the
            # probe's, when this operation probed: asked once, its time is the ping's).
            latency_ms = await op.discover(timed=True) if op.session.stateless else None
            if latency_ms is None:
                started = self.clock.now_ns()
                await op.request("ping", {}, is_work=True)
                latency_ms = (self.clock.now_ns() - started) / 1e6
            info = op.server_info
            name = info.get("name") if isinstance(info.get("name"), str) else None
            version = info.get("version") if isinstance(info.get("version"), str) else None
            return PingResult(op.session.protocol_version or "", name, version, round(latency_ms, 2),
                              op.session.stateless)

        return await self._operate("ping", server, work, budget_s, cancel, observer)

    async def sign_in(self, server: ServerEndpoint, *, challenge: Challenge | None = None,
                      previous_scope: str | None = None, budget_s: object = None,
                      cancel: CancelSignal | None = None, observer: OperationObserver | None = None,
                      browser: Callable[[str], Awaitable[bool]] | None = None) -> SignedIn:
        """Sign in to ``server`` (OAuth) as an operation of its own (see :mod:`.signin.operation`);
        later operations on it carry the token. ``challenge`` is what the server's refusal said."""
        if self.signin_vault is None:
            self.signin_vault = MemoryVault()
        http = self._http_factory()
        try:
            return await sign_in(server, vault=self.signin_vault, http=http, clock=self.clock, challenge=challenge,
                                 previous_scope=previous_scope, budget_s=budget_s, cancel=cancel,
                                 observer=observer, browser=browser)
        finally:
            await http.aclose()

    def signed_in(self, server: ServerEndpoint) -> TokenSet | None:
        """The tokens kept for ``server``, if it was signed in to."""
        return credentials_for(server, self.signin_vault)

    def keep_catalogue(self, server: ServerEndpoint, tools: list[dict[str, Any]]) -> None:
        """Keep ``server``'s catalogue as last listed (the stateless era's headers and
        :meth:`listed_names` read it)."""
        self.catalogues.keep(server, tools)

    def listed_names(self, server: ServerEndpoint) -> tuple[str, ...] | None:
        """The names of the tools this client last listed on ``server`` (``None``: never listed)."""
        return self.catalogues.names(server)

    def known_definition(self, server: ServerEndpoint, name: str) -> dict[str, Any] | None:
        """The tool ``name`` as this client last listed it on ``server`` (``None``: never listed)."""
        return self.catalogues.definition(server, name)

    async def drain(self, timeout: float = BACKGROUND_BOUND_S) -> None:
        """Wait (bounded) for housekeeping started after operations: cancel notices, DELETEs."""
        await self.housekeeping.drain(timeout)

    async def stop_server(self, key: str) -> None:
        """Shut the process of the command server ``key`` down, if it runs (bounded)."""
        await self.processes.stop(key)

    async def close(self, drain_s: float = BACKGROUND_BOUND_S) -> None:
        """Shut every server process down (bounded, in the spec's order) and finish housekeeping
        (waited for at most ``drain_s``)."""
        await self.processes.stop_all()
        await self.drain(drain_s)

    # -- the operation frame -------------------------------------------------------------

    async def _operate(self, operation: str, server: ServerEndpoint,
                       work: Callable[[_Operation], Awaitable[T]], budget_s: object,
                       cancel: CancelSignal | None, observer: OperationObserver | None,
                       wire: str | None = None) -> T:
        observer = observer or NullObserver()
        # A vault not opened yet (the command line's) is opened only when a server asks for a sign-in.
        tokens = credentials_for(server, self.signin_vault) if getattr(self.signin_vault, "opened", True) else None
        server = with_tokens(server, tokens)
        deadline = OperationDeadline(self.default_budget_s if budget_s is None else budget_s, self.clock)
        observer.operation_started(OperationStarted(operation, server.label, deadline.budget_s))
        handler = self.handler.for_operation(server.key)
        if self.roots_for is not None:
            handler = dataclasses.replace(handler, roots=self.roots_for(server.key))
        http = None if server.is_command else self._http_factory()
        frame = LegFrame(server.label, deadline=deadline, observer=observer, clock=self.clock, cancel=cancel)
        if http is None or server.transport == "sse" or server.key in self.lines.legacy:
            transport: LegTransport | LineTransport = LineTransport(frame, server, observer=observer,
                                                                    clock=self.clock, handler=handler)
        else:
            transport = LegTransport(http, server, frame=frame, handler=handler)
        # Every header the server was given (configured, --header, a sign-in's) is the user's: its value
        # is kept out of the exchanges, in its header and wherever the server repeats it.
        frame.keep_wire(check_level(wire) if wire is not None else self.wire,
                        Secrets(server.headers.values(), patterns=self.wire_patterns).joined(transport.secrets),
                        server.secret_headers | frozenset(server.headers))
        op = _Operation(self, transport, observer, handler, self.standalone_stream and http is not None)

        async def attempt() -> T:
            await self.lines.open(op, server, http)
            return await work(op)

        outcome, error = "failed", None
        try:
            with cancel.bind_current_task() if cancel is not None else contextlib.nullcontext():
                try:
                    result = await signed_work(op, server, http, tokens, lambda: self.signin_vault, attempt)
                except asyncio.CancelledError:
                    # A cancel that landed outside a leg (between legs): still ours to report.
                    if not claim_cancel(cancel):
                        raise
                    raise McpTransportError.cancelled(server.label, operation, in_flight=frame.work_sent) from None
            outcome = "ok"
            return result
        except McpTransportError as exc:
            transport = op.transport
            exc.scrub(transport.secrets)  # before any observer, store or screen sees it
            error = exc
            outcome = "cancelled" if exc.is_cancellation else "failed"
            if transport.declined and not exc.is_cancellation:
                # The failure may be the server waiting on a request we declined: say so.
                exc.add_sentence(declined_sentence(transport.declined))
            if isinstance(transport, LineTransport) and transport.problems and not exc.is_cancellation:
                exc.add_sentence(Message(N_("Seen on the way: {problem}."),
                                         {"problem": transport.secrets.scrub_message(transport.problems[0])}))
            if frame.interrupted is not None and isinstance(transport, LegTransport) and not op.session.session_id \
                    and not op.session.stateless:
                exc.add_sentence(NOT_TOLD_SENTENCE)
            if server.is_command and self.lines.wedged(server, op, exc):
                exc.add_sentence(Message(N_("Its process wrote nothing during the last {count} operations that ran "
                                            "out of time, so it was stopped; the next operation starts it anew."),
                                         {"count": WEDGED_AFTER}))
            raise
        finally:
            transport = op.transport
            told = None
            if frame.interrupted is not None:
                # A shared line tells the server at once; HTTP needs the session to name the request,
                # except in the stateless era, where closing the request's stream is how it is told.
                told = (True if isinstance(transport, LineTransport) or op.session.stateless
                        else bool(op.session.session_id))
            if op.stream is not None and outcome == "ok":
                await op.stream.settle(REPLY_SETTLE_S)
            op.abort_stream()
            observer.operation_finished(OperationFinished(
                operation, server.label, deadline.budget_s, deadline.elapsed_s() * 1000, outcome, error, told,
                op.wire, op.session.protocol_version, op.era))
            self.housekeeping.after(http, op)


#: Why a request torn down on a server that gave no session id goes on running there.
NOT_TOLD_SENTENCE = Message(N_("The server gave no session id, so it was not told to stop: a cancel notice without "
                               "a session cannot name the running request, and the server may run it to its end."))
