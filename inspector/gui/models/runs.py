"""The stored runs as a table model: filtered and sorted in SQL, newest first, refreshed live.

The model holds one small record per run that the filter selects (never a step). ``refresh``
reads the list again: rows whose run is unchanged keep their place, a run that changed
(a running run's status and step count) is repainted, and a list that changed shape is reset.
"""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from inspector.i18n import _
from inspector.store import RunRecord, RunStore
from inspector.store.browse import RunFilter, list_runs

from ..outcomes import outcome_colour, outcome_icon, outcome_word
from ..plain_text import cell_text, plain_tooltip

RunIdRole = Qt.ItemDataRole.UserRole + 1
StatusRole = Qt.ItemDataRole.UserRole + 2
Index = QModelIndex | QPersistentModelIndex

#: Columns: their key (also the sort order of the store) and heading.
COLUMNS = ("id", "started", "title", "status", "source", "server", "steps", "duration")
STATUS_COLUMN = COLUMNS.index("status")


def headings() -> tuple[str, ...]:
    return (_("#"), _("Started"), _("Title"), _("Status"), _("Source"), _("Server"), _("Steps"), _("Duration"))


def source_word(source: str) -> str:
    return {"live": _("live"), "scenario": _("scenario"), "imported": _("imported")}.get(source, source)


def format_started(moment: datetime | None) -> str:
    """A stored time in the reader's time zone, day and time to the second."""
    if moment is None:
        return ""
    return moment.astimezone().strftime("%Y-%m-%d %H:%M:%S")


def format_duration(seconds: float | None) -> str:
    """A duration for a reader: milliseconds below one second, seconds below a minute, then minutes."""
    if seconds is None:
        return ""
    if seconds < 1:
        return _("{ms} ms").format(ms=f"{seconds * 1000:.0f}")
    if seconds < 60:
        return _("{s} s").format(s=f"{seconds:.1f}")
    return _("{minutes} min {s} s").format(minutes=int(seconds // 60), s=f"{seconds % 60:.0f}")


def run_duration(run: RunRecord) -> float | None:
    if run.started_at is None or run.finished_at is None:
        return None
    return max((run.finished_at - run.started_at).total_seconds(), 0.0)


class RunListModel(QAbstractTableModel):
    """One row per stored run the filter selects."""

    def __init__(self, store: RunStore) -> None:
        super().__init__()
        self.store = store
        self.filter = RunFilter()
        self.order = "started"
        self.descending = True
        self._runs: list[RunRecord] = []
        #: How many times the list was read from the database (tests and benchmarks look).
        self.reads = 0

    # -- what it shows -------------------------------------------------------------------------

    def set_filter(self, where: RunFilter) -> None:
        self.filter = where
        self.refresh(reset=True)

    def refresh(self, *, reset: bool = False) -> None:
        """Read the list again; keep rows in place where the runs are the same runs."""
        runs = list_runs(self.store, self.filter, self.order, self.descending)
        self.reads += 1
        if reset or [run.id for run in runs] != [run.id for run in self._runs]:
            self.beginResetModel()
            self._runs = runs
            self.endResetModel()
            return
        changed = [row for row, (old, new) in enumerate(zip(self._runs, runs, strict=True)) if old != new]
        self._runs = runs
        if changed:
            self.dataChanged.emit(self.index(min(changed), 0), self.index(max(changed), len(COLUMNS) - 1))

    def run(self, row: int) -> RunRecord | None:
        return self._runs[row] if 0 <= row < len(self._runs) else None

    def row_of(self, run_id: int) -> int | None:
        for row, run in enumerate(self._runs):
            if run.id == run_id:
                return row
        return None

    def run_ids(self) -> list[int]:
        return [run.id for run in self._runs]

    # -- Qt's model interface -----------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self._runs)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole and \
                0 <= section < len(COLUMNS):
            return headings()[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or index.parent().isValid():
            return None
        run = self.run(index.row())
        if run is None or not 0 <= index.column() < len(COLUMNS):
            return None
        column = COLUMNS[index.column()]
        if role == RunIdRole:
            return run.id
        if role == StatusRole:
            return run.status
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return self._text(run, column)
        if role == Qt.ItemDataRole.ToolTipRole and column in ("title", "server"):
            # Escaped: Qt would take a title like "<img src=x>" for markup in a tooltip.
            return plain_tooltip(cell_text(run.title if column == "title" else run.server or "", 1000))
        if column == "status":
            if role == Qt.ItemDataRole.DecorationRole:
                return outcome_icon(run.status)
            if role == Qt.ItemDataRole.ForegroundRole:
                return outcome_colour(run.status)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in ("id", "steps", "duration"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _text(self, run: RunRecord, column: str) -> str:
        if column == "id":
            return str(run.id)
        if column == "started":
            return format_started(run.started_at)
        if column == "title":
            return cell_text(run.title)
        if column == "status":
            return outcome_word(run.status)
        if column == "source":
            return source_word(run.source)
        if column == "server":
            return cell_text(run.server or "")
        if column == "steps":
            return str(run.step_count or 0)
        return format_duration(run_duration(run))

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(COLUMNS):
            return
        self.layoutAboutToBeChanged.emit()
        old = self._runs
        self.order, self.descending = COLUMNS[column], order == Qt.SortOrder.DescendingOrder
        self._runs = list_runs(self.store, self.filter, self.order, self.descending)
        self.reads += 1
        if sorted(run.id for run in old) == sorted(run.id for run in self._runs):
            position = {run.id: row for row, run in enumerate(self._runs)}
            persistent = self.persistentIndexList()
            self.changePersistentIndexList(persistent, [
                self.index(position[old[index.row()].id], index.column()) if index.row() < len(old)
                else QModelIndex() for index in persistent])
        else:
            self.changePersistentIndexList(self.persistentIndexList(),
                                           [QModelIndex()] * len(self.persistentIndexList()))
        self.layoutChanged.emit()


__all__ = ["COLUMNS", "RunIdRole", "RunListModel", "StatusRole", "format_duration", "format_started",
           "source_word"]
