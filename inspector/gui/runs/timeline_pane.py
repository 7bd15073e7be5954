"""The Runs tab's timeline pane: the selected run's heading, the step filters, Find in the run, and
the steps with their waterfall. Says which step is selected; the tab shows its detail."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _
from inspector.i18n.formatting import format_number
from inspector.i18n.recovery import recovery_text
from inspector.i18n.scenarios import said_title
from inspector.i18n.words import kind_word, no_outcome_word
from inspector.runs import StepKind
from inspector.store import RunRecord, RunStore
from inspector.store.browse import StepFilter
from inspector.store.recovery import recovery_of

from ..language import translated, translated_item
from ..widgets.accessibility import label_combo, name_clear_button
from ..widgets.elided_label import ElidedLabel
from ..widgets.fitted_placeholder import fitted_placeholder
from ..widgets.hints import readable_placeholder
from ..widgets.keep_in_view import KeepCurrentInView
from ..widgets.outcomes import outcome_icon, outcome_word
from ..widgets.plain_text import cell_text
from ..widgets.tab_stops import one_tab_stop
from .columns import compact_rows, fit_columns
from .notes import NoteLabel
from .run_identity import RunIdentity
from .runs_model import format_duration
from .time_axis import TimeAxisHeader
from .timeline_model import (
    COLUMNS,
    OUTCOME_COLUMN,
    WATERFALL_COLUMN,
    StepIdRole,
    TimelineGrowth,
    TimelineModel,
    format_time,
    step_source,
)
from .timeline_words import empty_note_text, heading_text, no_match_text, show_heading
from .tree_cell import TreeCellDelegate
from .tree_controls import SpanTreeControls
from .waterfall import WaterfallDelegate

STEP_OUTCOMES = ("ok", "failed", "cancelled", "")
#: The columns' least widths; :meth:`TimelinePane.fit_columns` widens them for longer words (German).
TIMELINE_WIDTHS = (94, 46, 44, 40, 60, 96, 160, 100)
#: Below this width the source column is hidden: the kind says it too (a tool call is the MCP
#: client's, a model's step the agent's), and the details need the room more.
SOURCE_COLUMN_FROM_PX = 760
#: The run's uid line is shown where the pane has room for this many steps beside it.
IDENTITY_FROM_ROWS = 6


class TimelinePane(QWidget):
    """One run's steps, read in pages; Find highlights the steps that hold a text."""

    #: The selected step changed: its id, or ``None``.
    step_changed = Signal(object)
    said = Signal(str)  # a sentence for the tab's status line (where Find's matches are hidden)

    def __init__(self, store: RunStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.model = TimelineModel(store)
        self._matches: list[int] = []
        self._match = -1
        #: (run id, how many steps it has) as last counted, for a filtered heading.
        self._total: tuple[int, int] | None = None
        #: The run read last, and its failed calls and all its calls when the model got over them.
        self._recovered: tuple[int, tuple[int, int] | None] | None = None
        self.heading = ElidedLabel()  # a run's long title is cut, never makes the window wider
        translated(self.heading, "setAccessibleName", lambda: _("Selected run"))
        self.identity = RunIdentity()  # its uid (Copy uid) and, imported, where it came from
        self.run_note = NoteLabel(lambda: _("Note on the run"))
        self.note_button = translated(QPushButton(), "setText", lambda: _("Note…"))
        translated(self.note_button, "setAccessibleName", lambda: _("Write a note on the selected run"))
        self.note_button.setEnabled(False)
        self._build_filters()
        self._build_find()
        self._build_view()
        bar = QHBoxLayout()
        for widget in (self.outcome_filter, self.kind_filter):
            bar.addWidget(widget)
        bar.addWidget(self.find_edit, 1)
        for widget in (self.previous_button, self.next_button, self.find_status, self.note_button):
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

    def _build_find(self) -> None:
        self.find_edit = QLineEdit()
        # "Find…" where the pane is too narrow for the shortcut too (it was cut to "Such…" in German);
        # the tip says where it finds. No least width of its own: the pane's decides whether the step's
        # detail stands beside the timeline (German at 1200 px wide), so at the very least it is cut still.
        fitted_placeholder(self.find_edit, lambda: _("Find… (Ctrl+F)"), lambda: _("Find…"),
                           lambda: _("Find in this run (Ctrl+F)"), keep_room=False)
        translated(self.find_edit, "setAccessibleName", lambda: _("Find in this run"))
        name_clear_button(self.find_edit, lambda: _("Clear the search in this run"))
        readable_placeholder(self.find_edit)
        self.find_edit.returnPressed.connect(self.find_next)
        self._find_timer = QTimer(self)
        self._find_timer.setSingleShot(True)
        self._find_timer.setInterval(250)
        self._find_timer.timeout.connect(self.find)
        self.find_edit.textChanged.connect(lambda _text: self._find_timer.start())
        # Arrows, as a browser's find bar has them: the search field keeps the room in a narrow pane.
        self.previous_button = _arrow_button(Qt.ArrowType.UpArrow, lambda: _("Previous match"))
        self.previous_button.clicked.connect(self.find_previous)
        self.next_button = _arrow_button(Qt.ArrowType.DownArrow, lambda: _("Next match (Enter)"))
        translated(self.next_button, "setAccessibleName", lambda: _("Next match"))
        self.next_button.clicked.connect(self.find_next)
        self.find_status = QLabel()
        self.find_status.setTextFormat(Qt.TextFormat.PlainText)
        translated(self.find_status, "setAccessibleName", lambda: _("Matches"))

    def _build_view(self) -> None:
        self.view = one_tab_stop(QTableView())
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
        self.tree_cell = TreeCellDelegate(self.view)
        self.view.setItemDelegateForColumn(COLUMNS.index("details"), self.tree_cell)
        # A run from a trace: folding its spans (keys, Find) and the plumbing toggle.
        self.tree_controls = SpanTreeControls(self)
        self.plumbing_toggle = self.tree_controls.plumbing_toggle
        header = self.view.horizontalHeader()
        translated(header, "setAccessibleName", lambda: _("Timeline columns"))
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for column, width in enumerate(TIMELINE_WIDTHS):
            self.view.setColumnWidth(column, width)
        # The details take what room there is; the waterfall keeps its width, so it is always in view.
        header.setStretchLastSection(False)
        header.setSectionResizeMode(COLUMNS.index("details"), QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(36)
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
        if self._matches and self._match >= 0:
            self._say_match()
        elif self.find_edit.text().strip() and self.model.run is not None and not self._matches:
            self.find_status.setText(_("no match"))
        self.fit_columns()

    def fit_columns(self) -> None:
        fit_columns(self.view, TIMELINE_WIDTHS, {
            COLUMNS.index("time"): self.model.zone_marks.samples(lambda at: format_time(at, UTC)),
            COLUMNS.index("source"): [step_source("tool"), step_source("model")],
            COLUMNS.index("kind"): [kind.value for kind in StepKind if len(kind.value) <= 8],
            COLUMNS.index("duration"): [_("unfinished"), format_duration(3599)],
            OUTCOME_COLUMN: [outcome_word(s) for s in ("cancelled", "failed", "ok")]}, icons=(OUTCOME_COLUMN,))

    def height_for_rows(self, rows: int) -> int:
        """The pane's height that shows ``rows`` whole steps (and a sliver of the next) under its
        heading, note and filters."""
        layout = self.layout()
        margins = layout.contentsMargins()
        above = [layout.itemAt(index) for index in range(layout.count())]
        above = [item for item in above if item.widget() is not self.view and not item.isEmpty()]
        row = self.view.verticalHeader().defaultSectionSize()
        chrome = self.view.horizontalHeader().sizeHint().height() + 2 * self.view.frameWidth()
        return (margins.top() + margins.bottom() + sum(item.sizeHint().height() for item in above)
                + layout.spacing() * len(above) + chrome + row * rows + row // 4)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._fit_identity(event.size().height())
        self._fit_heading(event.size().width())
        self._place_empty_note()
        self.view.setColumnHidden(COLUMNS.index("source"), event.size().width() < SOURCE_COLUMN_FROM_PX)

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
        self._matches, self._match = [], -1
        self.find_status.setText("")
        self.step_changed.emit(None)
        self.describe(run)
        if run is not None and self.model.rowCount():
            if run.status == "running":
                # A run still growing, shown afresh, opens at its newest step (and is followed from there).
                QTimer.singleShot(0, self.view.scrollToBottom)
            else:
                self.view.scrollToTop()
        if self.find_edit.text().strip():
            self.find()

    def describe(self, run: RunRecord | None, recount: bool = True, total: int | None = None) -> None:
        """The heading (and the note over empty rows) for ``run``; ``recount=False`` (a change of
        language) reuses the count of the run's steps read last; ``total``: that count, read already."""
        shown = self.model.step_count
        self.view.horizontalHeader().viewport().update()  # the time axis: the run's length may have changed
        # A run without rounds (one operation, a trace) would show a column of dashes: its room goes to the details.
        self.view.setColumnHidden(COLUMNS.index("round"), run is not None and not self.model.has_rounds)
        self.plumbing_toggle.setVisible(self.model.plumbing_count > 0)
        self.note_button.setEnabled(run is not None)
        self.run_note.show_note(run.note if run is not None else "")
        self.identity.show_run(run)
        if run is None:
            self.heading.setText(_("No run selected."))
            self._say_empty(_("Select a run in the list above to see its steps here."))
            return
        hidden = 0 if self.model.show_plumbing else self.model.plumbing_count
        filtered = self.step_filter() != StepFilter()
        if (filtered or hidden) and (recount or self._total is None or self._total[0] != run.id):
            self._total = (run.id, total if total is not None else self.store.count_steps(run.id))
        total = self._total[1] if (filtered or hidden) and self._total else shown
        if recount or self._recovered is None or self._recovered[0] != run.id:
            found = recovery_of(self.store, run)
            self._recovered = (run.id, (found.failed, found.calls) if found else None)
        recovery = self._recovered[1]
        show_heading(self.heading, heading_text(run, shown=shown, total=total, filtered=filtered, hidden=hidden,
                                                hidden_matched=self.model.hidden_plumbing, recovery=recovery),
                     cell_text(said_title(run.title, run.source), 80), recovery_text(*recovery) if recovery else "")
        self._fit_heading(self.width())
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
        if self.find_edit.text().strip():
            self.find()

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.step_changed.emit(current.siblingAtColumn(0).data(StepIdRole) if current.isValid() else None)

    def select_step(self, row: int) -> None:
        index = self.model.index(row, 0)
        self.view.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
        self.view.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)

    # -- Find -------------------------------------------------------------------------------------

    def focus_find(self) -> None:
        self.find_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.find_edit.selectAll()

    def find(self) -> list[int]:
        """Find the text of the Find field in the run; highlight the rows, go to the first."""
        self._find_timer.stop()
        run = self.model.run
        text = self.find_edit.text()
        self._matches = self.model.find(text) if run and text.strip() else []
        self._match = -1
        self.model.set_matches(self._matches)
        if not text.strip():
            self.find_status.setText("")
        elif not self._matches:
            short, sentence = no_match_text(self.model.found_hidden)
            self.find_status.setText(short)
            if sentence:
                self.said.emit(sentence)
        else:
            self.find_next()
        return self._matches

    def keep_matches_showing(self) -> None:
        """Rows were folded or unfolded (a span tree): Find's matches are those showing now."""
        if not self._matches:
            return
        self._matches = self.model.find(self.find_edit.text(), reveal=False)
        self.model.set_matches(self._matches)
        row = self.view.currentIndex().row()
        # On a match: that one; else Next goes to the first match below the current row.
        self._match = self._matches.index(row) if row in self._matches else \
            max((number for number, match in enumerate(self._matches) if match < row), default=-1)
        if self._matches and row in self._matches:
            self._say_match()
        else:
            self.find_status.setText("" if self._matches else _("no match"))

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
                                           and self.model.run is not None and not self.find_status.text()):
            self.find()
            return
        self._go_to_match(1)

    def find_previous(self) -> None:
        self._go_to_match(-1)


def _arrow_button(arrow: Qt.ArrowType, tip: Callable[[], str]) -> QToolButton:
    """A small arrow button of the find bar; its tip and accessible name say what it does."""
    button = QToolButton()
    button.setArrowType(arrow)
    button.setAutoRaise(False)
    translated(button, "setToolTip", tip)
    translated(button, "setAccessibleName", tip)
    return button


__all__ = ["STEP_OUTCOMES", "TIMELINE_WIDTHS", "TimelinePane"]
