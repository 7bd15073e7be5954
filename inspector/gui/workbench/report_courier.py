"""Reports from the worker to the GUI thread, coalesced to at most one delivery per frame.

The client reports every leg, progress note and task poll of an operation; one queued signal
each made the GUI thread wake for every one of them (twenty operations polling a task: hundreds
of wake-ups a second, each a bar update and a repaint request). Instead the worker puts each
report into the :class:`ReportCourier`'s buffer (a lock and a list per task) and wakes the GUI
thread with one queued call while nothing is pending; the GUI thread takes everything buffered,
at most once per frame (:data:`~..widgets.budget_bar.FRAME_MS`), and hands each task its reports
in order (the task updates its bar state once and says it changed once). An operation's end is
urgent: it is delivered at the next turn of the GUI thread's loop, not at the frame's end, so a
cancel shows at once.

A delivery has a budget of its own (:data:`DELIVERY_BUDGET_MS`): twenty operations ending in the
same frame each update their row, the detail and the status line; once a delivery has spent its
budget, the tasks not yet served are served at the loop's next turn (after the frame is painted),
before anything that arrived since, so each task still takes its reports in order.
"""

from __future__ import annotations

import math
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from ..widgets.budget_bar import FRAME_MS

#: What one delivery may spend before the tasks it has not served wait for the loop's next turn.
DELIVERY_BUDGET_MS = 8


class ReportSink(Protocol):
    """Who takes a batch of reports on the GUI thread (an :class:`~.operation_task.OperationTask`)."""

    def take_reports(self, entries: list[tuple[str, Any, float]]) -> None: ...


class ReportCourier(QObject):
    """Buffers reports from any thread and delivers them on its own (the GUI) thread, per frame."""

    _wake = Signal()

    def __init__(self, frame_ms: int = FRAME_MS, clock: Callable[[], float] = time.monotonic,
                 budget_ms: float = DELIVERY_BUDGET_MS) -> None:
        super().__init__()
        self._frame_s = frame_ms / 1000
        self._budget_s = budget_ms / 1000
        self._clock = clock
        self._lock = threading.Lock()
        self._buffered: dict[ReportSink, list[tuple[str, Any, float]]] = {}
        self._pending = False
        self._urgent = False
        self._last = -math.inf
        self._delivering = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.timeout.connect(self.deliver)
        self._wake.connect(self._woken, Qt.ConnectionType.QueuedConnection)
        #: Deliveries made (each hands every waiting task its reports): tests count them.
        self.deliveries = 0
        #: Wake-ups the worker sent (at most one while one is pending).
        self.wakes = 0
        #: Reports put (benchmarks divide the worker's time by it).
        self.puts = 0
        #: Deliveries that spent their budget and left tasks for the next turn.
        self.put_backs = 0

    def put(self, sink: ReportSink, kind: str, report: Any, at: float, *, urgent: bool = False) -> None:
        """Buffer one report (any thread); wake the GUI thread if it was not woken already."""
        with self._lock:
            self._buffered.setdefault(sink, []).append((kind, report, at))
            self.puts += 1
            wake = not self._pending or (urgent and not self._urgent)
            self._pending = True
            self._urgent = self._urgent or urgent
            if wake:
                self.wakes += 1
        if wake:
            self._wake.emit()

    def _woken(self) -> None:
        with self._lock:
            pending, urgent = self._pending, self._urgent
        if not pending:
            return
        wait_s = self._last + self._frame_s - self._clock()
        if urgent or wait_s <= 0:
            self.deliver()
        elif not self._timer.isActive():
            self._timer.start(max(1, math.ceil(wait_s * 1000)))

    def deliver(self) -> None:
        """Hand every task what was buffered for it (GUI thread)."""
        if self._delivering:
            # A slot ran an event loop of its own while a batch was handed out (no slot of the
            # window's does): the newer reports wait a frame, so each task takes its reports in order.
            self._timer.start(FRAME_MS)
            return
        with self._lock:
            batch, self._buffered = self._buffered, {}
            self._pending = self._urgent = False
        self._timer.stop()
        self._last = self._clock()
        if not batch:
            return
        self.deliveries += 1
        self._delivering = True
        served = list(batch.items())
        try:
            for number, (sink, entries) in enumerate(served, 1):
                _hand(sink, entries)
                if number < len(served) and self._clock() - self._last > self._budget_s:
                    self._put_back(served[number:])
                    break
        finally:
            self._delivering = False

    def _put_back(self, unserved: list[tuple[ReportSink, list[tuple[str, Any, float]]]]) -> None:
        """The budget is spent: ``unserved`` goes first at the loop's next turn, before newer reports."""
        self.put_backs += 1
        with self._lock:
            merged = dict(unserved)
            for sink, entries in self._buffered.items():
                merged.setdefault(sink, []).extend(entries)
            self._buffered = merged
            self._pending = self._urgent = True  # no wake-up is needed: the timer below is it
        self._timer.start(0)

    def flush(self, sink: ReportSink) -> None:
        """Hand ``sink`` what is buffered for it now (GUI thread): a crossing of its own (a sign-in
        needed) must find the bar as the worker left it before it."""
        with self._lock:
            entries = self._buffered.pop(sink, None)
        if entries:
            _hand(sink, entries)


def _hand(sink: ReportSink, entries: list[tuple[str, Any, float]]) -> None:
    try:
        sink.take_reports(entries)
    except Exception:  # noqa: BLE001 - one task's fault must not lose the others' reports
        sys.excepthook(*sys.exc_info())  # as Qt reports an exception in a slot


_courier: ReportCourier | None = None


def the_courier() -> ReportCourier:
    """The window's one courier (made on the GUI thread, with the first operation)."""
    global _courier
    if _courier is None:
        _courier = ReportCourier()
    return _courier


__all__ = ["ReportCourier", "ReportSink", "the_courier"]
