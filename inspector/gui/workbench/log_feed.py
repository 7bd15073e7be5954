"""The Server log's feed: lines from any thread, to the GUI thread in paced, bounded batches.

A server may log faster than anyone can read: a flood of ``notifications/message`` (100,000
lines in a few seconds) once froze the window for seconds, one queued signal and one model
update per line, and grew the process by hundreds of megabytes of lines waiting in Qt's event
queue, though the log keeps 5,000. Here the listening session and the operations' sessions hand
their lines to one :class:`LogFeed` where they arrive (the worker thread). It keeps at most
:data:`MAX_WAITING` lines waiting, dropping the oldest and counting them, and hands what waits
to the GUI thread at most once per :data:`FLUSH_INTERVAL_MS`: one queued wake-up while lines
wait, one batch (one model update) per tick, whatever the rate. After a quiet spell the first
line is handed on at once.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from .log_entry import LogEntry

#: The most lines waiting for the GUI thread (the log keeps no more than this either).
MAX_WAITING = 5000
#: Batches are handed on no more often than this: the GUI thread has this long between two
#: updates of the log for painting and the user's input, however fast a server logs.
FLUSH_INTERVAL_MS = 100


class LogFeed(QObject):
    """Takes log lines on any thread; emits them on the GUI thread in batches, at most one per tick."""

    #: A batch of :class:`LogEntry` (a list, oldest first, at most :data:`MAX_WAITING`), and how
    #: many lines were dropped while they waited, before this batch (never shown).
    entries = Signal(list, int)
    _wake = Signal()

    def __init__(self, capacity: int = MAX_WAITING, interval_ms: int = FLUSH_INTERVAL_MS) -> None:
        super().__init__()
        self.interval_ms = interval_ms
        self._lock = threading.Lock()
        self._waiting: deque[LogEntry] = deque(maxlen=capacity)
        self._dropped = 0
        self._posted = False
        self._flushed_at = -math.inf
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._flush)
        self._wake.connect(self._woken, Qt.ConnectionType.QueuedConnection)

    # -- on any thread -----------------------------------------------------------------------------

    def add(self, entry: LogEntry) -> None:
        """One line; the oldest waiting line is dropped (and counted) when :data:`MAX_WAITING` wait."""
        with self._lock:
            if len(self._waiting) == self._waiting.maxlen:
                self._dropped += 1
            self._waiting.append(entry)
            if self._posted:
                return
            self._posted = True
        self._wake.emit()

    # -- on the GUI thread -------------------------------------------------------------------------

    def _woken(self) -> None:
        # The pause is counted from the end of the last batch's handling (the model's update
        # included), so a slow update never leaves the GUI thread without a pause.
        wait_ms = self._flushed_at + self.interval_ms - time.monotonic() * 1000
        if wait_ms <= 0:
            self._flush()
        else:
            self._timer.start(math.ceil(wait_ms))

    def _flush(self) -> None:
        with self._lock:
            batch = list(self._waiting)
            self._waiting.clear()
            dropped, self._dropped = self._dropped, 0
            self._posted = False
        if batch or dropped:
            self.entries.emit(batch, dropped)
        self._flushed_at = time.monotonic() * 1000
