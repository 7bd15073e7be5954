"""The Play tab: choose what to play and where, press Play, watch the run grow, cancel it with Esc.

The run is played on :class:`~.worker.PlayWorker`'s thread; its reports reach this room in
coalesced batches (:class:`~.run_state.PlayRun`). The steps list follows the newest step unless the
reader scrolled away; the budget bar below shows the operation in flight (or the one selected),
and the model's last words are beside it as plain text, growing as they arrive.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QModelIndex, QRect, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _
from inspector.i18n.messages import translate
from inspector.i18n.recovery import Reason, status_with_recovery
from inspector.i18n.words import marked_outcome_text

from ..language import on_language_changed, translated
from ..widgets.budget_bar import FRAME_MS, BudgetBar
from ..widgets.follow import FollowNewest
from ..widgets.font_follower import FontFollower
from ..widgets.plain_text import clip_text, visible
from ..widgets.tab_stops import one_tab_stop
from ..workbench.operation_log import OperationLog
from .asking import play_askers
from .choices import ChoiceError, KeyBeingRead, PlayChoices
from .model_settings import ModelSettings
from .run_state import PlayRow, PlayRun
from .said_box import SaidBox
from .step_columns import StepColumns
from .step_delegate import StepBarDelegate
from .steps_model import BAR_COLUMN, PlayStepsModel, call_text
from .worker import Mailbox, PlayWorker

#: The lines the run's state has room for from the start (its longest sentences take two).
STATUS_LINES = 2


class PlayRoom(QWidget):
    """Play an agent run from the window and watch it as it happens."""

    #: A run started playing, or ended (the window's Cancel follows it).
    playing_changed = Signal(bool)
    #: "Show in Runs": the run's number and the id of the step to show (``None``: none chosen).
    show_run_requested = Signal(int, object)

    def __init__(self, db_path: Path | None, model_settings: ModelSettings,
                 servers: Callable[[], list[tuple[str, str]]], endpoint_for: Callable[[str], Any],
                 parent: QWidget | None = None, *, answers: Any = None, log: OperationLog | None = None) -> None:
        super().__init__(parent)
        # A server's questions and sampling requests go to the window's dialogs (``answers``).
        self.worker = PlayWorker(db_path, answers=answers)
        self._log = log
        self.run: PlayRun | None = None
        self.choices = PlayChoices(model_settings, servers, endpoint_for)
        self.play_button = translated(QPushButton(), "setText", lambda: _("▶ Play"))  # said "Play", not the ▶
        translated(self.play_button, "setAccessibleName", lambda: _("Play the chosen run"))
        self.play_button.clicked.connect(self.play)
        self.cancel_button = translated(QPushButton(), "setText", lambda: _("Cancel the run (Esc)"))
        self.cancel_button.clicked.connect(self.cancel)
        self.cancel_button.setEnabled(False)
        self.runs_button = translated(QPushButton(), "setText", lambda: _("Show in Runs"))
        self.runs_button.clicked.connect(self._show_in_runs)
        self.runs_button.setEnabled(False)
        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        # Its text changes with every step: it must not lay the row out again each time. A long
        # sentence (a model that cannot be reached) wraps rather than running off the window.
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.status.setWordWrap(True)
        # Two lines' room from the start: a run's end ("failed (1 of 4 tool calls failed; the model still
        # gave its answer)") wrapped where "playing, 4 steps so far" did not, and the steps list jumped down.
        FontFollower(self.status, self._reserve_status_lines)
        self._reserve_status_lines()
        translated(self.status, "setAccessibleName", lambda: _("State of the played run"))
        self.model = PlayStepsModel(self)
        self.view = one_tab_stop(QTableView())
        self.bar = BudgetBar()
        self.said = SaidBox()
        self._build()
        # Shown with a run's first operation, as Play hides it: an empty track under the steps looked broken.
        self.bar.hide()
        self.follower = FollowNewest(self.view)
        self.columns = StepColumns(self.view, self.model)
        self._frames = QTimer(self)
        self._frames.setInterval(FRAME_MS)
        self._frames.timeout.connect(self._tick)
        self._say_state()
        on_language_changed(self, self.retranslate)

    def _build(self) -> None:
        self.view.setModel(self.model)
        self.view.setItemDelegateForColumn(BAR_COLUMN, StepBarDelegate(self.view))
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.view.verticalHeader().hide()
        self.view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.view.setWordWrap(False)
        header = self.view.horizontalHeader()
        translated(self.view, "setAccessibleName", lambda: _("Steps of the played run"))
        translated(header, "setAccessibleName", lambda: _("Columns of the played run's steps"))
        self.view.selectionModel().currentRowChanged.connect(self._current_changed)
        buttons = QHBoxLayout()
        for button in (self.play_button, self.cancel_button, self.runs_button):
            buttons.addWidget(button)
        buttons.addWidget(self.status, 1)
        below = QWidget()
        below_layout = QHBoxLayout(below)
        below_layout.setContentsMargins(0, 0, 0, 0)
        below_layout.addWidget(self.bar, 3, Qt.AlignmentFlag.AlignTop)
        below_layout.addWidget(self.said, 2)
        self.split = QSplitter(Qt.Orientation.Vertical)
        self.split.setObjectName("splitter-play")
        self.split.addWidget(self.view)
        self.split.addWidget(below)
        self.split.setStretchFactor(0, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.choices)
        layout.addLayout(buttons)
        layout.addWidget(self.split, 1)

    # -- playing -----------------------------------------------------------------------------------

    @property
    def playing(self) -> bool:
        return self.run is not None and self.run.running

    def play(self) -> PlayRun | None:
        """Play what is chosen (nothing while a run plays); the run shows at once and grows live."""
        if self.playing:
            return None
        try:
            job = self.choices.job()
        except KeyBeingRead as exc:  # the model's key is read from the keyring: played once it is
            self.status.setText(str(exc))
            self.choices.when_key_read(self.play)
            return None
        except ChoiceError as exc:
            problem = str(exc)
            if self.model.rowCount():  # the run played before still shows: say whose steps they are
                problem = _("{problem} The steps below are still those of the run played before.").format(
                    problem=problem)
            self.status.setText(problem)
            return None
        mailbox = Mailbox()
        # Listening before the worker can report; no server chosen: a fresh demo server starts first.
        run = PlayRun(mailbox, job.title, starting_demo=job.server is None)
        run.handle = self.worker.play(job, mailbox, play_askers(run, self._log))
        self.run = run
        self.model.show_run(run)
        self.columns.restart()
        self.follower.follow()
        self.said.clear()
        self.bar.hide()
        run.rows_added.connect(self._rows_added)
        run.row_changed.connect(self._row_changed)
        run.changed.connect(self._say_state)
        run.ended.connect(self._ended)
        self.cancel_button.setEnabled(True)  # first: Play's focus passes on to Cancel, one key away
        self.play_button.setEnabled(False)
        self.choices.lock(True)
        self._frames.start()
        self._say_state()
        self.playing_changed.emit(True)
        return run

    def cancel(self) -> None:
        """Cancel the run that plays: the tool in flight is cancelled in flight; the run ends cancelled."""
        if self.playing:
            assert self.run is not None
            self.run.cancel()
            self.cancel_button.setEnabled(False)
            self.model.row_changed_now(len(self.run.rows) - 1)

    def _rows_added(self, first: int, last: int) -> None:
        run = self.run
        if run is None:
            return
        for row in run.rows[first:last + 1]:
            if row.kind == "model" and row.text:
                self.said.show_text(row.text)
        self.columns.fit_state(first, last)
        if not self.view.currentIndex().isValid() or self.follower.following:
            self._show_bar(run.current_operation or self._last_operation())
        self._say_state()

    def _row_changed(self, index: int) -> None:
        run = self.run
        if run is None:
            return
        row = run.rows[index]
        if row.kind == "model" and row.text:
            self.said.show_text(row.text)
        if not row.running:
            self.columns.fit_state(index, index)
        if row.bar is not None and (self.bar.isHidden() or self.bar.state is row.bar):
            self._show_bar(row)

    def _ended(self) -> None:
        self._frames.stop()
        self.play_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.choices.lock(False)
        run = self.run
        if run is not None and run.rows:
            self.model.row_changed_now(len(run.rows) - 1)
            self.columns.fit_state(len(run.rows) - 1, len(run.rows) - 1)
            last = self._last_operation()
            if last is not None and (self.bar.isHidden() or self.bar.state is last.bar):
                self._show_bar(last)
        if run is not None and run.final_answer:
            self.said.setPlainText(clip_text(run.final_answer))
        self._say_state()
        self.playing_changed.emit(False)

    def _show_in_runs(self) -> None:
        """The run in the Runs tab, at the step chosen in the list (none chosen: the first that failed
        or was cancelled, the step one would look at first)."""
        if self.run is None or self.run.run_id is None:
            return
        current = self.model.row_at(self.view.currentIndex().row()) if self.view.currentIndex().isValid() else None
        if current is None or current.step_id is None:
            current = next((row for row in self.run.rows
                            if row.step_id is not None and row.state in ("failed", "cancelled")), None)
        self.show_run_requested.emit(self.run.run_id, current.step_id if current is not None else None)

    def _tick(self) -> None:
        """One frame: the operation in flight's countdown and bar (the full bar animates itself)."""
        run = self.run
        if run is None or not self.isVisible():
            return
        operation = run.current_operation
        if operation is not None and operation.running:
            self.model.row_changed_now(run.row_of(operation))

    # -- what shows -------------------------------------------------------------------------------

    def _last_operation(self) -> PlayRow | None:
        if self.run is None:
            return None
        return next((row for row in reversed(self.run.rows) if row.bar is not None), None)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        super().changeEvent(event)
        columns = getattr(self, "columns", None)  # none yet while the room is built
        if columns is not None and event.type() == QEvent.Type.FontChange:  # a zoom: the columns grow
            columns.fit()

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        row = self.model.row_at(current.row()) if current.isValid() else None
        if row is not None and row.bar is not None:
            self._show_bar(row)
        elif row is not None and row.kind == "model" and row.text:
            self.said.show_text(row.text)

    def _show_bar(self, row: PlayRow | None) -> None:
        if row is None or row.bar is None:
            return
        if self.bar.state is row.bar and not self.bar.isHidden():
            self.bar.refresh()  # the same operation: it animates itself; a leg came or went
            return
        self.bar.set_title(*_bar_titles(row))
        self.bar.show_live(row.bar, row.started_at)
        self.bar.show()

    def _reserve_status_lines(self) -> None:
        # As high as the label measures that many lines (at 16 pt two lines are 50 pixels, not twice 24).
        lines = "\n".join("x" * STATUS_LINES)
        self.status.setMinimumHeight(self.status.fontMetrics().boundingRect(QRect(), 0, lines).height())

    def _say_state(self) -> None:
        self.status.setText(self.state_text())
        # The run is stored from its start: the Runs tab can show it while it grows.
        self.runs_button.setEnabled(self.run is not None and self.run.run_id is not None)

    def state_text(self) -> str:
        run = self.run
        if run is None:
            return _("Choose what to play and press Play.")
        # Before it is stored, words (the stored title, "scenario happy-path", comes with the number).
        number = _("Run {run_id}").format(run_id=run.run_id) if run.run_id is not None else _("The run")
        if run.running:
            if run.cancel_requested_at is not None:
                return _("{run}: cancelling…").format(run=number)
            if run.starting_demo:
                # Not the run's stored title ("scenario happy-path"): words, in the reader's language.
                return _("Starting a fresh demo server for the run…")
            return _("{run}: playing, {steps} steps so far").format(run=number, steps=len(run.rows))
        outcome = marked_outcome_text(run.status or "failed")
        if run.run_id is None:  # cancelled while the demo server started, or it did not start
            said = _("{outcome} before the run was stored").format(outcome=outcome)
        else:
            # A failed run whose tool calls failed says why (an ok run its cancelled calls), as the Runs tab and
            # `runs show` say it.
            said = _("{run}: {outcome}").format(run=number, outcome=status_with_recovery(outcome, _recovery(run)))
        if run.error:
            # A sentence after the outcome: in brackets, a reason with brackets of its own ended in "))".
            return _("{said}. {reason}").format(said=said, reason=visible(clip_text(translate(run.error), 300)))
        return said

    def retranslate(self) -> None:
        self.choices.fill()
        self._say_state()
        self.columns.fit()  # the words of another language
        if self.bar.state is not None and self.run is not None:
            row = next((row for row in self.run.rows if row.bar is self.bar.state), None)
            if row is not None:
                self.bar.set_title(*_bar_titles(row))  # the same operation: only its words change

    def shut_down(self) -> None:
        """Cancel what plays and stop the worker (bounded)."""
        self._frames.stop()
        self.worker.shutdown()


def _recovery(run: PlayRun) -> Reason | None:
    """The failed tool calls and all the calls of a failed run, whether its model still gave its answer
    (a run is failed when a call of it failed, even one the model got over: seed ADR-191), and how every
    failed call ended where their bars agree on a kind the stored steps tell too (timed out, not sent):
    what the Runs tab says of the run once stored. Its cancelled calls are said apart, and an ok run's too
    (a call cancelled on its own, the run went on): "ok (1 of 3 tool calls cancelled)"."""
    calls = [row for row in run.rows if row.kind == "tool"]
    cancelled = sum(row.state == "cancelled" for row in calls)
    if run.status == "ok" and cancelled:
        return 0, len(calls), False, None, cancelled
    if run.status != "failed":
        return None
    failed = [row for row in calls if row.state == "failed"]
    if not failed:
        return None
    endings = {row.bar.ending if row.bar is not None else None for row in failed}
    kind = endings.pop() if len(endings) == 1 else None
    return (len(failed), len(calls), run.final_answer is not None, kind if kind in ("timed_out", "refused") else None,
            cancelled)


def _bar_titles(row: PlayRow) -> tuple[str, str]:
    """The caption over an operation's bar: its round and the tool it called (what the call came
    to is said in its row and at the bar's end); the tool alone where that does not fit."""
    what = call_text(row)
    return _("Round {round}: {what}").format(round=row.round, what=what), what
