"""Compare: two runs side by side in a window of their own. Above, the two runs and the summary line;
in the middle, their steps aligned (:mod:`.compare_model`); below, the chosen row's two steps
(:mod:`.compare_sides`). The comparison is computed on a worker thread: a run of 100,000 steps takes
seconds to read, and the window goes on meanwhile."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QModelIndex, QSize, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _
from inspector.i18n.compare_heads import compared_run_line
from inspector.i18n.comparing import hidden_plumbing_steps, rule_sentence, summary_line
from inspector.runs.comparing import RunComparison
from inspector.store import RunRecord, RunStore
from inspector.store.comparing import compare_stored_runs
from inspector.store.recovery import run_reason

from ..dialogs.form_dialog import screen_room
from ..dialogs.transfer_dialog import TransferJob
from ..language import on_language_changed, translated
from ..widgets.plain_text import label_text
from ..widgets.tab_stops import one_tab_stop
from .columns import RoomyColumn, compact_rows
from .compare_model import CompareModel
from .compare_sides import CompareSides
from .outcome_cell import OutcomeCellDelegate

#: The columns' widths before the differences: mark, round, step, the two runs (differences take the room left).
COMPARE_WIDTHS = (28, 64, 220, 170, 170)
#: The differences take the room the other columns leave, never less than this: before that the step's
#: name, then the two runs' cells give up room they would want (each down to its floor, its tooltip whole),
#: then the table scrolls sideways. German runs' cells ("fehlgeschlagen: Zeitüberschreitung · 0,5 s", 284 px)
#: left the differences 100 px on a 1024 × 600 screen, most of it beyond the dialog's edge.
DIFFERENCES_FLOOR_PX = 200
STEP_FLOOR_PX = 140
#: The size the dialog opens at, where the screen has room for it.
SIZE = QSize(1100, 680)


#: Why a failed run is failed (its failed calls, all its calls, whether the model still answered, how the
#: calls ended where known), or None.
Reason = tuple[int, int, bool, str | None] | None
#: A comparison made on the worker: the two runs, it, why each failed, and whether it compared their plumbing.
Compared = tuple[RunRecord, RunRecord, RunComparison, tuple[Reason, Reason], bool]


def _compared(first_id: int, second_id: int, show_plumbing: bool) -> Any:
    def work(store: RunStore, _progress: Any) -> Compared:
        first, second = store.get_run(first_id), store.get_run(second_id)
        comparison = compare_stored_runs(store, first_id, second_id, show_plumbing=show_plumbing)
        return first, second, comparison, (_reason(store, first), _reason(store, second)), show_plumbing
    return work


def _reason(store: RunStore, run: RunRecord) -> Reason:
    """Why the run failed, where known, as the Runs list and the timeline's heading say it."""
    found = run_reason(store, run)
    return found.said() if found else None


class CompareDialog(QDialog):
    """Two stored runs compared: the second against the first (Swap turns them round)."""

    #: The comparison is shown (the rows and the summary), or could not be made (the summary says why).
    ready = Signal()

    def __init__(self, store: RunStore, db_path: Path, first_id: int, second_id: int,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store, self.db_path = store, db_path
        self.first_id, self.second_id = first_id, second_id
        self.runs: tuple[RunRecord, RunRecord] | None = None
        self.reasons: tuple[Reason, Reason] = (None, None)  # why each failed, where known
        self.job: TransferJob | None = None
        self.error = ""
        self.model = CompareModel()
        self._build()
        on_language_changed(self, self.retranslate)
        # At most the screen's room: 1100 × 680 put Close below a 1024 × 600 screen.
        room = screen_room(self)
        self.resize(SIZE if room is None else SIZE.boundedTo(room))
        self.compare()

    def _build(self) -> None:
        self.first_label, self.second_label, self.summary, self.rule = QLabel(), QLabel(), QLabel(), QLabel()
        #: The plumbing steps left out, by run (hidden while "Show plumbing" is unticked, as in the timeline).
        self.left_out = QLabel()
        for label in (self.first_label, self.second_label, self.summary, self.rule, self.left_out):
            label.setTextFormat(Qt.TextFormat.PlainText)  # run titles come from servers and files
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        bold = self.summary.font()
        bold.setBold(True)
        self.summary.setFont(bold)
        translated(self.summary, "setAccessibleName", lambda: _("Comparison summary"))
        self.view = one_tab_stop(QTableView())
        translated(self.view, "setAccessibleName", lambda: _("The two runs' steps, aligned"))
        self.view.setModel(self.model)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        compact_rows(self.view)
        header = self.view.horizontalHeader()
        translated(header, "setAccessibleName", lambda: _("Columns of the comparison"))
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for column, width in enumerate(COMPARE_WIDTHS):
            self.view.setColumnWidth(column, width)
        header.setStretchLastSection(False)
        columns = CompareModel.COLUMNS
        self._differences_room = RoomyColumn(self.view, columns.index("differences"), DIFFERENCES_FLOOR_PX, {
            columns.index("step"): STEP_FLOOR_PX, columns.index("first"): COMPARE_WIDTHS[columns.index("first")],
            columns.index("second"): COMPARE_WIDTHS[columns.index("second")]})
        # A run's cell too narrow for its whole words says the kind of failure alone (its tooltip whole).
        self._side_cells = OutcomeCellDelegate(self.view)
        for column in (columns.index("first"), columns.index("second")):
            self.view.setItemDelegateForColumn(column, self._side_cells)
        self.view.selectionModel().currentRowChanged.connect(self._row_chosen)
        self.sides = CompareSides(self.store)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.view)
        split.addWidget(self.sides)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        self.swap_button = translated(QPushButton(), "setText", lambda: _("Swap the runs"))
        self.swap_button.clicked.connect(self.swap)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.swap_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.close)
        self.close_button = buttons.button(QDialogButtonBox.StandardButton.Close)
        translated(self.close_button, "setText", lambda: _("Close"))
        # As the timeline's toggle: shown only for runs with plumbing (Traceloop's stream writers).
        self.plumbing_toggle = translated(QCheckBox(), "setText", lambda: _("Show plumbing"))
        self.plumbing_toggle.hide()
        self.left_out.hide()
        self.plumbing_toggle.toggled.connect(lambda _shown: self.compare())
        plumbing = QHBoxLayout()
        plumbing.addWidget(self.left_out, 1)
        plumbing.addWidget(self.plumbing_toggle)
        layout = QVBoxLayout(self)
        for widget in (self.first_label, self.second_label, self.summary):
            layout.addWidget(widget)
        layout.addLayout(plumbing)
        layout.addWidget(split, 1)
        layout.addWidget(self.rule)
        layout.addWidget(buttons)

    # -- the comparison -------------------------------------------------------------------------

    def compare(self) -> None:
        """Compare the two runs anew (on a worker); :attr:`ready` when it is shown."""
        self.runs, self.error = None, ""
        self.model.set_comparison(None, self.first_id, self.second_id)
        self.swap_button.setEnabled(False)
        self.job = TransferJob(_compared(self.first_id, self.second_id, self.plumbing_toggle.isChecked()),
                               self.db_path)
        # Queued: the job's signals come from its thread.
        self.job.finished.connect(self._compared, Qt.ConnectionType.QueuedConnection)
        self.job.failed.connect(self._failed, Qt.ConnectionType.QueuedConnection)
        self.retranslate()
        self.job.start()

    def _compared(self, result: Compared) -> None:
        first, second, comparison, reasons, plumbing = result
        if (first.id, second.id, plumbing) != (self.first_id, self.second_id, self.plumbing_toggle.isChecked()):
            return  # a comparison of before a swap, or before "Show plumbing" was toggled
        self.runs, self.reasons = (first, second), reasons
        self.model.set_comparison(comparison, first.id, second.id)
        if any(comparison.hidden_plumbing):  # once shown, the toggle stays to hide them again
            self.plumbing_toggle.show()
        self.swap_button.setEnabled(True)
        self.retranslate()
        first_difference = self.model.index_of_first_difference()
        self.view.setCurrentIndex(first_difference if first_difference.isValid() else self.model.index(0, 0))
        self.ready.emit()

    def _failed(self, sentence: str) -> None:
        self.error = sentence
        self.swap_button.setEnabled(True)
        self.retranslate()
        self.ready.emit()

    def swap(self) -> None:
        """The second run becomes the first: its steps on the left, the other measured against it."""
        self.first_id, self.second_id = self.second_id, self.first_id
        self.compare()

    def _row_chosen(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.sides.show_row(self.model.row(current.row()) if current.isValid() else None, self.first_id,
                            self.second_id)

    # -- words ----------------------------------------------------------------------------------

    def retranslate(self) -> None:
        self.setWindowTitle(_("Run {first} and run {second} compared").format(first=self.first_id,
                                                                               second=self.second_id))
        self.rule.setText(rule_sentence())
        comparison = self.model.comparison
        if self.error:
            self.summary.setText(self.error)
        elif comparison is None or self.runs is None:
            self.summary.setText(_("Comparing run {first} with run {second}…").format(first=self.first_id,
                                                                                     second=self.second_id))
        else:
            self.summary.setText(summary_line(comparison.summary, self.first_id, self.second_id))
        hidden = hidden_plumbing_steps(comparison.hidden_plumbing, self.first_id, self.second_id) if (
            comparison is not None and not self.error) else ""
        self.left_out.setText(_("Not compared: {steps}, hidden as the timeline hides them (tick “Show plumbing” to "
                                "compare them too).").format(steps=hidden) if hidden else "")
        self.left_out.setVisible(bool(hidden))
        for label, run, place in ((self.first_label, self.runs[0] if self.runs else None, 0),
                                  (self.second_label, self.runs[1] if self.runs else None, 1)):
            label.setText(run_line(run, place, self.reasons[place]) if run else "")
        self._row_chosen(self.view.currentIndex(), QModelIndex())
        self._fit_run_columns()

    def _fit_run_columns(self) -> None:
        """Each column as wide as its heading (at 16 points "Round" and "Runde" were cut in 64 px), and the
        two runs' columns at least as wide as their cells: an outcome that differs is bold, and German
        "✗ fehlgeschlagen · 3,0 s" in bold is wider than the columns' first width."""
        header = self.view.horizontalHeader()
        for column, least in enumerate(COMPARE_WIDTHS):  # the differences take the room left
            self.view.setColumnWidth(column, max(least, header.sectionSizeHint(column)))
        for column in (CompareModel.COLUMNS.index("first"), CompareModel.COLUMNS.index("second")):
            self.view.setColumnWidth(column, max(self.view.columnWidth(column), self.view.sizeHintForColumn(column)))

    def closeEvent(self, event: Any) -> None:  # noqa: N802
        if self.job is not None:
            self.job.cancel()  # it only reads; its answer is dropped
        super().closeEvent(event)


def run_line(run: RunRecord, place: int, reason: Reason = None) -> str:
    """One run in a line, as ``compare`` says it (:func:`compared_run_line`), as a label shows text."""
    return label_text(compared_run_line(run, place, reason))


__all__ = ["CompareDialog", "run_line"]
