"""One operation's reports on the worker thread: the client's observer for it, and the buffer the
observer puts them into (the :mod:`.report_courier`'s), which the GUI thread takes at most once per frame.

Log messages (and a refused log level, and the server's questions) go to the engine's
:class:`~.operation_log.OperationLog` instead, tagged with the operation and the server, in batches.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from inspector.mcp import (
    LegFinished,
    LegStarted,
    LogLevelRefused,
    NullObserver,
    OperationFinished,
    OperationStarted,
    ProgressSeen,
    ServerRequestSeen,
)
from inspector.mcp.reports import TaskSeen
from inspector.mcp.standalone import STDERR, ServerNotification

from .operation_log import OperationLog, operation_tag
from .report_courier import ReportCourier

if TYPE_CHECKING:
    from .operation_task import OperationOutcome, OperationTask


class TaskReports:
    """Puts one operation's reports, with the time each was seen, into the courier's buffer
    (worker thread); the GUI thread takes them at most once per frame (:mod:`.report_courier`)."""

    def __init__(self, task: OperationTask, courier: ReportCourier) -> None:
        self._task = task
        self._courier = courier

    def put(self, kind: str, report: object) -> None:
        self._courier.put(self._task, kind, report, time.monotonic())

    def done(self, outcome: OperationOutcome) -> None:
        """The operation's end: delivered at once, not at the frame's end (a cancel shows at once)."""
        self._courier.put(self._task, "done", outcome, time.monotonic(), urgent=True)


class OperationObserver(NullObserver):
    """The client's observer for one operation: runs on the worker, emits with the time seen.

    Log messages (and a refused log level) go to the engine's :class:`OperationLog`, tagged with
    the operation and the server, in batches; other notifications cross one by one."""

    def __init__(self, reports: TaskReports, log: OperationLog, title: str, server: str) -> None:
        self._reports = reports
        self._log = log
        self._title = title
        self._operation = operation_tag(None, title)
        self._server = server

    def stored_as(self, run_id: int | None) -> None:
        """The operation's run is known (before its first leg): its lines name it."""
        self._operation = operation_tag(run_id, self._title)

    def operation_started(self, report: OperationStarted) -> None:
        self._reports.put("started", report)

    def leg_started(self, report: LegStarted) -> None:
        self._reports.put("leg_started", report)

    def leg_finished(self, report: LegFinished) -> None:
        self._reports.put("leg_finished", report)

    def progress(self, report: ProgressSeen) -> None:
        self._reports.put("progress", report)

    def notification(self, report: ServerNotification) -> None:
        if report.method == "notifications/message":
            self._log.heard(self._operation, self._server, report)
        elif report.method == STDERR:
            # A command server's stderr reaches the log once, through the engine's process output
            # (also between operations); the step keeps its own copy.
            return
        else:
            self._reports.put("notification", report)

    def log_level_refused(self, report: LogLevelRefused) -> None:
        self._log.refused(self._operation, self._server, report)

    def task_seen(self, report: TaskSeen) -> None:
        self._reports.put("task", report)

    def server_request(self, report: ServerRequestSeen) -> None:
        self._log.asked(self._operation, self._server, report)

    def operation_finished(self, report: OperationFinished) -> None:
        self._reports.put("finished", report)


__all__ = ["OperationObserver", "TaskReports"]
