"""One operation's legs on its server: request ids, the session (a handshake, or the stateless
era's revision named in every request), the one-time fresh start on 404, the log level it asks for
and the standalone stream it opens. :class:`~.client.McpClient` makes one per operation.
"""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from .channels.http import LegTransport, SessionGone
from .channels.http_requests import message_headers
from .channels.leg_messages import OutgoingMessage, Session
from .channels.lines import LineRoutes, LineTransport
from .era_opening import Discovered, answered_against_handshake, is_stateless_evidence, reprobe
from .eras import HANDSHAKE, STATELESS, EraMemory
from .errors import ErrorKind, McpTransportError
from .processes import Handshake
from .reports import LogLevelRefused, OperationObserver
from .server_requests import ServerRequestHandler
from .standalone import OPEN_WAIT_S, StandaloneStream
from .stateless import new_traceparent, request_meta
from .stateless_requests import stateless_request
from .tasks import TASKS_EXTENSION

if TYPE_CHECKING:
    from .client import McpClient

CLIENT_NAME = "run-inspector"
CLIENT_VERSION = "0.1.0"


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
        #: How long this operation's ``server/discover`` took (ms), once it answered (a probe's
        #: answer counts): later legs reuse what it said instead of asking again.
        self.discover_ms: float | None = None
        #: True when this operation started the server's program and no probe has answered yet: the probe waits
        #: for the program to start (a Python server: a second and more), so its time is no request's.
        self.program_starting = False
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
        # A probe that waited for the program's start: its answer stands, its time is not the ping's (asked again).
        self.discover_ms = None if self.program_starting else found.took_ms
        self.program_starting = False

    async def discover(self, *, timed: bool = False) -> float | None:
        """``server/discover`` in the stateless era, once per operation (a leg of its work): its
        answer adopted; how long it took (ms). Asked already (the probe): not asked again. With the
        era from memory it is the probe that checks it; ``None``: the server speaks the handshake era.
        ``timed`` (a ping): its time is a request's of the running program, so a program this operation
        started (the stateless era given: no probe waited for its start) is asked once before."""
        from .era_opening import discovered_from

        if self.discover_ms is None and self.recheck_era:
            await reprobe(self)
        if not self.session.stateless:
            return None
        if self.discover_ms is None:
            for _ in range(2 if timed and self.program_starting else 1):
                clock = self._client.clock
                started = clock.now_ns()
                found = discovered_from(await self.request("server/discover", {}, is_work=True))
                if found is not None:
                    self.server_info, self.server_capabilities = found.server_info, found.capabilities
                self.discover_ms = (clock.now_ns() - started) / 1e6
            self.program_starting = False
        return self.discover_ms

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
