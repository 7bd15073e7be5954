"""The window's resource subscriptions: on the listening session of the selected server.

A subscription belongs to the session that listens (:class:`~.listening.WindowListener`), so the
Resources tab's Subscribe asks the engine for an operation (``resources/subscribe``: a budget bar,
stored as a run) that is made on that session (:meth:`session_for`). What the session was
subscribed to is kept when the same server is listened to anew (a new log level, a sign-in, an era
found) and forgotten when another server is selected.

Updates arrive on the worker thread. Each goes into the Server log (its paced, bounded feed); for
the Resources tab they are coalesced: the newest time per resource waits in :attr:`_pending` and
one queued signal carries them all, handed on at most every :data:`PACE_MS` milliseconds, however
fast a server sends (a flood costs at most ten deliveries a second, never a wait of the GUI thread).
"""

from __future__ import annotations

import threading
import time
from datetime import datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from inspector.i18n import N_
from inspector.mcp import ServerEndpoint
from inspector.mcp.messages import Message
from inspector.mcp.resource_subscriptions import ResourceUpdate, SessionSubscriptions, SubscriptionChange
from inspector.mcp.standalone import ServerNotification

from .log_entry import LogEntry

if TYPE_CHECKING:
    from .engine import OperationsEngine


#: The updates are handed to the Resources tab at most this often (milliseconds).
PACE_MS = 100


class _Carrier(QObject):
    pending = Signal()


class ResourceSubscriptions(QObject):
    """The subscriptions of the window's listening session, and the updates it hears."""

    #: The resources subscribed to, or whether the server offers subscriptions, changed.
    changed = Signal()
    #: A subscribed resource was updated: (its URI, when: an aware UTC datetime).
    updated = Signal(str, object)

    def __init__(self, engine: OperationsEngine) -> None:
        super().__init__()
        self._engine = engine
        #: The listener's subscriptions (set by the window's listener for each session it starts).
        self.session: SessionSubscriptions | None = None
        #: The key of the server listened to.
        self.server_key: str | None = None
        #: The resources subscribed to (as the finished operations said), and when each was last updated.
        self.subscribed: dict[str, datetime | None] = {}
        self._pending: dict[str, datetime] = {}
        self._lock = threading.Lock()
        self._signalled = False
        self._carrier = _Carrier()
        self._carrier.pending.connect(self._woken, Qt.ConnectionType.QueuedConnection)
        self._delivered_at = 0.0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._deliver)

    # -- the session ----------------------------------------------------------------------------------

    def session_for(self, server: ServerEndpoint) -> SessionSubscriptions | None:
        """The listening session's subscriptions, when it listens to ``server`` (any thread)."""
        return self.session if self.server_key == server.key else None

    def listening(self, server: ServerEndpoint | None, session: SessionSubscriptions | None) -> None:
        """The window listens to ``server`` anew (``None``: to nothing): the same server keeps what it
        was subscribed to; another starts with nothing."""
        key = server.key if server is not None else None
        if key != self.server_key:
            self.subscribed.clear()
            with self._lock:
                self._pending.clear()
        elif session is not None:
            session.wanted = list(self.subscribed)  # the new session subscribes to them as it opens
        self.server_key, self.session = key, session
        self.changed.emit()

    def offered(self) -> bool | None:
        """Whether the server listened to offers subscriptions (``None``: not known yet)."""
        return self.session.offered() if self.session is not None else None

    def is_subscribed(self, uri: str) -> bool:
        return uri in self.subscribed

    def last_update(self, uri: str) -> datetime | None:
        return self.subscribed.get(uri)

    def finished(self, change: SubscriptionChange) -> None:
        """A subscribe or unsubscribe ended well (GUI thread)."""
        if change.subscribed:
            self.subscribed.setdefault(change.uri, None)
        else:
            self.subscribed.pop(change.uri, None)
        self.changed.emit()

    # -- the updates --------------------------------------------------------------------------------

    def heard(self, note: ServerNotification, label: str, session: SessionSubscriptions) -> None:
        """A notification of the listening session (worker thread): an update is logged and queued."""
        update: ResourceUpdate | None = session.update_of(note)
        if update is None:
            return
        self._engine.log.add(LogEntry(update.at, "info", None, Message(
            N_("The resource {uri} was updated."), {"uri": update.uri}), label))
        with self._lock:
            self._pending[update.uri] = update.at
            if self._signalled:
                return
            self._signalled = True
        self._carrier.pending.emit()

    def _woken(self) -> None:
        wait_ms = self._delivered_at * 1000 + PACE_MS - time.monotonic() * 1000
        if wait_ms <= 0:
            self._deliver()
        elif not self._timer.isActive():
            self._timer.start(int(wait_ms) + 1)

    def _deliver(self) -> None:
        self._delivered_at = time.monotonic()
        with self._lock:
            pending, self._pending = self._pending, {}
            self._signalled = False
        for uri, at in pending.items():
            if uri in self.subscribed:
                self.subscribed[uri] = at
                self.updated.emit(uri, at)


def listened(subscriptions: ResourceSubscriptions, server: ServerEndpoint | None, listener: Any) -> None:
    """Tell ``subscriptions`` which listener (``None``: none) the window now holds."""
    subscriptions.listening(server, listener.subscriptions if listener is not None else None)


__all__ = ["ResourceSubscriptions", "listened"]
