"""One operation as the window follows it, on the GUI thread: :class:`OperationTask` (the task-state
object of Orange3's pattern) and how it ended, :class:`OperationOutcome`.

Widgets only connect to the task's signals. The worker's reports reach it in batches, at most once
per frame (:mod:`.report_courier`); it updates its :class:`BarState` once per batch and says so
once. Cancel, called on the GUI thread, fires the operation's own :class:`CancelSignal` at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from inspector.mcp import (
    CancelSignal,
    LegFinished,
    LegStarted,
    OperationFinished,
    OperationStarted,
    ProgressSeen,
    ServerEndpoint,
    public_url,
)
from inspector.mcp.reports import TaskSeen
from inspector.runs.replaying import ReplayLink

from ..widgets.budget_state import BarState, ProgressMark, ending_for
from .operation_reports import TaskReports
from .report_courier import the_courier

if TYPE_CHECKING:
    from inspector.agent import OperationRecord


@dataclass(frozen=True)
class OperationOutcome:
    """How an operation ended, as the window needs it."""

    record: OperationRecord | None
    run_id: int | None
    #: Why the run could not be stored (completely), or None.
    store_problem: str | None = None
    #: An unexpected failure inside the engine (a bug): the sentence to show.
    internal_error: str | None = None

    @property
    def status(self) -> str:
        if self.record is None:
            return "failed"
        return self.record.status


class OperationTask(QObject):
    """The state of one operation on the GUI thread; widgets only connect to its signals."""

    #: Something the bar shows changed (a leg started or ended, progress, the end).
    changed = Signal()
    #: The operation is over; the outcome is in :attr:`outcome`.
    finished = Signal(object)
    #: The server sent a notification other than a log message (a list-changed notice); log
    #: messages go to the engine's :attr:`OperationsEngine.log`.
    server_notification = Signal(object)
    #: The user asked to cancel (the operation ends soon): its question dialogs close now.
    cancelling = Signal()

    def __init__(self, number: int, kind: str, title: str, server: ServerEndpoint, budget_s: float,
                 tool: str | None = None, arguments: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.number = number
        self.kind = kind
        self.title = title
        self.server = server
        self.server_url = public_url(server.url)
        self.tool = tool
        self.arguments = arguments
        #: The tool as the catalogue listed it: its result is checked against its output schema, and
        #: its ``execution.taskSupport`` decides whether it runs as a task.
        self.definition: dict[str, Any] | None = None
        #: The stored step this operation replays (its run is linked to it).
        self.replay_of: ReplayLink | None = None
        self.budget_s = budget_s
        self.cancel_signal = CancelSignal()
        self.state = BarState(budget_s, transport=server.transport)  # how its legs' tooltips say what travelled
        #: Monotonic time the operation opened its deadline (set by the first report).
        self.started_at: float | None = None
        self.submitted_at = time.monotonic()
        self.cancel_requested_at: float | None = None
        #: The window cancelled it for itself (the user selected another server): not the user's
        #: cancel, so a cancelled end counts nothing in the server's health.
        self.set_aside = False
        #: Set aside because Reload started the listing again (not because another server was chosen).
        self.reloaded = False
        #: The server asked for a sign-in: the operation waits for it, its budget not yet started.
        self.waiting_for_signin = False
        #: How many sign-ins it waited for before its last, fresh attempt.
        self.signins_waited = 0
        self.outcome: OperationOutcome | None = None
        self.error_kind: str | None = None
        #: The task the operation runs as, as last seen (its status after the latest poll).
        self.task_seen: TaskSeen | None = None
        #: The legs that have ended, as reported (with what each sent and received, when kept).
        self.finished_legs: list[LegFinished] = []
        self._courier = the_courier()
        self._reports = TaskReports(self, self._courier)

    # -- asked by the GUI --------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self.outcome is None

    def cancel(self) -> None:
        """Cancel now: the worker's task is cancelled through the loop's thread-safe wake-up."""
        if self.outcome is None and self.cancel_requested_at is None:
            self.cancel_requested_at = time.monotonic()
        first = self.outcome is None and not self.cancel_signal.fired
        # The cancel first: the worker tears the call down before it can act on the answer below (both
        # reach its loop in this order). Answered first, a server that ends its tool at once when told
        # "cancel" could end the call ok before the cancel came.
        self.cancel_signal.fire()
        if first:
            self.cancelling.emit()  # then an open question is answered "cancel" and its dialog closes

    def put_aside(self, reloaded: bool = False) -> None:
        """Cancel an operation the user did not ask for and has moved on from (a catalogue walk of the
        server selected before; ``reloaded``: one that Reload started again): it ends as a cancel, but
        not as the user's, so the server's health (which counts the user's cancels) is not touched by it."""
        if self.outcome is None and not self.cancel_signal.fired:  # the first reason stands: the user's cancel too
            self.set_aside, self.reloaded = True, reloaded
        self.cancel()

    def elapsed_s(self, now: float | None = None) -> float:
        """Seconds since the operation started (0 before it has)."""
        if self.started_at is None:
            return 0.0
        return (time.monotonic() if now is None else now) - self.started_at

    def flush_reports(self) -> None:
        """Take what the worker reported and the courier still holds, now (GUI thread)."""
        self._courier.flush(self)

    # -- reports, on the GUI thread ------------------------------------------------------------

    def take_reports(self, entries: list[tuple[str, Any, float]]) -> None:
        """A batch of reports, in the order the worker made them: the bar's state takes each,
        and :attr:`changed` is emitted once for the batch (the end emits it with :attr:`finished`)."""
        moved = False
        for kind, report, at in entries:
            if kind == "done":
                self._on_done(report)
                moved = False
            elif kind == "notification":
                self.server_notification.emit(report)
            else:
                moved = _TAKE[kind](self, report, at) or moved
        if moved:
            self.changed.emit()

    def _on_started(self, report: OperationStarted, at: float) -> bool:
        self.started_at = at
        self.budget_s = self.state.budget_s = report.budget_s
        self.state.touch()
        return True

    def _on_leg_started(self, report: LegStarted, at: float) -> bool:
        self.state.leg_started(report.method, report.granted_s, report.offset_s)
        return True

    def _on_leg_finished(self, report: LegFinished, at: float) -> bool:
        elapsed = None if report.elapsed_ms is None else report.elapsed_ms / 1000
        self.state.leg_finished(report.method, report.granted_s, elapsed, report.outcome.value,
                                report.http_status, report.bytes_received, report.error_kind,
                                now_s=self.elapsed_s(at), exchange=report.exchange)
        self.finished_legs.append(report)
        return True

    def _on_progress(self, report: ProgressSeen, at: float) -> bool:
        self.state.add_mark(ProgressMark(self.elapsed_s(at), report.progress, report.total, report.message))
        return True

    def _on_task(self, report: TaskSeen, at: float) -> bool:
        self.task_seen = report
        return True

    def _on_restart(self, count: int, at: float) -> bool:
        """It waited for a sign-in (``count`` so far) and runs afresh."""
        self.waiting_for_signin = False
        self.signins_waited = count
        return True

    def _on_finished(self, report: OperationFinished, at: float) -> bool:
        self.error_kind = None if report.error is None else getattr(report.error.kind, "value", None)
        if report.transport:  # an address found to speak the older HTTP+SSE transport: its legs say so
            self.state.transport = report.transport
            self.state.touch()
        return False

    def _on_done(self, outcome: OperationOutcome) -> None:
        self.outcome = outcome
        status = outcome.status
        reason = None
        record = outcome.record
        if status == "failed":
            # A kind, not words: the bar and the row say it in the language of the moment.
            if outcome.internal_error:
                reason = "internal_error"
            elif record is not None and record.error is None:
                reason = "tool_error"
            elif record is not None and record.error.kind.value == "output_schema":
                reason = "output_schema"  # the server answered: the client found the answer wrong
            elif self.error_kind:
                reason = self.error_kind
        ended = record.latency_ms / 1000 if record is not None else self.elapsed_s()
        self.state.finish(ended, ending_for(status, self.state.legs, self.error_kind), reason)
        self.changed.emit()
        self.finished.emit(outcome)


#: What each kind of report does to the task (each returns whether the bar changed).
_TAKE: dict[str, Callable[[OperationTask, Any, float], bool]] = {
    "started": OperationTask._on_started, "leg_started": OperationTask._on_leg_started,
    "leg_finished": OperationTask._on_leg_finished, "progress": OperationTask._on_progress,
    "task": OperationTask._on_task, "finished": OperationTask._on_finished, "restart": OperationTask._on_restart,
}


__all__ = ["OperationOutcome", "OperationTask"]
