"""The stored runs as a table model: filtered and sorted in SQL, newest first, refreshed live.

The model holds one small record per run that the filter selects (never a step), and why each failed
run failed where that is known, read for a page at once as ``runs list`` reads it. ``refresh``
reads the list again: rows whose run is unchanged keep their place, a run that changed
(a running run's status and step count) is repainted, and a list that changed shape is reset.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, tzinfo
from urllib.parse import urlsplit

from PySide6.QtCore import QModelIndex, Qt, Signal

from inspector.i18n import _, formatting
from inspector.i18n.entry_names import shown_name
from inspector.i18n.recovery import status_with_recovery
from inspector.i18n.scenarios import own_demo_server, said_title
from inspector.i18n.words import run_heading, source_word
from inspector.i18n.zone_said import time_in_zones
from inspector.runs.loopback import recorded_elsewhere
from inspector.store import RunRecord, RunStore, ServerRegistry
from inspector.store.browse import RunFilter, list_runs, run_ids, run_position
from inspector.store.outbox import Outbox, OutboxEntry

from ..widgets.outcomes import outcome_icon, outcome_word, text_colour
from ..widgets.plain_text import cell_text, plain_tooltip
from ..widgets.zone_marks import ZoneMarks
from .outcome_cell import FailureRole
from .push_marks import push_tooltip, push_word
from .run_reasons import KnownReasons, Reason, run_reasons
from .table_model import Index, NamedColumnsModel

RunIdRole = Qt.ItemDataRole.UserRole + 1
StatusRole = Qt.ItemDataRole.UserRole + 2

#: Columns: their key (also the sort order of the store) and heading.
COLUMNS = ("id", "started", "title", "status", "source", "server", "steps", "duration", "pushed")
STATUS_COLUMN = COLUMNS.index("status")
#: Runs read at a time.
PAGE_SIZE = 500


def headings() -> tuple[str, ...]:
    return tuple(run_heading(column) for column in COLUMNS)


def format_started(moment: datetime | None, zone: tzinfo | None = None) -> str:
    """A stored time in the reader's time zone (or ``zone``) and language, day and time to the second."""
    if moment is None:
        return ""
    return formatting.format_datetime(moment, zone=zone)


def format_duration(seconds: float | None) -> str:
    """A duration for a reader in the current language ("0.35 s", "8.0 s", "2 min 5 s"); "" if unknown."""
    if seconds is None:
        return ""
    return formatting.format_duration(seconds)


def server_names(store: RunStore) -> dict[str, str]:
    """The names the servers registry gives to server addresses (those that have a name)."""
    return {record.url: record.name for record in ServerRegistry(store.db).all() if record.name}


def server_shown(server: str, names: dict[str, str]) -> str:
    """What the server column says: the registry's name for the address (the window's demo entry's in the
    reader's language), else the address without its scheme (host, port and path: what tells servers apart);
    the tooltip has the whole address."""
    if server in names:
        return shown_name(names[server], server) or names[server]
    parts = urlsplit(server)
    if parts.scheme in ("http", "https") and parts.netloc:
        return f"{parts.netloc}{parts.path.rstrip('/')}"
    return server


def names_for(run: RunRecord, names: dict[str, str]) -> dict[str, str]:
    """The names that may name ``run``'s server: none for a run imported with a loopback address (its
    127.0.0.1 was the machine it was recorded on, not this one: the developer's demo server at
    127.0.0.1:8765 is not the server a support engineer named at that address), else ``names``."""
    return {} if run.server and recorded_elsewhere(run.server, run.source == "imported") else names


def run_duration(run: RunRecord) -> float | None:
    if run.started_at is None or run.finished_at is None:
        return None
    return max((run.finished_at - run.started_at).total_seconds(), 0.0)


@dataclass(frozen=True)
class RunListing:
    """What the list shows, read at once: the runs, whether more follow, their pushes, the names,
    why the failed ones failed."""

    runs: list[RunRecord]
    has_more: bool
    pushes: dict[int, OutboxEntry]
    any_pushed: bool
    names: dict[str, str]
    reasons: dict[int, Reason]


def read_listing(store: RunStore, where: RunFilter, order: str, descending: bool, limit: int,
                 current: int | None = None, known: KnownReasons | None = None) -> RunListing:
    """The first ``limit`` runs the filter selects, in order (and as far down as the run ``current``,
    when it is further: a live read keeps the selected run among the rows read); the reasons ``known``
    of runs read again unchanged are not asked for again."""
    runs = list_runs(store, where, order, descending, limit + 1, 0)
    if current is not None and len(runs) > limit and all(run.id != current for run in runs):
        position = run_position(store, current, where, order, descending)
        if position is not None and position >= limit:
            limit = position + 1 + PAGE_SIZE
            runs = list_runs(store, where, order, descending, limit + 1, 0)
    runs, has_more = runs[:limit], len(runs) > limit
    outbox = Outbox(store.db.conn)
    pushes = outbox.of_runs([run.id for run in runs])
    return RunListing(runs, has_more, pushes, bool(pushes) or outbox.any(), server_names(store),
                      run_reasons(store, runs, known))


class RunListModel(NamedColumnsModel):
    """One row per stored run the filter selects, read :data:`PAGE_SIZE` at a time as the view
    scrolls (``canFetchMore``/``fetchMore``): a database of a million runs lists at once."""

    #: The list was read anew (a filter, a sort order, another shape) and the reset is over:
    #: a good moment to select runs again (rows may be read for that).
    reset_done = Signal()

    COLUMNS = COLUMNS

    def __init__(self, store: RunStore, page_size: int = PAGE_SIZE) -> None:
        super().__init__()
        self.store = store
        self.page_size = page_size
        self.filter = RunFilter()
        self.order = "started"
        self.descending = True
        self._runs: list[RunRecord] = []
        self._rows: dict[int, int] = {}
        #: The outbox row of each loaded run that has one (the Pushed column).
        self._pushes: dict[int, OutboxEntry] = {}
        #: Why each loaded failed run failed, where known (the Status column says it beside the word).
        self._reasons: dict[int, Reason] = {}
        self.any_pushed = False
        self._has_more = False
        #: The zones said beside the start times shown (the Started column widens to them).
        self.zone_marks = ZoneMarks(self)
        self._resetting = False
        #: Server address -> the name the registry gives it (read again with the list).
        self.names: dict[str, str] = {}
        #: How many times runs were read from the database (tests and benchmarks look).
        self.reads = 0

    def headings(self) -> tuple[str, ...]:
        return headings()

    def row_count(self) -> int:
        return len(self._runs)

    # -- what it shows -------------------------------------------------------------------------

    def set_filter(self, where: RunFilter) -> None:
        self.filter = where
        self.refresh(reset=True)

    def _read(self, limit: int, offset: int = 0) -> tuple[list[RunRecord], bool]:
        runs = list_runs(self.store, self.filter, self.order, self.descending, limit + 1, offset)
        self.reads += 1
        return runs[:limit], len(runs) > limit

    def _set(self, runs: list[RunRecord], pushes: dict[int, OutboxEntry], any_pushed: bool,
             reasons: dict[int, Reason]) -> None:
        self._runs = runs
        self._rows = {run.id: row for row, run in enumerate(runs)}
        self._pushes = pushes
        self._reasons = reasons
        #: Whether any run was ever queued to be pushed (the Pushed column is shown only then).
        self.any_pushed = any_pushed

    def known_reasons(self) -> KnownReasons:
        """The loaded runs and their reasons, for a read of the list again (on any thread)."""
        return KnownReasons(self._runs, self._rows, self._reasons)

    def live_limit(self) -> int:
        """How many runs a read of the list again reads: what is loaded, at least a page."""
        return max(len(self._runs), self.page_size)

    def refresh(self, *, reset: bool = False) -> None:
        """Read the loaded part of the list again; keep rows in place where the runs are the same."""
        listing = read_listing(self.store, self.filter, self.order, self.descending,
                               self.page_size if reset else self.live_limit(), known=self.known_reasons())
        self.reads += 1
        self.show_listing(listing, reset=reset)

    def show_listing(self, listing: RunListing, *, reset: bool = False) -> None:
        """Show a listing read (here or by a reader thread): rows whose runs are the same keep their
        place, changed runs are repainted, a list of another shape is reset."""
        renamed = listing.names != self.names
        self.names = listing.names
        runs = listing.runs
        self._has_more = listing.has_more
        if reset or [run.id for run in runs] != [run.id for run in self._runs]:
            self.beginResetModel()
            self._set(runs, listing.pushes, listing.any_pushed, listing.reasons)
            # No rows are inserted while the reset is being announced (a listener asking for more
            # then gets them on its next ask): one structural change at a time.
            self._resetting = True
            try:
                self.endResetModel()
            finally:
                self._resetting = False
            self.reset_done.emit()
            return
        pushes, reasons = listing.pushes, listing.reasons
        changed = [row for row, (old, new) in enumerate(zip(self._runs, runs, strict=True))
                   if old != new or (renamed and new.server) or self._pushes.get(new.id) != pushes.get(new.id)
                   or self._reasons.get(new.id) != reasons.get(new.id)]
        self._set(runs, pushes, listing.any_pushed, reasons)
        if changed:
            self.dataChanged.emit(self.index(min(changed), 0), self.index(max(changed), len(COLUMNS) - 1))

    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:  # noqa: N802, B008
        return not parent.isValid() and self._has_more

    def fetchMore(self, parent: Index = QModelIndex()) -> None:  # noqa: N802, B008
        if parent.isValid() or not self._has_more or self._resetting:
            return
        self._load(self.page_size)

    def _load(self, count: int) -> None:
        more, self._has_more = self._read(count, len(self._runs))
        if not more:
            self._has_more = False
            return
        self.beginInsertRows(QModelIndex(), len(self._runs), len(self._runs) + len(more) - 1)
        self._set(self._runs + more, {**self._pushes, **Outbox(self.store.db.conn).of_runs([run.id for run in more])},
                  self.any_pushed, {**self._reasons, **run_reasons(self.store, more)})
        self.endInsertRows()

    def ensure_loaded(self, run_id: int) -> int | None:
        """The row of a run, reading the list up to it if it is further down; ``None`` when the
        filter leaves it out."""
        row = self._rows.get(run_id)
        if row is not None:
            return row
        if not self._has_more:
            return None
        position = run_position(self.store, run_id, self.filter, self.order, self.descending)
        if position is None:
            return None
        if position >= len(self._runs):
            self._load(position + 1 - len(self._runs) + self.page_size)
        return self._rows.get(run_id)

    def run(self, row: int) -> RunRecord | None:
        return self._runs[row] if 0 <= row < len(self._runs) else None

    def row_of(self, run_id: int) -> int | None:
        """The row of a run among those loaded."""
        return self._rows.get(run_id)

    def run_ids(self) -> list[int]:
        """Every run the filter selects (loaded or not)."""
        return run_ids(self.store, self.filter)

    def status_text(self, run: RunRecord) -> str:
        """The Status cell's whole words: the status, and why it failed where known ("failed (2 of 4 tool
        calls failed)"), as ``runs list`` says them."""
        return status_with_recovery(outcome_word(run.status), self._reasons.get(run.id))

    def reason_texts(self) -> list[str]:
        """The whole words of the loaded runs' Status cells that say why (each once), in the current
        language: what the Status column widens to where the window has the room."""
        said = {(run.status, self._reasons[run.id]) for run in self._runs if run.id in self._reasons}
        return sorted({status_with_recovery(outcome_word(status), reason) for status, reason in said})

    # -- Qt's model interface -----------------------------------------------------------------

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        column = self.column_of(index)
        run = self.run(index.row())
        if column is None or run is None:
            return None
        if role == RunIdRole:
            return run.id
        if role == StatusRole:
            return run.status
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return self._text(run, column)
        if role == Qt.ItemDataRole.ToolTipRole and column == "started":  # whose time: this computer's, and UTC
            return plain_tooltip(time_in_zones(run.started_at)) if run.started_at else None
        if role == Qt.ItemDataRole.ToolTipRole and column == "pushed":
            told = push_tooltip(self._pushes.get(run.id))
            return plain_tooltip(told) if told else None
        if role == Qt.ItemDataRole.ToolTipRole and column in ("title", "server"):
            # Escaped: Qt would take a title like "<img src=x>" for markup in a tooltip. The server's
            # address is in the tooltip: the cell shows its name.
            return plain_tooltip(cell_text(said_title(run.title, run.source) if column == "title" else
                                           self._server_tip(run), 1000))
        if column == "status":
            if role == Qt.ItemDataRole.ToolTipRole:  # the whole words, also where the cell shows the word alone
                return plain_tooltip(self.status_text(run))
            if role == FailureRole:  # what the cell shows where its whole words do not fit (outcome_cell.py)
                return outcome_word(run.status) if run.id in self._reasons else None
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
            # The name the user gave the server; a server not registered (an imported run's) by its address;
            # a demo server started for the run alone by that name (its address died with the run).
            return cell_text(own_demo_server(run.origin) or server_shown(run.server or "", names_for(run, self.names)))
        if column == "steps":
            return formatting.format_number(run.step_count or 0)
        if column == "pushed":
            return push_word(self._pushes.get(run.id))
        return format_duration(run_duration(run))

    @staticmethod
    def _server_tip(run: RunRecord) -> str:
        """The server's whole address; of a demo server started for the run alone, what it was."""
        name = own_demo_server(run.origin)
        if name is None or not run.server:
            return run.server or ""
        return _("{name}: the bundled demo server, started for this run alone at {address} (it stopped when the "
                 "run ended).").format(name=name, address=run.server)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(COLUMNS):
            return
        wanted = (COLUMNS[column], order == Qt.SortOrder.DescendingOrder)
        if wanted == (self.order, self.descending) and self._runs:
            return  # Qt asks twice for one click (the header's signal, then sortByColumn)
        self.order, self.descending = wanted
        # A new order is a new list (SQL sorts it); the view keeps its selection by run id.
        self.refresh(reset=True)


__all__ = ["COLUMNS", "RunIdRole", "RunListModel", "RunListing", "StatusRole", "format_duration", "format_started",
           "names_for", "read_listing", "server_names", "server_shown", "source_word"]
