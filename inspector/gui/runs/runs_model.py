"""The stored runs as a table model: filtered and sorted in SQL, newest first, refreshed live.

The model holds the ids of the runs the filter selects, in order, as far down as the view scrolled or
a run it must show lies; a row's record (never a step), and why a failed run failed where that is known,
is read when the row is shown, for a page of rows at once as ``runs list`` reads it (:mod:`.run_listing`).
``refresh`` reads the list again: rows whose run is unchanged keep their place, a run that changed
(a running run's status and step count) is repainted, and a list that changed shape is reset.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from datetime import datetime, tzinfo

from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal

from inspector.i18n import _, formatting
from inspector.i18n.recovery import status_with_recovery
from inspector.i18n.run_cells import (
    format_duration,
    names_for,
    run_duration,
    run_server,
    run_steps,
    server_shown,
    short_reason,
    unnamed_server_tip,
)
from inspector.i18n.scenarios import own_demo_server, said_title
from inspector.i18n.words import run_heading, source_word
from inspector.i18n.zone_said import time_in_zones
from inspector.store import RunRecord, RunStore
from inspector.store.browse import RunFilter, run_ids

from ..widgets.outcomes import outcome_icon, outcome_word, text_colour
from ..widgets.plain_text import cell_text, plain_tooltip
from ..widgets.zone_marks import ZoneMarks
from .outcome_cell import FailureRole, ShortReasonRole
from .push_marks import push_tooltip, push_word
from .row_records import RowRecords
from .run_listing import EVERY_RUN, PAGE_SIZE, RunListing, RunRecords, ids_reaching, read_listing
from .run_reasons import KnownReasons
from .search_found import found_in_steps
from .table_model import Index, NamedColumnsModel

RunIdRole = Qt.ItemDataRole.UserRole + 1
StatusRole = Qt.ItemDataRole.UserRole + 2

#: What the list lists with no filter chosen: every run but the plumbing traces, as ``runs list`` lists them.
LISTED = RunFilter(plumbing_traces=False)

#: Columns: their key (also the sort order of the store) and heading.
COLUMNS = ("id", "started", "title", "status", "source", "server", "steps", "duration", "pushed")
STATUS_COLUMN = COLUMNS.index("status")


def headings() -> tuple[str, ...]:
    return tuple(run_heading(column) for column in COLUMNS)


def format_started(moment: datetime | None, zone: tzinfo | None = None) -> str:
    """A stored time in the reader's time zone (or ``zone``) and language, day and time to the second."""
    if moment is None:
        return ""
    return formatting.format_datetime(moment, zone=zone)


class RunListModel(NamedColumnsModel):
    """One row per stored run the filter selects: their ids read :data:`PAGE_SIZE` at a time as the view
    scrolls (``canFetchMore``/``fetchMore``), a row's record when it is shown (:class:`.RowRecords`): a
    database of a million runs lists at once, and a run 24,000 rows down is reached in milliseconds."""

    #: The list was read anew (a filter, a sort order, another shape) and the reset is over: a good
    #: moment to select runs again (rows may be read for that). True for a list the user asked for
    #: anew (a filter, a sort order: its current run is scrolled to), False for a live read's.
    reset_done = Signal(bool)
    #: Records of rows shown were read (after the paint that asked): the Status column may widen.
    records_read = Signal()
    #: Why rows stay empty (a page of records could not be read), as words of the current language.
    said = Signal(object)
    #: The list was read with another count of the plumbing traces its filter selects (:attr:`plumbing_traces`).
    plumbing_counted = Signal()

    COLUMNS = COLUMNS

    def __init__(self, store: RunStore, page_size: int = PAGE_SIZE) -> None:
        super().__init__()
        self.store = store
        self.page_size = page_size
        #: As ``runs list``: the plumbing traces left out (a session's plumbing alone; ``plumbing_traces=None`` lists
        #: them too).
        self.filter = LISTED
        #: How many plumbing traces the filter selects, left out or listed (read with the list).
        self.plumbing_traces = 0
        self.order = "started"
        self.descending = True
        self._ids: list[int] = []
        self._rows: dict[int, int] = {}
        #: The rows' records read so far, with their pushes (the Pushed column) and why the failed runs
        #: failed, where known (the Status column says it beside the word).
        self.records = RowRecords(store, lambda: QTimer.singleShot(0, self, self._records_were_read), self.said.emit)
        #: Whether any run was ever queued to be pushed (the Pushed column is shown only then).
        self.any_pushed = False
        self._has_more = False
        #: The zones said beside the start times shown (the Started column widens to them).
        self.zone_marks = ZoneMarks(self)
        self._resetting = False
        #: Server address -> the name the registry gives it (read again with the list).
        self.names: dict[str, str] = {}
        #: How many times the list's runs were read from the database (tests and benchmarks look).
        self.reads = 0
        #: The runs a list read anew (a filter, a sort order) or again reaches down to, wherever they are:
        #: the view's selected runs, selected again after it.
        self.reach: Callable[[], Collection[int]] = tuple
        #: The first and last rows the view shows: a read of the list again reads their records with it.
        self.shown_rows: Callable[[], tuple[int, int]] = lambda: (0, self.page_size - 1)
        #: Reads the list anew elsewhere when a search selects it (a reader thread: it reads every run's
        #: steps) and shows it when read; False where it does not (no search, or no reader): read here.
        self.read_aside: Callable[[], bool] = lambda: False

    def headings(self) -> tuple[str, ...]:
        return headings()

    def row_count(self) -> int:
        return len(self._ids)

    # -- what it shows -------------------------------------------------------------------------

    def set_filter(self, where: RunFilter) -> None:
        self.filter = where
        self.refresh(reset=True)

    def _set_ids(self, ids: list[int]) -> None:
        self._ids = ids
        self._rows = {run_id: row for row, run_id in enumerate(ids)}

    def known_reasons(self) -> KnownReasons:
        """The runs read and their reasons, for a read of the list again (on any thread)."""
        return self.records.known()

    def live_limit(self) -> int:
        """How many runs a read of the list again reads: what is loaded, at least a page."""
        return max(len(self._ids), self.page_size)

    def refresh(self, *, reset: bool = False) -> None:
        """Read the loaded part of the list again; keep rows in place where the runs are the same."""
        if reset:  # a list of its own: the records of the rows shown are read as they are
            listing = read_listing(self.store, self.filter, self.order, self.descending, self.page_size,
                                   reaching=self.reach())
        else:  # as far as the runs selected too: a run written above them moves the last ones down
            listing = read_listing(self.store, self.filter, self.order, self.descending, self.live_limit(),
                                   known=self.known_reasons(), reaching=self.reach(), shown=self.shown_rows())
        self.reads += 1
        self.show_listing(listing, reset=reset)

    def show_listing(self, listing: RunListing, *, reset: bool = False) -> None:
        """Show a listing read (here or by a reader thread): rows whose runs are the same keep their
        place, changed runs are repainted, a list of another shape is reset."""
        if listing.plumbing_traces != self.plumbing_traces:
            self.plumbing_traces = listing.plumbing_traces
            self.plumbing_counted.emit()
        renamed = listing.names != self.names
        self.names = listing.names
        self._has_more = listing.has_more
        self.any_pushed = listing.any_pushed
        records = RunRecords(listing.runs, listing.pushes, listing.reasons)
        if reset or listing.ids != self._ids:
            self.beginResetModel()
            self._set_ids(listing.ids)
            self.records.hold(records)
            # No rows are inserted while the reset is being announced (a listener asking for more
            # then gets them on its next ask): one structural change at a time.
            self._resetting = True
            try:
                self.endResetModel()
            finally:
                self._resetting = False
            self.reset_done.emit(reset)
            return
        changed = [self._rows[run_id] for run_id in self.records.add(records) if run_id in self._rows]
        if renamed and self._ids:  # a server's name: any row may say it
            changed += [0, len(self._ids) - 1]
        if changed:
            self.dataChanged.emit(self.index(min(changed), 0), self.index(max(changed), len(COLUMNS) - 1))

    def _records_were_read(self) -> None:
        self.records.told()
        self.records_read.emit()

    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:  # noqa: N802, B008
        return not parent.isValid() and self._has_more

    def fetchMore(self, parent: Index = QModelIndex()) -> None:  # noqa: N802, B008
        if parent.isValid() or not self._has_more or self._resetting:
            return
        self._add_rows(*ids_reaching(self.store, self.filter, self.order, self.descending, self.page_size,
                                     offset=len(self._ids), more=self.page_size))

    def _add_rows(self, more: list[int], has_more: bool) -> None:
        self.reads += 1
        self._has_more = has_more
        if more:
            self.beginInsertRows(QModelIndex(), len(self._ids), len(self._ids) + len(more) - 1)
            self._set_ids(self._ids + more)
            self.endInsertRows()

    def load_every_run(self) -> None:
        """Read the ids of every run the filter selects that are not read yet (one read: Select All)."""
        if self._has_more and not self._resetting:
            self._add_rows(*ids_reaching(self.store, self.filter, self.order, self.descending, EVERY_RUN,
                                         offset=len(self._ids)))

    def ensure_loaded(self, run_id: int) -> int | None:
        """The row of a run, reading the list's ids down to it if it is further; ``None`` when the
        filter leaves it out."""
        self.ensure_all_loaded((run_id,))
        return self._rows.get(run_id)

    def ensure_all_loaded(self, run_ids: Collection[int]) -> None:
        """Read the list's ids down to the last of these runs that the filter selects, where it is further
        than those read (one read for them all: an import selects 25,000 runs)."""
        missing = [run_id for run_id in run_ids if run_id not in self._rows]
        if missing and self._has_more:
            self._add_rows(*ids_reaching(self.store, self.filter, self.order, self.descending, 0, missing,
                                         offset=len(self._ids), more=self.page_size))

    def run(self, row: int) -> RunRecord | None:
        """The run of a row (its record read, with its page's, if it was not)."""
        return self.records.record(self._ids, row) if 0 <= row < len(self._ids) else None

    def run_id(self, row: int) -> int | None:
        """The id of the run of a row (nothing read)."""
        return self._ids[row] if 0 <= row < len(self._ids) else None

    def row_of(self, run_id: int) -> int | None:
        """The row of a run among those loaded."""
        return self._rows.get(run_id)

    def rows_of(self, run_ids: Iterable[int]) -> list[int]:
        """The rows of those of these runs that are loaded."""
        found = self._rows.get
        return [row for row in map(found, run_ids) if row is not None]

    def ids_of(self, first: int, last: int) -> list[int]:
        """The ids of the runs of rows ``first`` to ``last`` (nothing read)."""
        return self._ids[max(first, 0):last + 1]

    def run_ids(self) -> list[int]:
        """Every run the filter selects (loaded or not)."""
        return run_ids(self.store, self.filter)

    def status_text(self, run: RunRecord) -> str:
        """The Status cell's whole words: the status, and why it failed where known ("failed (2 of 4 tool
        calls failed)"), as ``runs list`` says them."""
        return status_with_recovery(outcome_word(run.status), self.records.reason(run.id))

    def reason_texts(self) -> list[str]:
        """The whole words of the loaded runs' Status cells that say why (each once), in the current
        language: what the Status column widens to where the window has the room."""
        held = self.records.held
        said = {(held.runs[run_id].status, reason) for run_id, reason in held.reasons.items() if run_id in held.runs}
        return sorted({status_with_recovery(outcome_word(status), reason) for status, reason in said})

    def server_texts(self) -> set[str]:
        """The loaded runs' Server cells (each once)."""
        return {cell_text(run_server(run, self.names)) for run in self.records.held.runs.values()}

    def short_reasons(self) -> list[str]:
        """The loaded failed runs' reasons in their fewest words ("timed out"; each once), in the current language:
        what the Status column keeps room for before it says "failed" alone."""
        held = self.records.held
        return sorted({short for run_id, reason in held.reasons.items() if run_id in held.runs
                       and (short := short_reason(held.runs[run_id].status, reason))})

    # -- Qt's model interface -----------------------------------------------------------------

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        column = self.column_of(index)
        if role == RunIdRole:  # no record read
            return self.run_id(index.row()) if column is not None else None
        run = self.run(index.row())
        if column is None or run is None:
            return None
        if role == StatusRole:
            return run.status
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return self._text(run, column)
        if role == Qt.ItemDataRole.ToolTipRole and column == "started":  # whose time: this computer's, and UTC
            return plain_tooltip(time_in_zones(run.started_at)) if run.started_at else None
        if role == Qt.ItemDataRole.ToolTipRole and column == "pushed":
            told = push_tooltip(self.records.push(run.id))
            return plain_tooltip(told) if told else None
        if role == Qt.ItemDataRole.ToolTipRole and column in ("title", "server"):
            # Escaped: Qt would take a title like "<img src=x>" for markup in a tooltip. The server's
            # address is in the tooltip: the cell shows its name.
            said = cell_text(said_title(run.title, run.source) if column == "title" else self._server_tip(run), 1000)
            found = found_in_steps(self.store, run, self.filter.text) if column == "title" else ""
            return plain_tooltip(f"{said}\n{found}" if found else said)
        if column == "status":
            if role == Qt.ItemDataRole.ToolTipRole:  # the whole words, also where the cell shows the word alone
                return plain_tooltip(self.status_text(run))
            if role == FailureRole:  # what the cell shows where its whole words do not fit (outcome_cell.py)
                return outcome_word(run.status) if self.records.reason(run.id) is not None else None
            if role == ShortReasonRole:  # and its kind of failure alone, narrower still
                return short_reason(run.status, self.records.reason(run.id))
            if role == Qt.ItemDataRole.DecorationRole:
                return outcome_icon(run.status)
            if role == Qt.ItemDataRole.ForegroundRole:
                return text_colour(run.status)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in ("id", "steps", "duration"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _text(self, run: RunRecord, column: str) -> str:
        if column == "id":
            return str(run.id)
        if column == "started":
            self.zone_marks.note(run.started_at)
            return format_started(run.started_at)
        if column == "title":
            return cell_text(said_title(run.title, run.source))
        if column == "status":
            return self.status_text(run)
        if column == "source":
            return source_word(run.source)
        if column == "server":
            return cell_text(run_server(run, self.names))
        if column == "steps":
            return run_steps(run)
        if column == "pushed":
            return push_word(self.records.push(run.id))
        return format_duration(run_duration(run))

    @staticmethod
    def _server_tip(run: RunRecord) -> str:
        """The server's whole address; of a demo server started for the run alone, what it was."""
        name = own_demo_server(run.origin)
        if name is None or not run.server:
            return run.server or (unnamed_server_tip() if run.source == "imported" else "")
        return _("{name}: the bundled demo server, started for this run alone at {address} (it stopped when the "
                 "run ended).").format(name=name, address=run.server)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(COLUMNS):
            return
        wanted = (COLUMNS[column], order == Qt.SortOrder.DescendingOrder)
        if wanted == (self.order, self.descending) and self._ids:
            return  # Qt asks twice for one click (the header's signal, then sortByColumn)
        self.order, self.descending = wanted
        # A new order is a new list (SQL sorts it); the view keeps its selection by run id.
        if not self.read_aside():
            self.refresh(reset=True)


__all__ = ["COLUMNS", "LISTED", "RunIdRole", "RunListModel", "StatusRole", "format_duration", "format_started",
           "names_for", "server_shown", "source_word"]
