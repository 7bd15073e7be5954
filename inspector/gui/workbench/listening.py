"""The window's listening session: one :class:`ServerListener` for the selected server.

Why the selected server and not every configured one: the log view and the catalogue show the
server the user is looking at, and a session per configured server would hold a connection and
a session open on every server in the list (some count sessions, some are far away) for news
nobody is shown. Selecting another server stops the old listener (its session is ended with
``DELETE``) and starts one for the new server; editing the server restarts it with the new
settings; removing it or closing the window stops it.

The listener runs on the operations engine's worker loop. Its state and list changes cross to
the GUI thread through queued signals; the lines for the Server log (log messages, the requests
it answered, a refused log level) go, where they arrive, into the engine's log feed
(:attr:`OperationsEngine.log`), which bounds them and hands them on in paced batches: a server
flooding its stream costs one queued signal per batch, not one per line.
"""

from __future__ import annotations

from datetime import datetime, timezone

from PySide6.QtCore import QObject, Qt, Signal

from inspector.i18n.entry_names import shown_label
from inspector.mcp import LogLevelRefused, ServerEndpoint, ServerRequestSeen, public_url
from inspector.mcp.listen_stateless import speaks_stateless
from inspector.mcp.listening import ListenerState, ListenerStatus, ServerListener
from inspector.mcp.server_requests import Root
from inspector.mcp.standalone import ServerNotification
from inspector.mcp.stream_limits import RequestsDropped

from .engine import OperationsEngine
from .log_entry import LogEntry, message_entry
from .signin_engine import signed_in_copy
from .subscriptions import ResourceSubscriptions, listened

__all__ = ["LogEntry", "WindowListener"]


class _Carrier(QObject):
    status = Signal(object, object)  # (listener id, ListenerStatus)
    tools_changed = Signal(object)  # (listener id)


class WindowListener(QObject):
    """Holds the listening session of (at most) one server and reports what it hears."""

    #: The listener's state changed: (server label, :class:`ListenerStatus`).
    status_changed = Signal(str, object)
    #: The server said its tools changed (its URL without credentials).
    tools_changed = Signal(str)

    def __init__(self, engine: OperationsEngine) -> None:
        super().__init__()
        self._engine = engine
        self._listener: ServerListener | None = None
        #: The server listened to, as configured (the session gets a copy carrying its sign-in).
        self._plain: ServerEndpoint | None = None
        self._number = 0
        self.url: str | None = None
        self.label: str = ""
        self.status: ListenerStatus | None = None
        self.log_level: str | None = None
        self._carrier = _Carrier()
        queued = Qt.ConnectionType.QueuedConnection
        self._carrier.status.connect(self._on_status, queued)
        self._carrier.tools_changed.connect(self._on_tools_changed, queued)
        #: The resources the session is subscribed to; the engine makes their operations on it.
        self.resources = ResourceSubscriptions(engine)
        engine.subscriptions = self.resources
        # Whether Subscribe may be offered follows the session (its capabilities, its stream).
        self.status_changed.connect(lambda _label, _status: self.resources.changed.emit())
        # An operation may find the server's era (auto): the listening session follows it.
        engine.submitted.connect(lambda task: task.finished.connect(
            lambda outcome, url=task.server_url: self._era_found(url, outcome)))

    # -- asked by the window ---------------------------------------------------------------------

    def listen(self, server: ServerEndpoint, roots: tuple[Root, ...] | None) -> None:
        """Listen to ``server`` (stopping whatever listened before)."""
        self.stop(keep_subscriptions=True)
        self._number += 1
        number = self._number
        carrier, label = self._carrier, shown_label(server)
        self._plain = server
        listener = ServerListener(
            signed_in_copy(self._engine.signins, server), roots=roots, log_level=self.log_level,
            on_status=lambda status: carrier.status.emit(number, status),
            on_notification=lambda note: self._heard(number, label, note),
            on_request=lambda seen: self._requested(number, label, seen),
            on_log_level_refused=lambda refused: self._refused(number, label, refused),
            on_requests_dropped=lambda dropped: self._dropped(number, label, dropped),
            eras=self._engine.eras, legacy=self._engine.legacy)
        self._listener = listener
        listened(self.resources, server, listener)
        self.url = public_url(server.url)
        self.label = label
        self.status = ListenerStatus(ListenerState.CONNECTING)
        self.status_changed.emit(self.label, self.status)

        self._engine.spawn(listener.run)

    def shown_label(self) -> str:
        """The server listened to (or last) as named in the language now shown (the window's demo entry's name
        follows a switch of language; :attr:`label` is the name the session began with)."""
        return shown_label(self._plain) if self._plain is not None else self.label

    def stop(self, *, keep_subscriptions: bool = False) -> None:
        """Stop listening; the session is ended (``DELETE``) in the background, within half a second.
        ``keep_subscriptions``: a session with the same server follows, subscribed to the same resources."""
        listener, self._listener = self._listener, None
        if listener is None:
            return
        self._number += 1  # what the old listener still reports is not shown
        if not keep_subscriptions:
            listened(self.resources, None, None)
        self._engine.spawn(listener.stop)
        self.status = ListenerStatus(ListenerState.STOPPED)
        self.status_changed.emit(self.label, self.status)
        self.url = None

    def set_log_level(self, level: str | None) -> bool:
        """Apply a new log level to the running session at once; True when the listener was told.

        ``None`` (off) cannot be said in MCP: the session is started afresh, without a level."""
        self.log_level = level
        listener = self._listener
        if listener is None:
            return False
        if level is None:
            server, roots = self._plain or listener.server, listener.handler.roots
            self.listen(server, roots)
            return True

        async def apply() -> None:
            await listener.set_log_level(level)

        self._engine.spawn(apply)
        self.status_changed.emit(self.label, self.status)  # said again: the words may speak of the level
        return True

    @property
    def listening_to(self) -> str | None:
        return self.url

    def signin_changed(self, server_key: str) -> None:
        """The sign-in of ``server_key`` changed: a session with it listens again, with the new token."""
        listener = self._listener
        if listener is not None and self._plain is not None and self._plain.key == server_key:
            self.listen(self._plain, listener.handler.roots)

    # -- reports (GUI thread) ----------------------------------------------------------------------

    def _on_status(self, number: int, status: ListenerStatus) -> None:
        if number != self._number:
            return
        self.status = status
        self.status_changed.emit(self.label, status)

    def _era_found(self, url: str, outcome: object = None) -> None:
        """An operation with ``url`` ended: listen again when it found the server in another era.

        The era the operation spoke comes with its outcome (its step says it): the database is not
        read on the GUI thread for every operation that ends (issue 27)."""
        listener = self._listener
        if listener is None or self.url != url:
            return
        record = getattr(outcome, "record", None)
        spoken = getattr(getattr(record, "step", None), "era", None)
        stateless = spoken == "stateless" if spoken is not None else speaks_stateless(listener.server, listener.eras)
        if listener.stateless is not stateless:
            self.listen(self._plain or listener.server, listener.handler.roots)

    def _on_tools_changed(self, number: int) -> None:
        if number == self._number and self.url is not None:
            self.tools_changed.emit(self.url)

    # -- reports (worker thread) -------------------------------------------------------------------

    def _current(self, number: int) -> bool:
        """The report is of the listener that listens now (what a stopped one still says is not shown)."""
        return number == self._number

    def _heard(self, number: int, label: str, note: ServerNotification) -> None:
        if not self._current(number):
            return
        listener = self._listener
        if note.method == "notifications/tools/list_changed":
            self._carrier.tools_changed.emit(number)
        elif note.method == "notifications/resources/updated" and listener is not None:
            self.resources.heard(note, label, listener.subscriptions)
        elif note.method == "notifications/message":
            self._engine.log.add(message_entry(note, label))

    def _requested(self, number: int, label: str, seen: ServerRequestSeen) -> None:
        if self._current(number):
            self._engine.log.add(LogEntry(datetime.now(timezone.utc), None, None, seen.answered, label,
                                          request=seen.method, declined=seen.declined))

    def _refused(self, number: int, label: str, refused: LogLevelRefused) -> None:
        if self._current(number):
            self._engine.log.add(LogEntry(datetime.now(timezone.utc), None, None, refused.error, label,
                                          request="logging/setLevel", refused=True))

    def _dropped(self, number: int, label: str, dropped: RequestsDropped) -> None:
        if self._current(number):
            # A warning line of the client's own (its sentence names the server as the one sending).
            self._engine.log.add(LogEntry(datetime.now(timezone.utc), "warning", None, dropped.message, label))
