"""A played run on the GUI thread: its rows (each model step and each operation as it happens),
built from the worker's reports, which arrive in batches (see :class:`~.worker.Mailbox`)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from inspector.i18n.messages import said_again
from inspector.runs import RunStep, StepKind
from inspector.runs.timeline import step_outcome

from ..widgets.budget_state import BarState, ProgressMark, ending_for
from .worker import Mailbox, PlayHandle

#: The reports waiting are taken at most this often (a burst of steps is one change of the list).
PACE_MS = 50


@dataclass
class PlayRow:
    """One line of the played run: a model step (``model``) or an operation (``tool``, ``list``)."""

    kind: str
    round: int
    #: The model's text (while it answers: its text so far), or the tool's name.
    text: str = ""
    #: ``asking`` (the model thinks), ``running``, or how it ended: ``ok``, ``failed``, ``cancelled``.
    state: str = "running"
    #: An operation's budget bar, growing live.
    bar: BarState | None = None
    #: Monotonic time the operation started (its bar's zero).
    started_at: float | None = None
    error_kind: str | None = None
    #: The step as stored, once it is, and its id in the run database (``None``: not stored).
    step: RunStep | None = None
    step_id: int | None = None
    #: What the model asked for (tool names), for a model row.
    calls: list[str] = field(default_factory=list)

    @property
    def running(self) -> bool:
        return self.state in ("running", "asking")

    def elapsed_s(self, now: float | None = None) -> float:
        if self.started_at is None:
            return 0.0
        return (time.monotonic() if now is None else now) - self.started_at


class PlayRun(QObject):
    """The rows of one played run, and how it ended. ``rows_added(first, last)`` and
    ``row_changed(row)`` tell the list; ``ended`` once the run is over."""

    rows_added = Signal(int, int)
    row_changed = Signal(int)
    #: Something about the whole run changed (its number, the demo server starting, the end).
    changed = Signal()
    ended = Signal()
    #: The user asked the run's cancel (a server's open question closes before the cancel lands).
    cancelling = Signal()

    def __init__(self, mailbox: Mailbox, title: str, *, starting_demo: bool = False) -> None:
        super().__init__()
        self._mailbox = mailbox
        #: The worker's handle of the run (set once it was handed to the worker).
        self.handle: PlayHandle | None = None
        self.title = title
        self.rows: list[PlayRow] = []
        self.run_id: int | None = None
        self.server_url: str | None = None
        #: A fresh demo server is being started for the run (``starting_demo``: from the start, so the
        #: first words shown are these, not "playing, 0 steps so far" said for a moment before them).
        self.starting_demo = starting_demo
        self.status: str | None = None
        self.stop_reason: str | None = None
        #: Why the run failed: a sentence (said in the reader's language) or text, or None.
        self.error: Any = None
        self.final_answer: str | None = None
        self.cancel_requested_at: float | None = None
        #: The tool calls the model asked for that have not started yet, in order.
        self._calls: deque[str] = deque()
        self._operation: PlayRow | None = None
        #: The first report of a batch waits this long for the rest (one repaint for a burst).
        self._pace = QTimer(self)
        self._pace.setSingleShot(True)
        self._pace.setInterval(PACE_MS)
        self._pace.timeout.connect(self._take)
        # Connected before the worker has the run: its first report cannot pass unheard.
        mailbox.arrived.connect(self._arrived)

    @property
    def running(self) -> bool:
        return self.status is None

    @property
    def mailbox(self) -> Mailbox:
        return self._mailbox

    def cancel(self) -> None:
        """Cancel the run (from the GUI thread): the worker hears it at once."""
        if self.running and self.cancel_requested_at is None:
            self.cancel_requested_at = time.monotonic()
            # The run's cancel first: the worker tears the call in flight down before it can act on
            # the answer below. Answered first, a server quick to end its tool once told "cancel"
            # could finish the call ok before the cancel came, and the agent start its next round.
            if self.handle is not None:
                self.handle.cancel()
            self.cancelling.emit()  # then an open question is answered "cancel" and its dialog closes
            self.changed.emit()

    @property
    def current_operation(self) -> PlayRow | None:
        return self._operation

    # -- the worker's reports ----------------------------------------------------------------------

    def _arrived(self) -> None:
        if not self._pace.isActive():
            self._pace.start()

    def _take(self) -> None:
        first = len(self.rows)
        changed: set[int] = set()
        whole = False
        for item in self.mailbox.take():
            kind, args = item[0], item[1:]
            handler = getattr(self, f"_on_{kind}")
            touched = handler(*args)
            if touched is None or kind == "ended":
                whole = True
            if touched is not None and touched >= 0:
                changed.add(touched)
        if len(self.rows) > first:
            self.rows_added.emit(first, len(self.rows) - 1)
        for row in sorted(changed):
            if row < first:
                self.row_changed.emit(row)
        if whole:
            self.changed.emit()
        if self.status is not None:
            self.mailbox.arrived.disconnect(self._arrived)
            self.ended.emit()

    def _append(self, row: PlayRow) -> int:
        self.rows.append(row)
        return len(self.rows) - 1

    def _on_demo_starting(self) -> None:
        self.starting_demo = True

    def _on_started(self, run_id: int | None, server_url: str) -> None:
        self.starting_demo = False
        self.run_id, self.server_url = run_id, server_url

    def _on_asking(self, round_number: int) -> int:
        return self._append(PlayRow("model", round_number, state="asking"))

    def _on_said(self, round_number: int, text: str) -> int:
        """The model's text so far, as it arrives: the row of the round it answers shows it until
        the step is stored (whose text then replaces it)."""
        index = self._last_asking()
        if index < 0 or self.rows[index].round != round_number:
            return -1
        self.rows[index].text = text
        return index

    def _on_op_started(self, report: Any, at: float) -> int:
        name = self._calls.popleft() if self._calls else "tools/list"
        kind = "tool" if name != "tools/list" else "list"
        row = PlayRow(kind, self._round(), name, bar=BarState(report.budget_s), started_at=at)
        self._operation = row
        return self._append(row)

    def _on_leg_started(self, report: Any, at: float) -> int:
        row = self._operation
        if row is None or row.bar is None:
            return -1
        row.bar.leg_started(report.method, report.granted_s, report.offset_s)
        return self.row_of(row)

    def _on_leg_finished(self, report: Any, at: float) -> int:
        row = self._operation
        if row is None or row.bar is None:
            return -1
        elapsed = None if report.elapsed_ms is None else report.elapsed_ms / 1000
        row.bar.leg_finished(report.method, report.granted_s, elapsed, report.outcome.value, report.http_status,
                             report.bytes_received, report.error_kind, now_s=row.elapsed_s(at),
                             exchange=getattr(report, "exchange", None))
        return self.row_of(row)

    def _on_progress(self, report: Any, at: float) -> int:
        row = self._operation
        if row is None or row.bar is None:
            return -1
        row.bar.add_mark(ProgressMark(row.elapsed_s(at), report.progress, report.total, report.message))
        return self.row_of(row)

    def _on_op_finished(self, report: Any, at: float) -> int:
        row = self._operation
        if row is None:
            return -1
        row.error_kind = None if report.error is None else getattr(report.error.kind, "value", None)
        if row.bar is not None and getattr(report, "transport", None):
            row.bar.transport = report.transport  # how its legs' tooltips say what travelled
            row.bar.touch()
        return -1

    def _on_step(self, step: RunStep, step_id: int | None = None) -> int:
        if step.kind is StepKind.LLM:
            index = self._last_asking()
            row = self.rows[index] if index >= 0 else PlayRow("model", step.round)
            if index < 0:
                index = self._append(row)
            # A model's error is our sentence, kept as data beside the English: said in the reader's language.
            row.text, row.step, row.step_id = said_again(step.content or "", step.wording), step, step_id
            row.state = "failed" if step.finish_reason == "error" else "ok"
            row.calls = [str(call.get("name")) for call in step.requested_tool_calls or () if isinstance(call, Mapping)]
            self._calls.extend(row.calls)
            return index
        row = self._operation
        if row is None:  # a step with no operation seen (cannot happen): shown all the same
            row = PlayRow("tool", step.round, step.tool_name or "")
            self._append(row)
        self._operation = None
        row.step, row.step_id = step, step_id
        if step.tool_name:
            row.text = step.tool_name
        row.round = step.round
        status = step_outcome(step.to_payload()) or ("ok" if step.kind is not StepKind.TOOL else "failed")
        row.state = status
        if row.bar is not None:
            ended = step.duration_ms / 1000
            reason = "tool_error" if status == "failed" and row.error_kind is None else row.error_kind
            row.bar.finish(ended, ending_for(status, row.bar.legs, row.error_kind), reason)
        return self.row_of(row)

    def _on_ended(self, status: str, stop_reason: str, error: Any, final_answer: str | None) -> int:
        asking = self._last_asking()
        if asking >= 0:
            # The model was asked as the run was cancelled (or failed): it never answered, and no
            # step is recorded for it; the row says so.
            self.rows[asking].state = "unanswered"
        self.status, self.stop_reason, self.error, self.final_answer = status, stop_reason, error, final_answer
        self.starting_demo = False
        return asking

    def _last_asking(self) -> int:
        for index in range(len(self.rows) - 1, -1, -1):
            if self.rows[index].state == "asking":
                return index
        return -1

    def _round(self) -> int:
        for row in reversed(self.rows):
            if row.kind == "model":
                return row.round
        return 0

    def row_of(self, row: PlayRow) -> int:
        # The row changed is nearly always among the last few: look from the end.
        for index in range(len(self.rows) - 1, -1, -1):
            if self.rows[index] is row:
                return index
        return -1
