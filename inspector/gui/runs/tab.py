"""The Runs tab: the stored runs (filtered, sorted, live), the selected run's timeline read in
pages, the selected step's detail; Find in a run; import, export and delete.

The tab reads the run database on the GUI thread only in small, bounded queries (a list of
runs, a page of steps, one step); imports and exports run on worker threads
(:mod:`inspector.gui.dialogs.transfer_dialog`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QKeySequence, QResizeEvent, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _, ngettext
from inspector.i18n.formatting import format_number
from inspector.i18n.words import kind_word
from inspector.runs import RUN_SOURCES, StepKind
from inspector.store import RunRecord, RunStore, UnknownRunError
from inspector.store.browse import (
    RunFilter,
    StepFilter,
    data_version,
    delete_runs,
    find_in_timeline,
    servers_with_runs,
    step_in_full,
)

from ..dialogs.transfer_dialog import TransferDialog, TransferJob, export_job, import_job
from ..language import on_language_changed, translated, translated_item
from ..widgets.accessibility import label_combo, name_clear_button
from ..widgets.hints import readable_placeholder
from ..widgets.outcomes import outcome_icon, outcome_word
from ..widgets.plain_text import cell_text
from .runs_model import RunListModel, format_duration, format_started, source_word
from .step_detail import StepDetail
from .timeline_model import COLUMNS as TIMELINE_COLUMNS
from .timeline_model import WATERFALL_COLUMN, StepIdRole, TimelineModel, format_time, step_source
from .waterfall import WaterfallDelegate

#: How often the tab asks the database whether another connection wrote (cheap: one pragma).
POLL_MS = 300
#: From this width on the step detail sits right of the timeline; below it, under the timeline
#: (a narrow window would otherwise squeeze the details column to nothing).
WIDE_PX = 1500
STEP_OUTCOMES = ("ok", "failed", "cancelled", "")
#: The columns' least widths; :meth:`RunsTab.fit_columns` widens them for longer words (German).
RUN_WIDTHS = (44, 140, 260, 110, 80, 220, 60, 80)
TIMELINE_WIDTHS = (94, 52, 64, 48, 80, 100, 260, 170)


class RunsTab(QWidget):
    """Stored runs and their timelines."""

    #: A run was selected (its id) or none (-1).
    run_selected = Signal(int)
    #: An import or export ended: ("import"|"export", "ok"|"failed"|"cancelled", message).
    transfer_ended = Signal(str, str, str)

    def __init__(self, store: RunStore, db_path: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.db_path = db_path
        self.runs = RunListModel(store)
        self.timeline = TimelineModel(store)
        self.job: TransferJob | None = None
        self.dialog: TransferDialog | None = None
        #: Transfers waiting for the running one to end (one worker at a time keeps writes in order).
        self._queue: list[Callable[[], object]] = []
        self.last_error: str | None = None
        self.error_box: QMessageBox | None = None
        self._matches: list[int] = []
        self._match = -1
        self._arranged = False
        self._build()
        self._version = data_version(store)
        self.poll = QTimer(self)
        self.poll.setInterval(POLL_MS)
        self.poll.timeout.connect(self._poll)
        self.poll.start()
        self.reload()

    # -- layout ----------------------------------------------------------------------------------

    def _build(self) -> None:
        self.outcome_filter = QComboBox()
        label_combo(self.outcome_filter, lambda: _("Filter runs by outcome"))
        translated_item(self.outcome_filter, lambda: _("Every outcome"), "")
        for status in ("ok", "failed", "cancelled", "interrupted", "running"):
            translated_item(self.outcome_filter, lambda status=status: outcome_word(status), status,
                            icon=outcome_icon(status))
        self.server_filter = QComboBox()
        label_combo(self.server_filter, lambda: _("Filter runs by server"))
        self.server_filter.setMinimumContentsLength(18)
        self.server_filter.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.source_filter = QComboBox()
        label_combo(self.source_filter, lambda: _("Filter runs by source"))
        translated_item(self.source_filter, lambda: _("Every source"), "")
        for source in RUN_SOURCES:
            translated_item(self.source_filter, lambda source=source: source_word(source), source)
        self.search = QLineEdit()
        translated(self.search, "setPlaceholderText", lambda: _("Search titles, servers, files…"))
        translated(self.search, "setAccessibleName", lambda: _("Search runs"))
        name_clear_button(self.search, lambda: _("Clear the search"))
        readable_placeholder(self.search)
        self.delete_button = translated(QPushButton(), "setText", lambda: _("Delete…"))
        translated(self.delete_button, "setAccessibleName", lambda: _("Delete the selected runs"))
        self.delete_button.clicked.connect(lambda: self.delete_selected())
        filters = QHBoxLayout()
        filters.addWidget(translated(QLabel(), "setText", lambda: _("Runs")))
        filters.addWidget(self.outcome_filter)
        filters.addWidget(self.server_filter)
        filters.addWidget(self.source_filter)
        filters.addWidget(self.search, 1)
        filters.addWidget(self.delete_button)
        for combo in (self.outcome_filter, self.server_filter, self.source_filter):
            combo.currentIndexChanged.connect(self._filters_changed)
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(200)
        self._search_timer.timeout.connect(self._filters_changed)
        self.search.textChanged.connect(lambda _text: self._search_timer.start())

        self.run_view = QTableView()
        translated(self.run_view, "setAccessibleName", lambda: _("Stored runs"))
        self.run_view.setModel(self.runs)
        self.run_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.run_view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.run_view.setSortingEnabled(True)
        self.run_view.horizontalHeader().setSortIndicator(1, Qt.SortOrder.DescendingOrder)
        self.run_view.verticalHeader().hide()
        self.run_view.verticalHeader().setDefaultSectionSize(22)
        self.run_view.setWordWrap(False)
        header = self.run_view.horizontalHeader()
        translated(header, "setAccessibleName", lambda: _("Run list columns (click to sort)"))
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(False)
        for column, width in enumerate(RUN_WIDTHS):
            self.run_view.setColumnWidth(column, width)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.run_view.selectionModel().currentRowChanged.connect(self._run_changed)
        # A new sort order reads the list anew: the selection follows the runs, not the rows.
        self._before_reset: tuple[list[int], int | None] = ([], None)
        self.runs.modelAboutToBeReset.connect(self._remember_selection)
        self.runs.reset_done.connect(lambda: self._reselect(*self._before_reset))
        self.run_view.selectionModel().selectionChanged.connect(lambda *_args: self._update_buttons())
        runs_box = QWidget()
        runs_layout = QVBoxLayout(runs_box)
        runs_layout.setContentsMargins(4, 4, 4, 0)
        runs_layout.addLayout(filters)
        runs_layout.addWidget(self.run_view, 1)

        self.run_heading = QLabel()
        self.run_heading.setTextFormat(Qt.TextFormat.PlainText)
        translated(self.run_heading, "setAccessibleName", lambda: _("Selected run"))
        self.step_outcome_filter = QComboBox()
        label_combo(self.step_outcome_filter, lambda: _("Filter steps by outcome"))
        translated_item(self.step_outcome_filter, lambda: _("Every outcome"), None)
        for outcome in STEP_OUTCOMES:
            if outcome:
                translated_item(self.step_outcome_filter, lambda outcome=outcome: outcome_word(outcome), outcome,
                                icon=outcome_icon(outcome))
            else:
                translated_item(self.step_outcome_filter, lambda: _("no outcome"), outcome)
        self.kind_filter = QComboBox()
        label_combo(self.kind_filter, lambda: _("Filter steps by kind"))
        translated_item(self.kind_filter, lambda: _("Every kind"), None)
        for kind in StepKind:
            translated_item(self.kind_filter, lambda kind=kind: kind_word(kind.value), kind.value)
        for combo in (self.step_outcome_filter, self.kind_filter):
            combo.currentIndexChanged.connect(self._step_filter_changed)
        self.find_edit = QLineEdit()
        translated(self.find_edit, "setPlaceholderText", lambda: _("Find in this run (Ctrl+F)"))
        translated(self.find_edit, "setAccessibleName", lambda: _("Find in this run"))
        name_clear_button(self.find_edit, lambda: _("Clear the search in this run"))
        readable_placeholder(self.find_edit)
        self.find_edit.returnPressed.connect(self.find_next)
        self._find_timer = QTimer(self)
        self._find_timer.setSingleShot(True)
        self._find_timer.setInterval(250)
        self._find_timer.timeout.connect(self.find)
        self.find_edit.textChanged.connect(lambda _text: self._find_timer.start())
        self.previous_button = translated(QPushButton(), "setText", lambda: _("Previous"))
        translated(self.previous_button, "setAccessibleName", lambda: _("Previous match"))
        self.previous_button.clicked.connect(self.find_previous)
        self.next_button = translated(QPushButton(), "setText", lambda: _("Next"))
        translated(self.next_button, "setAccessibleName", lambda: _("Next match"))
        self.next_button.clicked.connect(self.find_next)
        self.find_status = QLabel()
        self.find_status.setTextFormat(Qt.TextFormat.PlainText)
        translated(self.find_status, "setAccessibleName", lambda: _("Matches"))
        step_bar = QHBoxLayout()
        step_bar.addWidget(self.step_outcome_filter)
        step_bar.addWidget(self.kind_filter)
        step_bar.addWidget(self.find_edit, 1)
        step_bar.addWidget(self.previous_button)
        step_bar.addWidget(self.next_button)
        step_bar.addWidget(self.find_status)

        self.timeline_view = QTableView()
        translated(self.timeline_view, "setAccessibleName", lambda: _("Timeline of the selected run"))
        self.timeline_view.setModel(self.timeline)
        self.timeline_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.timeline_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.timeline_view.verticalHeader().hide()
        # Fixed row heights: the view never asks every row for its size (a 100,000-step run).
        self.timeline_view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.timeline_view.verticalHeader().setDefaultSectionSize(22)
        self.timeline_view.setWordWrap(False)
        self.timeline_view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.waterfall = WaterfallDelegate(self.timeline_view)
        self.timeline_view.setItemDelegateForColumn(WATERFALL_COLUMN, self.waterfall)
        theader = self.timeline_view.horizontalHeader()
        translated(theader, "setAccessibleName", lambda: _("Timeline columns"))
        theader.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for column, width in enumerate(TIMELINE_WIDTHS):
            self.timeline_view.setColumnWidth(column, width)
        # The details take what room there is; the waterfall keeps its width, so it is always in view.
        theader.setStretchLastSection(False)
        theader.setSectionResizeMode(TIMELINE_COLUMNS.index("details"), QHeaderView.ResizeMode.Stretch)
        theader.setMinimumSectionSize(40)
        self.timeline_view.selectionModel().currentRowChanged.connect(self._step_changed)
        timeline_box = QWidget()
        timeline_layout = QVBoxLayout(timeline_box)
        timeline_layout.setContentsMargins(4, 0, 4, 4)
        timeline_layout.addWidget(self.run_heading)
        timeline_layout.addLayout(step_bar)
        timeline_layout.addWidget(self.timeline_view, 1)

        self.detail = StepDetail()
        self.lower = QSplitter(Qt.Orientation.Horizontal)
        self.lower.addWidget(timeline_box)
        self.lower.addWidget(self.detail)
        self.lower.setStretchFactor(0, 3)
        self.lower.setStretchFactor(1, 2)
        self.split = QSplitter(Qt.Orientation.Vertical)
        self.split.addWidget(runs_box)
        self.split.addWidget(self.lower)
        self.split.setStretchFactor(1, 3)
        self.split.setSizes([150, 550])
        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        translated(self.status, "setAccessibleName", lambda: _("Runs status"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.split, 1)
        layout.addWidget(self.status)

        find = QShortcut(QKeySequence.StandardKey.Find, self)
        find.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        find.activated.connect(self.focus_find)
        # Each shortcut says what it does (the Help menu's list of shortcuts reads it).
        translated(find, "setWhatsThis", lambda: _("Runs › Find in this run"))
        for sequence, slot, said in ((QKeySequence.StandardKey.FindNext, self.find_next,
                                      lambda: _("Runs › Next match")),
                                     (QKeySequence.StandardKey.FindPrevious, self.find_previous,
                                      lambda: _("Runs › Previous match"))):
            shortcut = QShortcut(sequence, self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)
            translated(shortcut, "setWhatsThis", said)
        delete = QShortcut(QKeySequence.StandardKey.Delete, self.run_view)
        translated(delete, "setWhatsThis", lambda: _("Runs › Delete the selected runs"))
        delete.setContext(Qt.ShortcutContext.WidgetShortcut)
        delete.activated.connect(lambda: self.delete_selected())
        self._update_buttons()
        self.fit_columns()
        on_language_changed(self, self.retranslate)

    def retranslate(self) -> None:
        """Say again what depends on the state, in the new language; make room for longer words."""
        if self.server_filter.count():
            self.server_filter.setItemText(0, _("Every server"))
        self._describe_run(self.timeline.run)
        if self._matches and self._match >= 0:
            self._say_match()
        elif self.find_edit.text().strip() and self.timeline.run is not None and not self._matches:
            self.find_status.setText(_("no match"))
        self.fit_columns()

    def fit_columns(self) -> None:
        """Columns wide enough for their heading and their longest usual word in the current language."""
        sample = datetime(2025, 12, 28, 23, 59, 59, 999000, tzinfo=UTC)
        words = {
            self.run_view: (RUN_WIDTHS, self.runs, {
                1: [format_started(sample)], 3: [outcome_word(s) for s in ("interrupted", "cancelled", "failed")],
                4: [source_word(s) for s in RUN_SOURCES], 6: ["100,000"], 7: [format_duration(3599)]}),
            self.timeline_view: (TIMELINE_WIDTHS, self.timeline, {
                0: [format_time(sample)], 1: [step_source("tool"), step_source("model")],
                4: [_("unfinished"), format_duration(3599)],
                5: [outcome_word(s) for s in ("cancelled", "failed", "ok")]}),
        }
        for view, (widths, model, samples) in words.items():
            header = view.horizontalHeader()
            head_metrics, cell_metrics = header.fontMetrics(), view.fontMetrics()
            for column, least in enumerate(widths):
                if header.sectionResizeMode(column) == QHeaderView.ResizeMode.Stretch:
                    continue
                heading = str(model.headerData(column, Qt.Orientation.Horizontal) or "")
                # Room for the sort arrow next to a heading, and for an outcome's icon next to its word.
                needed = max([least, head_metrics.horizontalAdvance(heading) + 30]
                             + [cell_metrics.horizontalAdvance(word) + 34 for word in samples.get(column, [])])
                view.setColumnWidth(column, needed)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self.arrange(event.size().width())

    def arrange(self, width: int) -> None:
        """The detail right of the timeline in a wide tab, under it in a narrow one."""
        wanted = Qt.Orientation.Horizontal if width >= WIDE_PX else Qt.Orientation.Vertical
        if self.lower.orientation() == wanted and self._arranged:
            return
        self._arranged = True
        self.lower.setOrientation(wanted)
        total = max(self.lower.width() if wanted == Qt.Orientation.Horizontal else self.lower.height(), 100)
        # Side by side the detail takes a third of the width; under the timeline, almost half the height.
        detail = total // 3 if wanted == Qt.Orientation.Horizontal else total * 9 // 20
        self.lower.setSizes([total - detail, detail])

    # -- the run list -----------------------------------------------------------------------------

    def current_filter(self) -> RunFilter:
        status = self.outcome_filter.currentData() or ""
        return RunFilter(statuses=(status,) if status else (), server=self.server_filter.currentData() or None,
                         source=self.source_filter.currentData() or None, text=self.search.text())

    def reload(self) -> None:
        """Read the list again (keeps the selected run selected when it is still listed)."""
        self._fill_servers()
        selected = self.selected_run_ids()
        current = self.current_run()
        self.runs.refresh()
        self._reselect(selected, current.id if current else None)
        self._update_buttons()

    def _fill_servers(self) -> None:
        servers = servers_with_runs(self.store)
        known = [self.server_filter.itemData(i) for i in range(1, self.server_filter.count())]
        if self.server_filter.count() and servers == known:
            return
        chosen = self.server_filter.currentData()
        self.server_filter.blockSignals(True)
        self.server_filter.clear()
        self.server_filter.addItem(_("Every server"), "")  # said again by retranslate()
        for server in servers:
            self.server_filter.addItem(cell_text(server, 80), server)
        position = self.server_filter.findData(chosen) if chosen else 0
        self.server_filter.setCurrentIndex(max(position, 0))
        self.server_filter.blockSignals(False)

    def _filters_changed(self) -> None:
        selected, current = self.selected_run_ids(), self.current_run()
        self.runs.filter = self.current_filter()
        self.runs.refresh(reset=True)
        self._reselect(selected, current.id if current else None)

    def _reselect(self, run_ids: Sequence[int], current: int | None) -> None:
        selection = self.run_view.selectionModel()
        current_row = self.runs.ensure_loaded(current) if current is not None else None
        rows = [row for row in (self.runs.row_of(run_id) for run_id in run_ids) if row is not None]
        if current_row is None:
            if self.timeline.run is not None and self.runs.row_of(self.timeline.run.id) is None:
                self._show_run(None)
            return
        selection.blockSignals(True)
        selection.clearSelection()
        for row in rows:
            selection.select(self.runs.index(row, 0), QItemSelectionModel.SelectionFlag.Select
                             | QItemSelectionModel.SelectionFlag.Rows)
        selection.setCurrentIndex(self.runs.index(current_row, 0), QItemSelectionModel.SelectionFlag.NoUpdate)
        selection.blockSignals(False)
        self.run_view.viewport().update()
        run = self.runs.run(current_row)
        if run is not None:
            self._show_run(run, keep=True)

    def _remember_selection(self) -> None:
        current = self.current_run()
        self._before_reset = (self.selected_run_ids(), current.id if current else None)

    def selected_run_ids(self) -> list[int]:
        rows = sorted({index.row() for index in self.run_view.selectionModel().selectedRows()})
        return [run.id for run in (self.runs.run(row) for row in rows) if run is not None]

    def current_run(self) -> RunRecord | None:
        index = self.run_view.selectionModel().currentIndex()
        return self.runs.run(index.row()) if index.isValid() else None

    def select_runs(self, run_ids: Sequence[int]) -> bool:
        """Select these runs (the first becomes current), clearing filters that hide them."""
        if not run_ids:
            return False
        if any(self.runs.ensure_loaded(run_id) is None for run_id in run_ids):
            self.clear_filters()
            self.runs.refresh(reset=True)
        rows = [row for row in (self.runs.ensure_loaded(run_id) for run_id in run_ids) if row is not None]
        if not rows:
            return False
        selection = self.run_view.selectionModel()
        selection.clearSelection()
        for row in rows:
            selection.select(self.runs.index(row, 0), QItemSelectionModel.SelectionFlag.Select
                             | QItemSelectionModel.SelectionFlag.Rows)
        selection.setCurrentIndex(self.runs.index(rows[0], 0), QItemSelectionModel.SelectionFlag.NoUpdate)
        self.run_view.scrollTo(self.runs.index(rows[0], 0))
        self._show_run(self.runs.run(rows[0]))
        return True

    def clear_filters(self) -> None:
        for combo in (self.outcome_filter, self.server_filter, self.source_filter):
            combo.blockSignals(True)
            combo.setCurrentIndex(0)
            combo.blockSignals(False)
        self.search.blockSignals(True)
        self.search.clear()
        self.search.blockSignals(False)
        self.runs.filter = RunFilter()

    def _run_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self._show_run(self.runs.run(current.row()) if current.isValid() else None)

    def _show_run(self, run: RunRecord | None, *, keep: bool = False) -> None:
        if keep and run is not None and self.timeline.run is not None and self.timeline.run.id == run.id:
            if run != self.timeline.run:
                self.timeline.refresh(run)
                self._describe_run(run)
            return
        self.timeline.set_run(run, self.step_filter())
        self._matches, self._match = [], -1
        self.find_status.setText("")
        self.detail.show_step(None)
        self._describe_run(run)
        if run is not None and self.timeline.rowCount():
            self.timeline_view.scrollToTop()
        if self.find_edit.text().strip():
            self.find()
        self.run_selected.emit(run.id if run is not None else -1)

    def _describe_run(self, run: RunRecord | None) -> None:
        if run is None:
            self.run_heading.setText(_("No run selected."))
            return
        count = self.timeline.rowCount()
        self.run_heading.setText(ngettext("Run {id}: {title} — {status}, {count} step",
                                          "Run {id}: {title} — {status}, {count} steps", count).format(
            id=run.id, title=cell_text(run.title, 80), status=outcome_word(run.status), count=format_number(count)))

    def _update_buttons(self) -> None:
        self.delete_button.setEnabled(bool(self.run_view.selectionModel().selectedRows()))

    # -- live updates -----------------------------------------------------------------------------

    def _poll(self) -> None:
        try:
            version = data_version(self.store)
        except Exception:  # noqa: BLE001 - a closed database after shut-down: stop asking
            self.poll.stop()
            return
        if version != self._version:
            self._version = version
            self.reload()

    def watch(self, engine: QObject) -> None:
        """Reload as soon as an operation of the workbench starts or ends (not only at the next poll)."""
        def submitted(task: QObject) -> None:
            QTimer.singleShot(50, self._poll)
            task.finished.connect(lambda _outcome: self._poll())
        engine.submitted.connect(submitted)

    # -- the timeline -------------------------------------------------------------------------------

    def step_filter(self) -> StepFilter:
        outcome = self.step_outcome_filter.currentData()
        kind = self.kind_filter.currentData()
        return StepFilter(outcomes=() if outcome is None else (outcome,), kinds=() if kind is None else (kind,))

    def _step_filter_changed(self) -> None:
        self.timeline.set_filter(self.step_filter())
        self.detail.show_step(None)
        self._describe_run(self.timeline.run)
        if self.find_edit.text().strip():
            self.find()

    def _step_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        step_id = current.siblingAtColumn(0).data(StepIdRole) if current.isValid() else None
        if step_id is None:
            self.detail.show_step(None)
            return
        try:
            self.detail.show_step(step_in_full(self.store, step_id))
        except UnknownRunError:
            self.detail.show_step(None)

    def select_step(self, row: int) -> None:
        index = self.timeline.index(row, 0)
        self.timeline_view.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
        self.timeline_view.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)

    # -- Find ---------------------------------------------------------------------------------------

    def focus_find(self) -> None:
        self.find_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.find_edit.selectAll()

    def find(self) -> list[int]:
        """Find the text of the Find field in the selected run; highlight the rows, go to the first."""
        self._find_timer.stop()
        run = self.timeline.run
        text = self.find_edit.text()
        self._matches = find_in_timeline(self.store, run.id, text, self.step_filter()) if run and text.strip() else []
        self._match = -1
        self.timeline.set_matches(self._matches)
        if not text.strip():
            self.find_status.setText("")
        elif not self._matches:
            self.find_status.setText(_("no match"))
        else:
            self.find_next()
        return self._matches

    def _go_to_match(self, step: int) -> None:
        if not self._matches:
            return
        self._match = (self._match + step) % len(self._matches)
        self.select_step(self._matches[self._match])
        self._say_match()

    def _say_match(self) -> None:
        self.find_status.setText(_("{number} of {count}").format(number=format_number(self._match + 1),
                                                                 count=format_number(len(self._matches))))

    def find_next(self) -> None:
        if self._find_timer.isActive() or (self.find_edit.text().strip() and not self._matches and self._match == -1
                                           and self.timeline.run is not None and not self.find_status.text()):
            self.find()
            return
        self._go_to_match(1)

    def find_previous(self) -> None:
        self._go_to_match(-1)

    # -- import -------------------------------------------------------------------------------------

    def choose_trace(self) -> None:
        path, _chosen = QFileDialog.getOpenFileName(
            self, _("Open trace"), "", _("Traces (*.json *.jsonl *.ndjson);;Every file (*)"))
        if path:
            self.open_trace(Path(path))

    def open_trace(self, path: Path) -> TransferJob | None:
        """Import ``path`` in a worker (with a progress dialog); then select its runs."""
        path = Path(path)
        if self._busy(lambda: self.open_trace(path)):
            return None
        job = import_job(self.db_path, path)
        job.finished.connect(lambda report, path=path: self._imported(path, report))
        job.failed.connect(lambda message: self._transfer_failed("import", message))
        job.cancelled.connect(lambda: self._transfer_cancelled("import", _("The import was cancelled; nothing "
                                                                            "was imported.")))
        self._start(job, _("Importing {name}…").format(name=cell_text(path.name, 80)))
        return job

    def _busy(self, later: Callable[[], object]) -> bool:
        """True (and ``later`` queued) while another transfer runs."""
        if self.job is not None and self.job.running:
            self._queue.append(later)
            return True
        return False

    def _start(self, job: TransferJob, label: str) -> None:
        self.job = job
        self.last_error = None
        self.dialog = TransferDialog(job, label, self.window())
        self.status.setText(label)
        job.start()

    def _imported(self, path: Path, report: object) -> None:
        from inspector.transfer import ImportReport

        assert isinstance(report, ImportReport)
        run_ids = list(report.run_ids)
        for uid in report.already_present:
            found = self.store.find_run_by_uid(uid)
            if found is not None:
                run_ids.append(found.id)
        self.reload()
        self.select_runs(run_ids)
        if report.runs_imported:
            message = ngettext("Imported {count} run from {name}.", "Imported {count} runs from {name}.",
                               report.runs_imported).format(count=report.runs_imported, name=path.name)
        else:
            message = ngettext("{name} was imported before: its run is selected.",
                               "{name} was imported before: its runs are selected.",
                               len(report.already_present)).format(name=path.name)
        self.status.setText(message)
        self._next_job()
        self.transfer_ended.emit("import", "ok", message)

    def _transfer_failed(self, kind: str, message: str) -> None:
        self.last_error = message
        self.status.setText(message)
        box = QMessageBox(QMessageBox.Icon.Warning, _("Run Inspector"), message, QMessageBox.StandardButton.Ok,
                          self.window())
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.open()
        self.error_box = box
        self._next_job()
        self.transfer_ended.emit(kind, "failed", message)

    def _transfer_cancelled(self, kind: str, message: str) -> None:
        self.status.setText(message)
        self._next_job()
        self.transfer_ended.emit(kind, "cancelled", message)

    def _next_job(self) -> None:
        self.job = None
        self.dialog = None
        if self._queue:
            self._queue.pop(0)()

    def cancel_transfer(self) -> None:
        if self.job is not None:
            self.job.cancel()

    # -- export -------------------------------------------------------------------------------------

    def choose_export(self, selected_only: bool) -> None:
        run_ids = self.selected_run_ids() if selected_only else self.runs.run_ids()
        if not run_ids:
            self.status.setText(_("There is no run to export: select runs or widen the filters."))
            return
        trace_filter, otlp_filter = _("Run Inspector trace (*.json)"), _("OTLP JSON for OpenTelemetry (*.json)")
        path, chosen = QFileDialog.getSaveFileName(self, _("Export runs"), "runs.json",
                                                   f"{trace_filter};;{otlp_filter}")
        if path:
            self.export_runs(Path(path), "otlp" if chosen == otlp_filter else "trace", run_ids)

    def export_runs(self, destination: Path, file_format: str,
                    run_ids: Sequence[int] | None = None) -> TransferJob | None:
        """Export ``run_ids`` (default: the selected runs, else the listed ones) in a worker."""
        if run_ids is None:
            run_ids = self.selected_run_ids() or self.runs.run_ids()
        chosen = list(run_ids)
        if self._busy(lambda: self.export_runs(destination, file_format, chosen)):
            return None
        job = export_job(self.db_path, run_ids, Path(destination), file_format)
        count = len(run_ids)
        job.finished.connect(lambda report: self._exported(report))
        job.failed.connect(lambda message: self._transfer_failed("export", message))
        job.cancelled.connect(lambda: self._transfer_cancelled("export", _("The export was cancelled; no file "
                                                                            "was written.")))
        self._start(job, ngettext("Exporting {count} run…", "Exporting {count} runs…", count).format(count=count))
        return job

    def _exported(self, report: object) -> None:
        from inspector.transfer import ExportReport

        assert isinstance(report, ExportReport)
        message = ngettext("Exported {count} run to {path}.", "Exported {count} runs to {path}.",
                           report.runs).format(count=report.runs, path=report.path)
        self.status.setText(message)
        self._next_job()
        self.transfer_ended.emit("export", "ok", message)

    # -- delete -------------------------------------------------------------------------------------

    def delete_selected(self, *, confirm: bool = True) -> TransferJob | None:
        """Delete the selected runs, after a confirmation naming how many, in a worker (a run of
        100,000 steps takes a while to delete); ``transfer_ended`` says how many went."""
        run_ids = self.selected_run_ids()
        if not run_ids:
            return None
        count = len(run_ids)
        if confirm:
            answer = QMessageBox.question(self, _("Delete runs"), ngettext(
                "Delete {count} run and all its steps? This cannot be undone.",
                "Delete {count} runs and all their steps? This cannot be undone.", count).format(count=count))
            if answer != QMessageBox.StandardButton.Yes:
                return None
        return self.delete_runs(run_ids)

    def delete_runs(self, run_ids: Sequence[int]) -> TransferJob | None:
        """Delete these runs in a worker (no question asked)."""
        chosen = list(run_ids)
        if self._busy(lambda: self.delete_runs(chosen)):
            return None
        job = TransferJob(lambda store, _progress: delete_runs(store, chosen), self.db_path)
        job.finished.connect(lambda deleted: self._deleted(len(chosen), deleted))
        job.failed.connect(lambda message: self._transfer_failed("delete", message))
        job.cancelled.connect(lambda: self._transfer_cancelled("delete", _("Nothing was deleted.")))
        self._start(job, ngettext("Deleting {count} run…", "Deleting {count} runs…", len(chosen)).format(
            count=len(chosen)))
        return job

    def _deleted(self, count: int, deleted: object) -> None:
        deleted = int(deleted) if isinstance(deleted, int) else 0
        kept = count - deleted
        message = ngettext("Deleted {count} run.", "Deleted {count} runs.", deleted).format(count=deleted)
        if kept:
            message += " " + ngettext("{count} run is still running and was kept.",
                                      "{count} runs are still running and were kept.", kept).format(count=kept)
        self.status.setText(message)
        self.run_view.selectionModel().clearSelection()
        self.reload()
        if self.timeline.run is not None and self.runs.row_of(self.timeline.run.id) is None:
            self._show_run(None)
        self._next_job()
        self.transfer_ended.emit("delete", "ok", message)

    # -- drops ------------------------------------------------------------------------------------------

    def accept_drops_on(self, widget: QWidget) -> None:
        """Let trace files dropped anywhere on ``widget`` (the window) be imported."""
        widget.setAcceptDrops(True)
        self._drop_filter = _DropFilter(self)
        widget.installEventFilter(self._drop_filter)

    def show_me(self) -> None:
        """Bring this tab to the front of the tab widget it lives in."""
        parent = self.parentWidget()
        while parent is not None:
            if isinstance(parent, QTabWidget):
                parent.setCurrentWidget(self)
                return
            parent = parent.parentWidget()

    def shut_down(self) -> None:
        """Stop polling; cancel a transfer and wait for it briefly (it writes nothing once cancelled)."""
        self.poll.stop()
        self._queue.clear()
        if self.job is not None:
            self.job.cancel()
            self.job.join(5)


def dropped_files(event: QDragEnterEvent | QDropEvent) -> list[Path]:
    mime = event.mimeData()
    if mime is None or not mime.hasUrls():
        return []
    return [Path(url.toLocalFile()) for url in mime.urls() if url.isLocalFile() and url.toLocalFile()]


class _DropFilter(QObject):
    """Accepts files dragged onto the window and hands them to the Runs tab to import."""

    def __init__(self, tab: RunsTab) -> None:
        super().__init__(tab)
        self.tab = tab

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() in (QEvent.Type.DragEnter, QEvent.Type.DragMove) and dropped_files(event):
            event.acceptProposedAction()
            return True
        if event.type() == QEvent.Type.Drop:
            files = dropped_files(event)
            if files:
                event.acceptProposedAction()
                self.tab.show_me()
                for path in files:
                    self.tab.open_trace(path)
                return True
        return False


__all__ = ["RunsTab", "dropped_files"]
