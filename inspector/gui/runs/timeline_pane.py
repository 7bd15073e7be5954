"""The Runs tab's timeline pane: the selected run's heading (:mod:`.timeline_heading`), the step
filters, Find in the run (:mod:`.find_in_run`), and the steps with their waterfall. Says which step is
selected; the tab shows its detail."""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _
from inspector.i18n.words import kind_word, no_outcome_word
from inspector.runs import StepKind
from inspector.store import RunRecord, RunStore
from inspector.store.browse import StepFilter

from ..language import translated, translated_item
from ..widgets.accessibility import label_combo
from ..widgets.font_follower import FontFollower
from ..widgets.keep_in_view import KeepCurrentInView, top_row_whole
from ..widgets.outcomes import outcome_icon, outcome_word
from ..widgets.paged_table import PagedTableView
from ..widgets.tab_stops import one_tab_stop
from .columns import compact_rows, rows_height
from .find_in_run import FindInRun
from .layout_arrival import LayoutArrival
from .notes import NoteLabel
from .outcome_cell import OutcomeCellDelegate
from .time_axis import TimeAxisHeader
from .timeline_columns import TIMELINE_WIDTHS, TimelineColumns
from .timeline_heading import TimelineHeading
from .timeline_model import (
    COLUMNS,
    OUTCOME_COLUMN,
    WATERFALL_COLUMN,
    StepIdRole,
    TimelineGrowth,
    TimelineModel,
)
from .timeline_words import empty_note_text, laying_out_text
from .tree_cell import TreeCellDelegate
from .tree_controls import SpanTreeControls
from .waterfall import WaterfallDelegate

STEP_OUTCOMES = ("ok", "failed", "cancelled", "")
#: The characters of a failed step's reason the Details column has room for where the tab can spare it
#: (beside the detail, which then keeps its least width): "flaky: Aufruf 2 ist fehlgeschlagen" is 34.
REASON_CHARS = 36
#: The run's uid line is shown where the pane has room for this many steps beside it.
IDENTITY_FROM_ROWS = 6


class TimelinePane(QWidget):
    """One run's steps, read in pages; Find highlights the steps that hold a text."""

    #: The selected step changed: its id, or ``None``.
    step_changed = Signal(object)
    said = Signal(str)  # a sentence for the tab's status line (where Find's matches are hidden)
    restated = Signal(str, str)  # that sentence taken back or said anew (FindInRun.restated)
    columns_fitted = Signal()  # the columns were fitted to the run's words: :meth:`wanted_width` may be another

    def __init__(self, store: RunStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.model = TimelineModel(store)
        self.titled = TimelineHeading(store, self.model)
        self.heading, self.identity = self.titled.label, self.titled.identity
        self.run_note = NoteLabel(lambda: _("Note on the run"))
        self.note_button = translated(QPushButton(), "setText", lambda: _("Note…"))
        translated(self.note_button, "setAccessibleName", lambda: _("Write a note on the selected run"))
        # Its tip says whose note it writes: the step detail beside has a "Note…" button too (the step's).
        translated(self.note_button, "setToolTip", lambda: _("Write a note on the selected run (Ctrl+Shift+N)"))
        self.note_button.setEnabled(False)
        self._build_filters()
        self._build_view()
        self.finder = FindInRun(self.model, self.view, self.select_step, self)
        self.finder.said.connect(self.said)
        self.finder.restated.connect(self.restated)
        self.find_edit, self.find_status = self.finder.edit, self.finder.status  # as tests name them
        bar = self._find_row = QHBoxLayout()
        for widget in (self.outcome_filter, self.kind_filter):
            bar.addWidget(widget)
        bar.addWidget(self.find_edit, 1)
        for widget in (*self.finder.widgets, self.note_button):
            bar.addWidget(widget)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 4)
        layout.setSpacing(2)
        top = self._heading_row = QHBoxLayout()
        top.addWidget(self.heading, 1)
        top.addWidget(self.plumbing_toggle)
        layout.addLayout(top)
        layout.addWidget(self.identity)
        layout.addWidget(self.run_note)
        layout.addLayout(bar)
        layout.addWidget(self.view, 1)
        self.fit_columns()
        self.model.zone_marks.grew.connect(self.fit_columns)
        # View › Zoom: the columns grow with their words, and the source column gives way sooner.
        FontFollower(self.view, lambda: (self.fit_columns(), self.columns.fit_source(self.width())))
        self.model.said_outcomes.changed.connect(self.columns.fit_outcome)
        self.model.column_words.grew.connect(self.columns.fit_said)
        self.arrival = LayoutArrival(self)  # a long run's span tree laid out on the reader thread shows
        self.model.not_laid_out.connect(lambda: self.describe(self.model.run))
        self.describe(None)  # what to do while no run is chosen

    def _build_filters(self) -> None:
        self.outcome_filter = QComboBox()
        label_combo(self.outcome_filter, lambda: _("Filter steps by outcome"))
        translated_item(self.outcome_filter, lambda: _("Every outcome"), None)
        for outcome in STEP_OUTCOMES:
            if outcome:
                translated_item(self.outcome_filter, lambda outcome=outcome: outcome_word(outcome), outcome,
                                icon=outcome_icon(outcome))
            else:
                translated_item(self.outcome_filter, no_outcome_word, outcome)
        self.kind_filter = QComboBox()
        label_combo(self.kind_filter, lambda: _("Filter steps by kind"))
        translated_item(self.kind_filter, lambda: _("Every kind"), None)
        for kind in StepKind:
            translated_item(self.kind_filter, lambda kind=kind: kind_word(kind.value), kind.value)
        for combo in (self.outcome_filter, self.kind_filter):
            combo.currentIndexChanged.connect(self._filter_changed)

    def _build_view(self) -> None:
        self.view = one_tab_stop(PagedTableView())  # a letter typed walks no row (Find is the search)
        self.view.setHorizontalHeader(TimeAxisHeader(WATERFALL_COLUMN, self.view))
        translated(self.view, "setAccessibleName", lambda: _("Timeline of the selected run"))
        self.view.setModel(self.model)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        # Fixed row heights: the view never asks every row for its size (a 100,000-step run).
        compact_rows(self.view)
        self.view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.waterfall = WaterfallDelegate(self.view)
        self.view.setItemDelegateForColumn(WATERFALL_COLUMN, self.waterfall)
        self.outcome_cell = OutcomeCellDelegate(self.view)
        self.view.setItemDelegateForColumn(OUTCOME_COLUMN, self.outcome_cell)
        self.tree_cell = TreeCellDelegate(self.view)
        self.view.setItemDelegateForColumn(COLUMNS.index("details"), self.tree_cell)
        # A run from a trace: folding its spans (keys, Find) and the plumbing toggle.
        self.tree_controls = SpanTreeControls(self)
        self.plumbing_toggle = self.tree_controls.plumbing_toggle
        translated(self.view.horizontalHeader(), "setAccessibleName", lambda: _("Timeline columns"))
        self.columns = TimelineColumns(self.view, self.model)
        self.columns.fitted.connect(self.columns_fitted)
        self.view.selectionModel().currentRowChanged.connect(self._current_changed)
        KeepCurrentInView(self.view)  # a dock growing under it does not hide the step shown in the detail
        # Over the empty rows: why there are none (a filter matching nothing says so).
        self.empty_note = QLabel(self.view.viewport())
        self.empty_note.setTextFormat(Qt.TextFormat.PlainText)
        self.empty_note.setWordWrap(True)
        self.empty_note.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.empty_note.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.empty_note.hide()

    def retranslate(self) -> None:
        self.describe(self.model.run, recount=False)
        self.finder.retranslate()
        self.fit_columns()

    def fit_columns(self) -> None:
        """The columns fitted to their words in the language and the font of the moment (:mod:`.timeline_columns`)."""
        self.columns.fit()

    def stand_alone(self, alone: bool) -> None:
        """The detail under the timeline (``alone``: the pane has the tab's whole width) or beside it:
        alone, Find's field keeps the room of "Find…" (at the window's least width it was cut to "Such…")."""
        self.finder.placeholder.keep_room(alone)

    def wanted_width(self) -> int:
        """The pane's width that leaves its Details column room for :data:`REASON_CHARS` characters beside the
        other columns as wide as they are; the source column too where the pane is then wide enough to show it
        (below that it gives way first); at least its heading's row's (:meth:`_heading_row_width`)."""
        bar = self.view.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, self.view)
        margins = self.layout().contentsMargins()
        wanted = (self.columns.others_width() + self.view.fontMetrics().averageCharWidth() * REASON_CHARS + bar
                  + 2 * self.view.frameWidth() + margins.left() + margins.right())
        with_source = wanted + self.view.horizontalHeader().sectionSize(COLUMNS.index("source"))
        wanted = with_source if with_source >= self.columns.source_from_px() else wanted
        return max(wanted, self._heading_row_width())

    def _heading_row_width(self) -> int:
        """The pane's width that holds the heading's least beside the plumbing toggle saying "Show plumbing" (where
        it shows): the columns fitted to the run's words (narrower) left the toggle saying "Plumbing" at 1,280 px."""
        if not self.plumbing_toggle.isVisibleTo(self):
            return 0
        margins = self.layout().contentsMargins()
        return (margins.left() + margins.right() + self.heading.least_width() + self._heading_row.spacing()
                + self.tree_controls.long_width())

    def least_width_alone(self) -> int:
        """The pane's least width alone in the tab: Find's field with the room of "Find…"."""
        return self._least_width(self.finder.placeholder.short_room())

    def least_width_beside(self) -> int:
        """The pane's least width beside the detail, Find's field as narrow as it may be there: whether
        the two fit side by side does not depend on where they stand now."""
        return self._least_width(0)

    def _least_width(self, find_least: int) -> int:
        """The pane's least width were Find's field at least ``find_least`` wide."""
        edit, layout = self.find_edit, self.layout()
        now = edit.minimumWidth() or edit.minimumSizeHint().width()
        extra = max(find_least, edit.minimumSizeHint().width()) - now
        widths = [item.minimumSize().width() + (extra if item.layout() is self._find_row else 0)
                  for item in (layout.itemAt(index) for index in range(layout.count()))]
        margins = layout.contentsMargins()
        return max(widths) + margins.left() + margins.right()

    def height_for_rows(self, rows: int) -> int:
        """The pane's height that shows ``rows`` whole steps (and a sliver of the next) under its
        heading, note and filters."""
        return rows_height(self.layout(), self.view, rows)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._fit_identity(event.size().height())
        self._fit_heading(event.size().width())
        self._place_empty_note()
        self.columns.fit_source(event.size().width())

    def _fit_heading(self, width: int) -> None:
        """The plumbing toggle says less where the heading's status and counts need its room."""
        margins = self.layout().contentsMargins()
        room = width - margins.left() - margins.right() - self.heading.least_width() - self._heading_row.spacing()
        self.tree_controls.fit_toggle(room)

    def _fit_identity(self, height: int) -> None:
        """The uid line only where the pane shows :data:`IDENTITY_FROM_ROWS` steps beside it: in a low
        window the steps keep its room (``runs show`` still names the uid; a taller window shows it)."""
        line = self.identity.sizeHint().height() + self.layout().spacing()
        without = self.height_for_rows(IDENTITY_FROM_ROWS) - (line if self.identity.isVisibleTo(self) else 0)
        self.identity.set_room(height >= without + line)

    # -- which run ------------------------------------------------------------------------------

    @property
    def run(self) -> RunRecord | None:
        return self.model.run

    def show_run(self, run: RunRecord | None, *, keep: bool = False, growth: TimelineGrowth | None = None) -> None:
        """Show ``run``'s steps; with ``keep``, the same run read again keeps its rows and selection
        (``growth``: its new rows read already, by a reader thread)."""
        if keep and run is not None and self.model.run is not None and self.model.run.id == run.id:
            if run != self.model.run:
                self.model.refresh(run, growth)
                self.describe(run, total=growth.total if growth is not None else None)
            return
        self.model.set_run(run, self.step_filter())
        self.arrival.forget()
        self.finder.forget()
        self.step_changed.emit(None)
        self.describe(run)
        if run is not None and self.model.rowCount():
            if run.status == "running":
                # A run still growing, shown afresh, opens at its newest step (and is followed from there).
                QTimer.singleShot(0, self.view.scrollToBottom)
            else:
                self.view.scrollToTop()
        self.finder.again()

    def describe(self, run: RunRecord | None, recount: bool = True, total: int | None = None) -> None:
        """The heading (and the note over empty rows) for ``run``; ``recount=False`` (a change of
        language) reuses the count of the run's steps read last; ``total``: that count, read already (a span tree's rows
        are of the count it was read with: :attr:`.TimelineModel.tree_total`)."""
        shown = self.model.step_count
        self.view.horizontalHeader().viewport().update()  # the time axis: the run's length may have changed
        self.columns.fit_time()  # a run over more than one day says its steps' dates
        self.columns.hide_round(run is not None and not self.model.has_rounds)
        self.plumbing_toggle.setVisible(self.model.plumbing_count > 0)
        self.tree_controls.count_hidden_notes(run, recount)
        self.note_button.setEnabled(run is not None)
        self.run_note.show_note(run.note if run is not None else "")
        filtered = self.step_filter() != StepFilter()
        # A span tree's rows are of the steps it was read with (a growing run's until it is laid out anew); while a
        # long run is laid out no row shows: the heading says its steps, not how many a filter shows.
        total = self.titled.show_run(run, filtered=filtered and not self.model.laying_out, recount=recount,
                                     total=total if self.model.tree_total is None else self.model.tree_total)
        if run is None:
            self._say_empty(_("Select a run in the list above to see its steps here."))
            return
        self._fit_heading(self.width())
        if self.model.laying_out:  # a long run's span tree, on the reader thread: its rows show when it comes
            self._say_empty(laying_out_text(self.model.laying_out))
            return
        if not shown and self.model.refusals.said:  # not "no steps": they could not be read (the status line says why)
            self._say_empty(_("This run's steps could not be read."))
            return
        hidden = 0 if self.model.show_plumbing else self.model.plumbing_count
        self._say_empty(None if shown else empty_note_text(run, filtered=filtered, total=total, hidden=hidden,
                                                           matched_plumbing=self.model.hidden_plumbing))

    def _say_empty(self, sentence: str | None) -> None:
        """The note over an empty timeline: why no row shows (``None``: rows show, no note)."""
        self.empty_note.setText(sentence or "")
        self.empty_note.setVisible(bool(sentence))
        self._place_empty_note()

    def _place_empty_note(self) -> None:
        viewport = self.view.viewport()
        self.empty_note.setGeometry(12, 12, max(viewport.width() - 24, 40), max(viewport.height() - 24, 40))

    # -- steps ----------------------------------------------------------------------------------

    def step_filter(self) -> StepFilter:
        outcome = self.outcome_filter.currentData()
        kind = self.kind_filter.currentData()
        return StepFilter(outcomes=() if outcome is None else (outcome,), kinds=() if kind is None else (kind,))

    def _filter_changed(self) -> None:
        self.model.set_filter(self.step_filter())
        self.step_changed.emit(None)
        self.describe(self.model.run)
        self.finder.again()

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.step_changed.emit(current.siblingAtColumn(0).data(StepIdRole) if current.isValid() else None)

    def select_step(self, row: int) -> None:
        index = self.model.index(row, 0)
        self.view.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
        self.view.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)
        top_row_whole(self.view, row)  # centred, the row above it was cut in half at the top


__all__ = ["STEP_OUTCOMES", "TIMELINE_WIDTHS", "TimelinePane"]
