"""What the servers log during operations, on each operation's own session, for the Server log.

A server sends its log messages (``notifications/message``) on the streams of the session they
belong to: the answer stream of an operation's ``tools/call``, or that operation's standalone
``GET`` stream. The window's listening session never sees them. Each operation's observer hands
them to one :class:`OperationLog` on the worker thread; it turns them into :class:`LogEntry`
rows tagged with the operation and the server, and passes them to the GUI thread in batches: the
worker posts one wake-up while a batch waits, so a server that logs thousands of lines a second
costs the GUI thread one slot call per batch, not one per message.
"""

from __future__ import annotations

import threading
from collections import deque
from datetime import datetime, timezone

from PySide6.QtCore import QObject, Qt, Signal

from inspector.i18n import _
from inspector.mcp import LogLevelRefused, ServerRequestSeen
from inspector.mcp.messages import Message
from inspector.mcp.sampling_limits import limit_reached
from inspector.mcp.standalone import ServerNotification

from .log_entry import LogEntry

#: The most entries waiting for the GUI thread; older ones are dropped first (the view keeps
#: no more than this either).
MAX_WAITING = 5000


class OperationLog(QObject):
    """Collects log entries from operations on the worker thread; emits them in batches on the GUI thread."""

    #: A batch of :class:`LogEntry` (a list, oldest first), on the GUI thread.
    entries = Signal(list)
    _wake = Signal()

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._waiting: deque[LogEntry] = deque(maxlen=MAX_WAITING)
        self._posted = False
        self._wake.connect(self._flush, Qt.ConnectionType.QueuedConnection)

    # -- on the worker thread ----------------------------------------------------------------------

    def heard(self, operation: str, server: str, note: ServerNotification) -> None:
        """A notification on the operation's session: log messages become entries."""
        if note.method != "notifications/message":
            return
        logger = note.params.get("logger")
        self._add(LogEntry(datetime.now(timezone.utc), note.level or "info",
                           logger if isinstance(logger, str) else None, note.params.get("data"), server,
                           operation=operation))

    def refused(self, operation: str, server: str, report: LogLevelRefused) -> None:
        """The server refused ``logging/setLevel``; the operation went on without a level."""
        self._add(LogEntry(datetime.now(timezone.utc), None, None, report.error, server,
                           request="logging/setLevel", operation=operation, refused=True))

    def declined(self, operation: str, server: str, method: str, reason: Message) -> None:
        """The window declined a request of the server without asking the user (``reason`` says why)."""
        self._add(LogEntry(datetime.now(timezone.utc), None, None, reason, server,
                           request=method, declined=True, operation=operation))

    def asked(self, operation: str, server: str, report: ServerRequestSeen) -> None:
        """A request of the server's: one that a sampling limit refused gets a line saying so."""
        sentence = limit_reached(report.answered) if report.declined else None
        if sentence is not None:
            self._add(LogEntry(datetime.now(timezone.utc), None, None, sentence, server,
                               request=report.method, declined=True, operation=operation))

    def _add(self, entry: LogEntry) -> None:
        with self._lock:
            self._waiting.append(entry)
            if self._posted:
                return
            self._posted = True
        self._wake.emit()

    # -- on the GUI thread -------------------------------------------------------------------------

    def _flush(self) -> None:
        with self._lock:
            batch = list(self._waiting)
            self._waiting.clear()
            self._posted = False
        if batch:
            self.entries.emit(batch)


def operation_tag(run_id: int | None, title: str) -> str:
    """How the Server log names an operation: the number of its run (as the Runs tab, the result
    and the status bar show it) and its title; the title alone while, or if, it has no run."""
    if run_id is None:
        return title
    return _("#{run_id} {title}").format(run_id=run_id, title=title)
