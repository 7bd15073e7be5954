"""A run's timeline as a table model that reads its rows from SQLite in pages, as the view asks.

``rowCount`` is the number of steps the filter selects (one ``COUNT``); ``data`` for a row reads
the page that holds it (:data:`PAGE_SIZE` light rows, built in SQL from clipped fields) and keeps
at most :data:`CACHED_PAGES` pages. Opening a run of any size reads one page; dragging the
scroll bar to the end reads the pages shown on the way, not the ones skipped. The waterfall's
scale comes from the run's start and end (:func:`inspector.store.browse.run_span`), never from
reading every row. What the cells say is :mod:`.timeline_cells`'s.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QColor

from inspector.i18n import _, formatting
from inspector.runs import Leg
from inspector.store import RunRecord, RunStore
from inspector.store.browse import (
    StepFilter,
    TimelineRow,
    count_timeline,
    run_span,
    timeline_page,
    timeline_position,
    timeline_rows,
)
from inspector.store.ending_legs import ending_legs

from ..language import on_language_changed
from ..widgets.outcomes import outcome_icon, text_colour
from ..widgets.zone_marks import ZoneMarks
from .column_words import ColumnWords
from .outcome_cell import FailureRole
from .refused_reads import READ_ERRORS, ReadRefusals
from .said_outcomes import SaidOutcomes
from .shown_words import ShownWords
from .span_tree import SpanTree, TreeRows
from .table_model import Index, NamedColumnsModel
from .timeline_cells import TimelineCells, headings
from .timeline_shape import RunShape
from .timeline_tree import BranchRole, DepthRole, SpanTreeRows
from .tree_layout import LaidOut, TreeLayouts

PAGE_SIZE = 100
CACHED_PAGES = 40

StepIdRole = Qt.ItemDataRole.UserRole + 1
OutcomeRole = Qt.ItemDataRole.UserRole + 2
WaterfallRole = Qt.ItemDataRole.UserRole + 3
MatchRole = Qt.ItemDataRole.UserRole + 4

COLUMNS = ("time", "source", "kind", "round", "duration", "outcome", "details", "waterfall")
OUTCOME_COLUMN = COLUMNS.index("outcome")
WATERFALL_COLUMN = COLUMNS.index("waterfall")
MATCH_BACKGROUND = QColor(255, 221, 87, 150)


@dataclass(frozen=True)
class TimelineGrowth:
    """What a running run's timeline needs to grow, read at once (by a reader thread): its rows'
    count with the filter, its span, whether it has rounds, its step count, and the pages that
    hold the rows it did not show yet. ``tree``: a span tree is shown (its count is every step's)."""

    run_id: int
    filter: StepFilter
    tree: bool
    count: int
    total: int
    start: datetime | None
    end: datetime | None
    has_rounds: bool
    pages: dict[int, list[TimelineRow]]
    #: The legs of the failed steps among the pages' rows (what their outcome words are said by).
    legs: dict[int, tuple[Leg, ...]] = field(default_factory=dict)


def read_growth(store: RunStore, run: RunRecord, where: StepFilter, tree: bool, shown: int,
                page_size: int = PAGE_SIZE, most_pages: int = 2) -> TimelineGrowth:
    """The growth of ``run``'s timeline past its first ``shown`` rows (at most ``most_pages`` pages
    of new rows are read: further ones are read when they are painted)."""
    total = store.count_steps(run.id)
    count = total if tree else count_timeline(store, run.id, where)
    pages: dict[int, list[TimelineRow]] = {}
    if not tree and count > shown:
        last = (count - 1) // page_size
        for number in range(max(shown // page_size, last - most_pages + 1), last + 1):
            pages[number] = timeline_page(store, run.id, number * page_size, page_size, where)
    start, end = run_span(store, run)
    legs = ending_legs(store, [step for page in pages.values() for step in failed_with_legs(page)])
    return TimelineGrowth(run.id, where, tree, count, total, start, end, store.has_rounds(run.id), pages, legs)


def failed_with_legs(page: list[TimelineRow]) -> list[int]:
    """The failed steps of ``page`` that have legs: their legs tell their kind of failure ("timed out")."""
    return [row.id for row in page if row.outcome == "failed" and row.legs]


class TimelineModel(RunShape, SpanTreeRows, NamedColumnsModel):
    """The steps of one run, in time order, read page by page."""

    COLUMNS = COLUMNS

    #: Whether a run from a trace shows its span tree (the benchmark turns it off to compare).
    span_trees = True

    #: Emitted after the rows were counted again and some were added (a running run).
    grew = Signal(int)
    #: A long run's span tree, laid out on the reader thread, arrived: its rows can show (:meth:`set_run`).
    laid_out = Signal()
    #: The span tree shown, laid out anew on the reader thread (its run grew), arrived: :meth:`set_run` swaps it in.
    relaid_out = Signal()
    #: A long run's span tree could not be read on the reader thread: no rows (:attr:`refusals` said why).
    not_laid_out = Signal()
    #: Why the run's steps show no rows (they could not be read), as words of the current language.
    said = Signal(object)

    def __init__(self, store: RunStore, page_size: int = PAGE_SIZE, cached_pages: int = CACHED_PAGES) -> None:
        super().__init__()
        self.store = store
        self.page_size = page_size
        self.cached_pages = cached_pages
        self.run: RunRecord | None = None
        self.run_id: int | None = None
        #: Whether the run shown has rounds (a run of one operation has none: its rounds show "–").
        self.has_rounds = True
        self.filter = StepFilter()
        self.start: datetime | None = None
        self.end: datetime | None = None
        #: The zones said beside the step times shown (the Time column widens to them).
        self.zone_marks = ZoneMarks(self)
        #: The run's outcome texts longer than an outcome's word (the Outcome column widens to them).
        self.said_outcomes = SaidOutcomes(self)
        #: The kinds and durations of the steps said (the Kind and Duration columns are fitted to their words).
        self.column_words = ColumnWords(self)
        self._count = 0
        self._pages: OrderedDict[int, list[TimelineRow]] = OrderedDict()
        #: The legs of the cached pages' failed steps, read with their page (never while a cell is painted).
        self._legs: dict[int, tuple[Leg, ...]] = {}
        self._last_number, self._last_page = -1, None
        self._matches: set[int] = set()
        #: The rows of a run imported from a trace with nested spans (``None``: rows in time order).
        self.tree: TreeRows | None = None
        #: Whether instrumentation-internal spans (``raw.otlp.plumbing``) are rows; hidden by default.
        self.show_plumbing = False
        self._tree_cache: tuple[tuple[int, int, int], SpanTree] | None = None
        #: How many steps the run shown has while its span tree is laid out on a reader thread (0: not).
        self.laying_out = 0
        self._layouts: TreeLayouts | None = None
        #: The rows laid out on the reader thread with the tree just arrived (taken by the next :meth:`set_run`).
        self._laid_out: LaidOut | None = None
        #: Pages read from the database since the run was opened (tests and benchmarks count them).
        self.pages_read = 0
        self.page_log: list[int] = []
        #: What the cells say (their texts kept while the rows and the language stay).
        self.cells = TimelineCells(self)
        #: What each step shows in words, for Find (said anew in another language).
        self.shown_words = ShownWords(store, self)
        on_language_changed(self, self.shown_words.forget)
        #: Reads of the run's steps the database refused (damaged or locked since): said once a run.
        self.refusals = ReadRefusals(store, lambda problem: _("The timeline could not read this run's steps. "
                                                              "{problem}").format(problem=problem), self.said.emit)

    def headings(self) -> tuple[str, ...]:
        return headings()

    def row_count(self) -> int:
        return self._count

    # -- which run, which steps ---------------------------------------------------------------

    def set_run(self, run: RunRecord | None, where: StepFilter | None = None) -> None:
        """Show ``run`` (``None``: nothing); reads its span and its count, no rows yet."""
        self.beginResetModel()
        # The same run shown again (a filter, the plumbing toggle) keeps what was collapsed.
        keep = self.tree.collapsed_steps() if self.tree is not None and run is not None and self.run_id == run.id \
            else set()
        if run is None or self.run_id != run.id:
            self.said_outcomes.forget()
            self.column_words.forget()
            self.refusals.again()
        self.run_id = run.id if run is not None else None
        self.run = run
        if where is not None:
            self.filter = where
        self._pages.clear()
        self._legs.clear()
        self._last_number, self._last_page = -1, None
        self._matches = set()
        self.cells.forget()
        self.pages_read = 0
        self.page_log = []
        self.tree, self.laying_out, self.relaying = None, 0, False
        laid_out, self._laid_out = self._laid_out, None
        if run is None:
            self._count, self.start, self.end = 0, None, None
            self.has_rounds, self.uncounted = True, False
        else:
            self._read_shape(run, laid_out, keep)
        if not self.laying_out and self._layouts is not None:
            self._layouts.forget()
        self.endResetModel()

    def row_of_step(self, step_id: int) -> int | None:
        """The row that shows a step, if one does (in a span tree, or in time order as filtered; none while a
        long run's span tree is laid out on the reader thread)."""
        if self.tree is not None or self.laying_out:
            return super().row_of_step(step_id)
        return timeline_position(self.store, self.run.id, step_id, self.filter) if self.run is not None else None

    def set_filter(self, where: StepFilter) -> None:
        self.set_run(self.run, where)

    def growth_question(self) -> tuple[RunRecord, StepFilter, bool, int] | None:
        """What a reader thread needs to read this timeline's growth (:func:`read_growth`)."""
        if self.run is None:
            return None
        return self.run, self.filter, self.tree is not None, self._count

    def refresh(self, run: RunRecord, growth: TimelineGrowth | None = None) -> None:
        """The same run read again (it may still be running): new steps are appended as rows.
        ``growth``: read already (off this thread); without it (or when it was read for another
        run, filter or shape) this reads the database."""
        if self.run is None or run.id != self.run.id:
            self.set_run(run)
            return
        if self.laying_out:  # its rows show when its span tree arrives
            self.run = run
            return
        if growth is not None and (growth.run_id, growth.filter, growth.tree) != (run.id, self.filter,
                                                                                self.tree is not None):
            growth = None
        if self.tree is not None:
            # A run from a trace does not grow row by row: read again only if its steps changed.
            steps = growth.count if growth else count_timeline(self.store, run.id)
            if steps == len(self.tree.tree) or self._lays_out_again(run, steps):  # the rows shown stay (for now)
                self.run = run
                self.cells.forget()
            else:
                self.set_run(run)
            return
        self.run = run
        self.cells.forget()  # a step still running gets its duration and outcome
        if growth is not None:
            self.has_rounds = self.has_rounds or growth.has_rounds
            count, (self.start, self.end) = growth.count, (growth.start, growth.end)
        else:
            if not self.has_rounds:
                self.has_rounds = self.store.has_rounds(run.id)
            count = count_timeline(self.store, run.id, self.filter)
            self.start, self.end = run_span(self.store, run)
        if count < self._count:
            self.set_run(run)
            return
        if count > self._count:
            # Steps of a running run arrive in time order: the new ones are the last rows.
            self._pages.pop(self._count // self.page_size, None)
            self._last_number, self._last_page = -1, None
            for number, page in (growth.pages.items() if growth is not None else ()):
                self._pages[number] = page
                self._pages.move_to_end(number)
            if growth is not None:
                self._legs.update(growth.legs)
            self._trim_pages()
            self.beginInsertRows(QModelIndex(), self._count, count - 1)
            self._count = count
            self.endInsertRows()
            self.grew.emit(count)
        if self._count:
            # The scale may have grown: every bar moves.
            self.dataChanged.emit(self.index(0, WATERFALL_COLUMN), self.index(self._count - 1, WATERFALL_COLUMN),
                                  [WaterfallRole])

    def read_rows_again(self) -> None:
        """What the rows say was changed in the database (a step's note written): the rows shown are read again."""
        self._pages.clear()
        self._legs.clear()
        self._last_number, self._last_page = -1, None
        self.cells.forget()
        if self._count:
            self.dataChanged.emit(self.index(0, 0), self.index(self._count - 1, len(COLUMNS) - 1))

    def set_matches(self, rows: list[int]) -> None:
        """Highlight these rows (Find)."""
        old, self._matches = self._matches, set(rows)
        for row in old ^ self._matches:
            if 0 <= row < self._count:
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1),
                                      [Qt.ItemDataRole.BackgroundRole, MatchRole])

    @property
    def dated(self) -> bool:
        """Whether the step times say their date: the run's time axis spans more than one day here."""
        return not formatting.one_day(self.start, self.end)

    @property
    def span_s(self) -> float:
        """The length of the run's time axis, in seconds (at least a millisecond)."""
        if self.start is None or self.end is None:
            return 0.001
        return max((self.end - self.start).total_seconds(), 0.001)

    # -- rows -------------------------------------------------------------------------------------

    def row(self, number: int) -> TimelineRow | None:
        """The row ``number``, reading its page if it is not cached."""
        if self.run is None or not 0 <= number < self._count:
            return None
        page_number = number // self.page_size
        if page_number == self._last_number and self._last_page is not None:
            page = self._last_page  # a paint asks each row's cells for several roles in a row
        else:
            page = self._page(page_number)
        offset = number - page_number * self.page_size
        return page[offset] if offset < len(page) else None

    def _page(self, page_number: int) -> list[TimelineRow]:
        assert self.run is not None
        page = self._pages.get(page_number)
        if page is None:
            try:
                page = self._read_page(page_number)
            except READ_ERRORS as error:  # its rows stay empty (not read again at each paint), said once
                page = []
                self.refusals.refuse(error)
            self.cells.say_fitted(page)  # its columns fitted to its words before it is painted
            self.pages_read += 1
            self.page_log.append(page_number)
            self._pages[page_number] = page
            self._trim_pages()
        else:
            self._pages.move_to_end(page_number)
        self._last_number, self._last_page = page_number, page
        return page

    def pages_kept(self) -> list[list[TimelineRow]]:
        """The pages of rows read and kept (none read again)."""
        return list(self._pages.values())

    def _read_page(self, page_number: int) -> list[TimelineRow]:
        """The rows of page ``page_number``, the legs of its failed steps kept with them."""
        assert self.run is not None
        first = page_number * self.page_size
        if self.tree is not None:
            tree = self.tree
            page = timeline_rows(self.store, [tree.step_id(row) for row in
                                              range(first, min(first + self.page_size, self._count))])
        else:
            page = timeline_page(self.store, self.run.id, first, self.page_size, self.filter)
        failed = failed_with_legs(page)
        if failed:
            self._legs.update(ending_legs(self.store, failed))
        return page

    def _trim_pages(self) -> None:
        """At most :attr:`cached_pages` pages kept (the oldest go, with their steps' legs)."""
        while len(self._pages) > self.cached_pages:
            for row in self._pages.popitem(last=False)[1]:
                self._legs.pop(row.id, None)

    def legs_of(self, step: TimelineRow) -> tuple[Leg, ...]:
        """The legs of a failed step on a cached page, as read with it (none for any other step)."""
        return self._legs.get(step.id, ())

    @property
    def cached_rows(self) -> int:
        return sum(len(page) for page in self._pages.values())

    # -- Qt's model interface -------------------------------------------------------------------

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        column = self.column_of(index)
        if column is None:
            return None
        if role == Qt.ItemDataRole.BackgroundRole:
            return MATCH_BACKGROUND if index.row() in self._matches else None
        if role == MatchRole:
            return index.row() in self._matches
        if role == DepthRole:
            return self.tree.depths[index.row()] if self.tree is not None and index.row() < self._count else 0
        if role == BranchRole:
            return self.tree.branch(index.row()) if self.tree is not None and index.row() < self._count else None
        if role not in _ROLES:
            return None
        step = self.row(index.row())
        if step is None:
            return None
        if role == StepIdRole:
            return step.id
        if role == OutcomeRole:
            return step.outcome
        if role == FailureRole:
            return self.cells.failure(step) if column == "outcome" else None
        if role == WaterfallRole:
            return self.cells.waterfall(step)
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            if column == "waterfall":
                return self.cells.waterfall_text(step) if role == Qt.ItemDataRole.AccessibleTextRole else None
            if column == "details" and role == Qt.ItemDataRole.AccessibleTextRole:
                return self.cells.spoken_details(step, index.row())
            return self.cells.text(step, column)
        if role == Qt.ItemDataRole.ToolTipRole and column in ("time", "source", "kind", "outcome", "details",
                                                              "waterfall"):
            return self.cells.tip(step, column) or None
        if column == "outcome":
            if role == Qt.ItemDataRole.DecorationRole:
                return outcome_icon(step.outcome) if step.outcome else None
            if role == Qt.ItemDataRole.ForegroundRole:
                return text_colour(step.outcome)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in ("round", "duration"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


_ROLES = {Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole, Qt.ItemDataRole.ToolTipRole,
          Qt.ItemDataRole.DecorationRole, Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.TextAlignmentRole,
          StepIdRole, OutcomeRole, WaterfallRole, FailureRole}

__all__ = ["COLUMNS", "BranchRole", "DepthRole", "FailureRole", "MatchRole", "OutcomeRole", "PAGE_SIZE", "StepIdRole",
           "TimelineModel", "WaterfallRole"]
