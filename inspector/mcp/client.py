"""The MCP client: each public method is one operation with one deadline across its legs."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import httpx

from .cancel import CancelSignal, claim_cancel
from .channels.http import LegTransport, OutgoingMessage, Session, SessionGone, message_headers, new_http_client
from .channels.lines import LineRoutes, LineTransport
from .clock import Clock, MonotonicClock
from .deadline import OperationDeadline
from .era_opening import Discovered, answered_against_handshake, is_stateless_evidence, open_in_era, reprobe
from .eras import HANDSHAKE, STATELESS, EraMemory, RememberedEras
from .errors import HEADER_MISMATCH, ErrorKind, McpTransportError
from .legs import LegFrame
from .line_opening import WEDGED_AFTER, LineOpener, NotLegacy
from .messages import N_, Message
from .param_headers import param_headers, split_catalogue, tool_header_problem
from .processes import Handshake, OutputListener, ServerProcesses
from .reports import LogLevelRefused, NullObserver, OperationFinished, OperationObserver, OperationStarted
from .results import PingResult, ToolCallResult, ToolCatalogue, catalogue_freshness
from .secrets import Secrets
from .server import ServerEndpoint
from .server_requests import LOG_LEVELS, Root, ServerRequestHandler, declined_sentence
from .signin.challenge import Challenge
from .signin.flow import SignedIn
from .signin.model import MemoryVault, SignInVault, TokenSet
from .signin.operation import adopt_tokens, credentials_for, needs_refresh, refresh_leg, sign_in, with_tokens
from .standalone import OPEN_WAIT_S, StandaloneStream
from .stateless import new_traceparent, request_meta
from .stateless_requests import stateless_request
from .tasks import TASKS_EXTENSION, send_parting
from .tasks import call_tool as call_tool_or_task
from .wire import DEFAULT_WIRE, check_level

T = TypeVar("T")

CLIENT_NAME = "run-inspector"
CLIENT_VERSION = "0.1.0"
#: Revisions of the handshake era this client speaks; the first one is what it offers. 2025-03-26
#: (the first with Streamable HTTP) is still negotiated by many deployed servers, 2024-11-05 by
#: servers behind the older HTTP+SSE transport and by older stdio servers.
HANDSHAKE_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
#: HTTP statuses with which a server of the older HTTP+SSE transport refuses the POST of ``initialize``.
LEGACY_STATUSES = (404, 405)
MAX_PAGES = 50
#: How long a finished operation waits for a reply on the standalone stream still being delivered.
REPLY_SETTLE_S = 0.25
#: Housekeeping after an operation (cancel notice, session DELETE) never takes longer than this.
BACKGROUND_BOUND_S = 1.0


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
        self._background: set[asyncio.Task[None]] = set()
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
        self._definitions: dict[str, dict[str, dict[str, Any]]] = {}
        #: Addresses found to speak the older HTTP+SSE transport (their POST was refused with 404 or 405).
        self._legacy: set[str] = set()
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
                                             send=lambda sent: self._tool_call(op, server, name, sent, definition))
            return ToolCallResult.from_result(name, result)

        return await self._operate("tools/call", server, work, budget_s, cancel, observer, wire)

    async def list_tools(self, server: ServerEndpoint, *, budget_s: object = None,
                         cancel: CancelSignal | None = None,
                         observer: OperationObserver | None = None, wire: str | None = None) -> ToolCatalogue:
        """Handshake, then every page of ``tools/list`` under the one deadline (50 pages at most)."""

        async def work(op: _Operation) -> ToolCatalogue:
            return await self._walk_catalogue(op, server, is_work=True)

        return await self._operate("tools/list", server, work, budget_s, cancel, observer, wire)

    async def _walk_catalogue(self, op: _Operation, server: ServerEndpoint, *, is_work: bool) -> ToolCatalogue:
        """Every page of ``tools/list`` as legs of ``op``. In the stateless era over HTTP, tools
        whose ``x-mcp-header`` annotations break the rules are set apart (with the reason); the
        catalogue is kept for the headers of later calls."""
        tools: list[dict[str, Any]] = []
        cursor: str | None = None
        first: dict[str, Any] = {}
        for page in range(1, MAX_PAGES + 1):
            params: dict[str, Any] = {} if cursor is None else {"cursor": cursor}
            result = await op.request("tools/list", params, is_work=is_work)
            first = first or result
            listed = result.get("tools")
            if not isinstance(listed, list):
                raise McpTransportError.malformed(server.label, "tools/list",
                                                  Message(N_("its result has no list of tools")))
            tools.extend(tool for tool in listed if isinstance(tool, dict))
            next_cursor = result.get("nextCursor")
            if not isinstance(next_cursor, str) or not next_cursor:
                stateless = op.session.stateless
                ttl_ms, scope = catalogue_freshness(first, stateless=stateless)
                valid, excluded = split_catalogue(tools) if stateless and not server.is_command else (tools, [])
                self.keep_catalogue(server, tools)
                return ToolCatalogue(valid, page, excluded, ttl_ms=ttl_ms, cache_scope=scope)
            cursor = next_cursor
        raise McpTransportError.malformed(server.label, "tools/list",
                                          Message(N_("the catalogue did not end within {count} pages"),
                                                  {"count": MAX_PAGES}))

    async def _tool_call(self, op: _Operation, server: ServerEndpoint, name: str, params: dict[str, Any],
                         definition: dict[str, Any] | None) -> dict[str, Any]:
        """``tools/call``; over HTTP in the stateless era with the ``Mcp-Param-*`` headers its
        definition asks for, and once more with the catalogue listed anew if the server says the
        headers do not match (-32020)."""
        if not op.session.stateless or server.is_command:
            return await op.request("tools/call", params, is_work=True)
        for attempt in range(2):
            if definition is None or attempt:
                known = self._definitions.get(server.key)
                if known is None or name not in known or attempt:
                    await self._walk_catalogue(op, server, is_work=False)
                    known = self._definitions.get(server.key, {})
                definition = known.get(name)
            headers: dict[str, str] = {}
            if definition is not None:
                problem = tool_header_problem(definition)
                if problem is not None:
                    raise McpTransportError.excluded_tool(server.label, name, problem)
                headers = param_headers(definition, params.get("arguments"))
            try:
                return await op.request("tools/call", params, is_work=True, headers=headers)
            except McpTransportError as refused:
                if attempt or refused.kind is not ErrorKind.RPC_ERROR or refused.rpc_code != HEADER_MISMATCH:
                    raise
        raise AssertionError("unreachable")

    async def ping(self, server: ServerEndpoint, *, budget_s: object = None,
                   cancel: CancelSignal | None = None,
                   observer: OperationObserver | None = None) -> PingResult:
        """The handshake, then MCP's own ``ping`` request as a leg of its own: is the server
        there, what does it speak, and how long does a request take once the session stands?"""

        async def work(op: _Operation) -> PingResult:
            started = self.clock.now_ns()
            if op.session.stateless:
                # This era has no ping: server/discover is the request every server answers.
                op.adopt_discovered_result(await op.request("server/discover", {}, is_work=True))
            else:
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
        self._definitions[server.key] = {str(tool.get("name")): tool for tool in tools}

    def listed_names(self, server: ServerEndpoint) -> tuple[str, ...] | None:
        """The names of the tools this client last listed on ``server`` (``None``: never listed)."""
        known = self._definitions.get(server.key)
        return None if known is None else tuple(known)

    def known_definition(self, server: ServerEndpoint, name: str) -> dict[str, Any] | None:
        """The tool ``name`` as this client last listed it on ``server`` (``None``: never listed)."""
        return self._definitions.get(server.key, {}).get(name)

    async def drain(self, timeout: float = BACKGROUND_BOUND_S) -> None:
        """Wait (bounded) for housekeeping started after operations: cancel notices, DELETEs."""
        pending = [task for task in self._background if not task.done()]
        if pending:
            await asyncio.wait(pending, timeout=timeout)

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
        if http is None or server.transport == "sse" or server.key in self._legacy:
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
        outcome, error = "failed", None
        try:
            with cancel.bind_current_task() if cancel is not None else contextlib.nullcontext():
                try:
                    result = await self._signed_work(op, server, http, work, tokens)
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
            self._after(http, op)

    async def _signed_work(self, op: _Operation, server: ServerEndpoint, http: httpx.AsyncClient | None,
                           work: Callable[[_Operation], Awaitable[T]], tokens: TokenSet | None) -> T:
        """Open and work; with a token near its end refreshed first, and once more from the start
        after a refresh when the server refuses the token (both refreshes are legs of ``op``)."""
        if tokens is not None and http is not None and self.signin_vault is not None and needs_refresh(tokens):
            kept, tokens = tokens, await refresh_leg(op.transport.frame, http, server, self.signin_vault, tokens)
            if tokens is None and kept.expires_within(0):
                server.headers.pop("Authorization", None)  # refused, and of no use any more: ask for a sign-in
            op.transport.secrets = server.secrets()  # the new token is cut out of what the server says too
        try:
            await self._open(op, server, http)
            return await work(op)
        except McpTransportError as refused:
            if refused.kind is not ErrorKind.SIGNIN_REQUIRED or refused.http_status != 401 or http is None \
                    or self.signin_vault is None:
                raise
            if tokens is None:
                # Not looked up before (the vault was not open): a sign-in kept from before serves now.
                kept = credentials_for(server, self.signin_vault) if not server.signed_in else None
                if kept is None or "Authorization" in server.headers:
                    raise
                adopt_tokens(server, kept)
                if needs_refresh(kept) and await refresh_leg(op.transport.frame, http, server, self.signin_vault,
                                                             kept) is None and kept.expires_within(0):
                    raise
            elif tokens.refresh_token is None:
                raise
            elif await refresh_leg(op.transport.frame, http, server, self.signin_vault, tokens) is None:
                raise
            op.transport.secrets = server.secrets()
        op.speak_handshake()
        await self._open(op, server, http)
        return await work(op)

    async def _open(self, op: _Operation, server: ServerEndpoint, http: httpx.AsyncClient | None) -> None:
        """Make the operation's line ready: a session on an address, or the server's process."""
        if server.is_command:
            await self.lines.open_process(op, server)
            return
        if isinstance(op.transport, LineTransport):
            assert http is not None
            await self.lines.open_legacy(op, server, http)
            return
        try:
            await open_in_era(op, server.era)
        except McpTransportError as refused:
            if refused.method != "initialize" or refused.http_status not in LEGACY_STATUSES \
                    or refused.kind is ErrorKind.RPC_ERROR:
                raise
            # Perhaps a server of the older transport, which takes no POST at its address: ask it so.
            assert http is not None
            op.transport = LineTransport(op.transport.frame, server, observer=op.observer, clock=self.clock,
                                         handler=op.handler)
            try:
                await self.lines.open_legacy(op, server, http, tried=True)
            except NotLegacy:
                raise refused from None
            self._legacy.add(server.key)

    def _after(self, http: httpx.AsyncClient | None, op: _Operation) -> None:
        """Start the housekeeping in the background: the user never waits for it."""
        if op.routes is not None:
            op.routes.leave(op.transport)
        if http is None:
            if op.parting:  # a task's tasks/cancel on the shared line, which stays open
                self._in_background(_bounded(send_parting(op)))
            return
        transport = op.transport
        if isinstance(transport, LineTransport):
            self._in_background(_close_line(http, op.line_close, op))
            return
        self._in_background(_housekeeping(http, transport.server, op.session, transport.interrupted,
                                          transport.interrupted_because, op))

    def _in_background(self, work: Awaitable[None]) -> None:
        task = asyncio.get_running_loop().create_task(work)  # type: ignore[arg-type]
        self._background.add(task)
        task.add_done_callback(self._background.discard)


async def _bounded(work: Awaitable[None]) -> None:
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(BACKGROUND_BOUND_S):
            await work


async def _close_line(http: httpx.AsyncClient, close: Callable[[], Awaitable[None]] | None,
                      op: _Operation | None = None) -> None:
    """After an operation on the older transport: its event stream closes (the server's session ends)."""
    try:
        async with asyncio.timeout(BACKGROUND_BOUND_S):
            if op is not None and op.parting:
                await send_parting(op)
            if close is not None:
                await close()
    except TimeoutError:
        pass
    finally:
        with contextlib.suppress(Exception):
            await http.aclose()


class _Operation:
    """The legs of one operation: request ids, the session, the one-time fresh start on 404."""

    def __init__(self, client: McpClient, transport: LegTransport | LineTransport, observer: OperationObserver,
                 handler: ServerRequestHandler | None = None, stream: bool | None = None) -> None:
        self._client = client
        self.handler = handler or client.handler
        self._stream_wanted = client.standalone_stream if stream is None else stream
        #: How the legs travel; an address found to speak the older transport changes it once.
        self.transport = transport
        self.observer = observer
        self.stream: StandaloneStream | None = None
        self.server_capabilities: dict[str, Any] = {}
        self._ids = itertools.count(1)
        self.session = Session()
        self.server_info: dict[str, Any] = {}
        self._restarted = False
        #: The log level this session asks for: fixed when the operation starts (a later change of
        #: the client's level applies to the operations that start after it).
        self.log_level = client.log_level
        #: How the server is reached, as reported when the operation ends ("http", "sse" or "stdio").
        self.wire = transport.server.transport
        #: On a shared line: the routes this operation entered (left when it ends), and how the line closes.
        self.routes: LineRoutes | None = None
        self.line_close: Callable[[], Awaitable[None]] | None = None
        #: How many messages a running process had written when this operation began to use it.
        self.heard_at_start: int | None = None
        #: Requests said after the operation, in the background (a cancelled task's ``tasks/cancel``).
        self.parting: list[tuple[str, dict[str, Any]]] = []
        #: The session is not ended afterwards (a task that outlived the budget is looked up in it).
        self.keep_session = False
        #: The era the operation speaks once it is open: "handshake" or "stateless".
        self.era: str | None = None
        #: True while the era in use came from memory, not from this operation: an answer against
        #: it makes the operation probe again (once).
        self.recheck_era = False
        self._reprobed = False
        #: The W3C trace context every request of the stateless era carries (one trace per operation).
        self.traceparent = new_traceparent()

    @property
    def progress_token(self) -> str:
        return self.transport.progress_token

    @property
    def eras(self) -> EraMemory:
        return self._client.eras

    def next_id(self) -> int:
        return next(self._ids)

    def note_catalogue(self, tools: list[dict[str, Any]]) -> None:
        """The server's whole catalogue, as a leg of this operation read it: the client keeps it."""
        self._client.keep_catalogue(self.transport.server, tools)

    # -- the stateless era -------------------------------------------------------------------

    def speak_stateless(self, version: str) -> None:
        """Speak the stateless era in ``version``: no session, every request names the version."""
        self.session = Session(None, version)
        self.era = STATELESS

    def speak_handshake(self) -> None:
        self.session = Session()
        self.era = None

    def adopt_discovered(self, found: Discovered) -> None:
        """What ``server/discover`` said: the revision to speak, the server's name and capabilities."""
        self.speak_stateless(found.version)
        self.server_info = found.server_info
        self.server_capabilities = found.capabilities

    def adopt_discovered_result(self, result: dict[str, Any]) -> None:
        from .era_opening import discovered_from

        found = discovered_from(result)
        if found is not None:
            self.server_info, self.server_capabilities = found.server_info, found.capabilities

    def client_capabilities(self) -> dict[str, Any]:
        """The capabilities a request of the stateless era declares (no list-changed notices exist)."""
        capabilities = self.handler.capabilities()
        if "roots" in capabilities:
            capabilities["roots"] = {}
        capabilities["extensions"] = {TASKS_EXTENSION: {}}  # a task the server makes is followed (.tasks)
        return capabilities

    def request_meta(self, is_work: bool) -> dict[str, Any]:
        """The ``_meta`` of one request of the stateless era."""
        return request_meta(self.session.protocol_version or "", self.client_capabilities(),
                            {"name": CLIENT_NAME, "version": CLIENT_VERSION}, log_level=self.log_level,
                            traceparent=self.traceparent, progress_token=self.progress_token if is_work else None)

    def deadline_remaining(self) -> float:
        return self.transport.frame.deadline.remaining_s()

    def adopt(self, handshake: Handshake) -> None:
        """Use a running process's handshake instead of making one (a process is not a session)."""
        self.session = Session(None, handshake.protocol_version)
        self.era = STATELESS if self.session.stateless else HANDSHAKE
        self.server_info = handshake.server_info
        self.server_capabilities = handshake.capabilities

    async def handshake(self) -> None:
        label = self.transport.server.label
        self.session = Session()
        params = {
            "protocolVersion": self._client.protocol_version,
            "capabilities": self.handler.capabilities(),
            "clientInfo": {"name": CLIENT_NAME, "version": CLIENT_VERSION},
        }
        try:
            answer = await self.transport.send(OutgoingMessage("initialize", params, next(self._ids)), self.session)
        except McpTransportError as refused:
            # A server of the stateless era: remembered wrongly, or a probe given up on that the
            # server answered late (a slow start), which settled its era before initialize came.
            moved_on = self.recheck_era and answered_against_handshake(refused)
            if not (moved_on or (is_stateless_evidence(refused) and not self._reprobed)):
                raise
            self._reprobed = True
            await reprobe(self)
            return
        result = answer.result or {}
        # Known before the version is checked, so the session is ended even if we refuse it.
        self.session = Session(answer.session_id, None)
        version = result.get("protocolVersion")
        if not isinstance(version, str) or version not in self._client.protocol_versions:
            raise McpTransportError.protocol_version(label, str(version) if version is not None else "",
                                                     self._client.protocol_versions)
        info = result.get("serverInfo")
        self.server_info = info if isinstance(info, dict) else {}
        capabilities = result.get("capabilities")
        self.server_capabilities = capabilities if isinstance(capabilities, dict) else {}
        self.session = Session(answer.session_id, version)
        self.era = HANDSHAKE
        self.recheck_era = False
        try:
            await self.transport.send(OutgoingMessage("notifications/initialized", None), self.session)
        except SessionGone:
            raise McpTransportError.session_expired(label, "notifications/initialized") from None
        if self.log_level is not None and "logging" in self.server_capabilities:
            await self.ask_log_level(self.log_level)
        # The standalone GET stream is Streamable HTTP's: a line (a process, the older transport's
        # event stream) already brings everything the server sends.
        if self._stream_wanted and not isinstance(self.transport, LineTransport):
            await self.open_stream()

    async def ask_log_level(self, level: str) -> bool:
        """``logging/setLevel`` as a leg of this operation, under its deadline; False when refused.

        MCP's level is per session, so each operation's session is asked anew. A server that
        answers with a JSON-RPC error (method not found, ...) does not fail the operation: the
        refusal is reported to the observer and the operation goes on. A leg that fails in any
        other way (budget, time, network) fails the operation like every leg."""
        try:
            await self.request("logging/setLevel", {"level": level})
        except McpTransportError as exc:
            if exc.kind is not ErrorKind.RPC_ERROR:
                raise
            self.observer.log_level_refused(LogLevelRefused(level, exc))
            return False
        return True

    async def open_stream(self) -> None:
        """Open the standalone stream of this session; wait briefly until the server said yes or no."""
        await self.close_stream()
        session = self.session
        transport = self.transport
        self.stream = StandaloneStream(transport.http, transport.server,
                                       message_headers(transport.server, session, "GET"),
                                       lambda request: transport.reply_on("GET", request, session))
        self.stream.subscribe(self.observer.notification)
        await self.stream.open(min(OPEN_WAIT_S, max(transport.deadline.remaining_s(), 0.0)))

    def abort_stream(self) -> None:
        """At the end of the operation: the stream goes at once (its connection closes with the client)."""
        if self.stream is not None:
            self.stream.abort()
            self.stream = None

    async def close_stream(self) -> None:
        if self.stream is not None:
            stream, self.stream = self.stream, None
            await stream.close()

    async def request(self, method: str, params: dict[str, Any], *, is_work: bool = False,
                      headers: dict[str, str] | None = None) -> dict[str, Any]:
        """Send a request; on a first 404 for our session, start a fresh session and resend. In
        the stateless era, follow it through its rounds (:mod:`.stateless_requests`)."""
        if self.session.stateless:
            return await stateless_request(self, method, params, is_work=is_work, headers=headers)
        while True:
            leg = OutgoingMessage(method, params, next(self._ids), is_work=is_work)
            try:
                answer = await self.transport.send(leg, self.session)
                return answer.result or {}
            except SessionGone:
                if self._restarted:
                    raise McpTransportError.session_expired(self.transport.server.label, method) from None
                self._restarted = True
                await self.handshake()


#: Why a request torn down on a server that gave no session id goes on running there.
NOT_TOLD_SENTENCE = Message(N_("The server gave no session id, so it was not told to stop: a cancel notice without "
                               "a session cannot name the running request, and the server may run it to its end."))


async def _housekeeping(http: httpx.AsyncClient, server: ServerEndpoint, session: Session,
                        interrupted: OutgoingMessage | None, reason: str, op: _Operation | None = None) -> None:
    """After an operation: tell the server about a torn-down request, end the session, close."""
    headers = message_headers(server, session)
    try:
        async with asyncio.timeout(BACKGROUND_BOUND_S):
            if op is not None and op.parting:  # a task's tasks/cancel, before the session ends
                await send_parting(op, lambda message, own: http.post(server.url, json=message,
                                                                      headers={**headers, **own}))
            # Without a session the notice could not say whose request it means (every client
            # numbers its requests from 1), so it is not sent at all.
            if interrupted is not None and interrupted.request_id is not None and session.session_id:
                notice = OutgoingMessage("notifications/cancelled",
                             {"requestId": interrupted.request_id, "reason": reason})
                with contextlib.suppress(httpx.HTTPError):
                    await http.post(server.url, content=notice.body(), headers=headers)
            if session.session_id and not (op is not None and op.keep_session):
                with contextlib.suppress(httpx.HTTPError):
                    await http.delete(server.url, headers=message_headers(server, session, "DELETE"))
    except TimeoutError:
        pass
    finally:
        with contextlib.suppress(Exception):
            await http.aclose()
