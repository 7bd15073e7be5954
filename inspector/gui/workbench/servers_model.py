"""The configured servers and their health, as a list model for the Servers panel."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from inspector.i18n import _, ngettext
from inspector.store import ServerRecord

from ..language import follow_language
from ..widgets.plain_text import plain_tooltip

RecordRole = Qt.ItemDataRole.UserRole + 1
UrlRole = Qt.ItemDataRole.UserRole + 2
Index = QModelIndex | QPersistentModelIndex


def server_label(record: ServerRecord) -> str:
    return record.name or record.url


def health_line(record: ServerRecord) -> str:
    """The counts under a server's name: ok, tool errors, failed and cancelled (never merged).

    A tool error is contact (the server answered); it is counted apart so a failing tool shows."""
    return _("{ok} · {tool_errors} · {failed} · {cancelled}").format(
        ok=ngettext("{count} ok", "{count} ok", record.ok_count).format(count=record.ok_count),
        tool_errors=ngettext("{count} tool error", "{count} tool errors",
                             record.tool_error_count).format(count=record.tool_error_count),
        failed=ngettext("{count} failed", "{count} failed", record.failed_count).format(count=record.failed_count),
        cancelled=ngettext("{count} cancelled", "{count} cancelled",
                           record.cancelled_count).format(count=record.cancelled_count))


class ServersModel(QAbstractListModel):
    """One row per server: name (or URL) and its counts."""

    def __init__(self) -> None:
        super().__init__()
        self._records: list[ServerRecord] = []
        #: Entries whose server is known not to run here (the demo server's, when it is stopped).
        self._not_running: set[str] = set()
        follow_language(self)

    def set_records(self, records: list[ServerRecord]) -> None:
        self.beginResetModel()
        self._records = list(records)
        self.endResetModel()

    def set_not_running(self, urls: set[str]) -> None:
        """Mark these servers' rows "not running" (a server this window would have to start)."""
        if urls != self._not_running:
            self._not_running = set(urls)
            if self._records:
                self.dataChanged.emit(self.index(0, 0), self.index(len(self._records) - 1, 0))

    def record(self, row: int) -> ServerRecord | None:
        return self._records[row] if 0 <= row < len(self._records) else None

    def row_of(self, url: str) -> int:
        return next((row for row, record in enumerate(self._records) if record.url == url), -1)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self._records)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._records) or index.column() != 0:
            return None
        record = self._records[index.row()]
        stopped = record.url in self._not_running
        if role == Qt.ItemDataRole.DisplayRole:
            if stopped:
                return _("{name} — not running\n{health}").format(name=server_label(record),
                                                                   health=health_line(record))
            return _("{name}\n{health}").format(name=server_label(record), health=health_line(record))
        if role == Qt.ItemDataRole.AccessibleTextRole:
            if stopped:
                return _("{name}, not running: {health}").format(name=server_label(record),
                                                                 health=health_line(record))
            return _("{name}: {health}").format(name=server_label(record), health=health_line(record))
        if role == Qt.ItemDataRole.ForegroundRole and stopped:
            return QColor("#6E6E6E")
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tooltip(record.url)
        if role == RecordRole:
            return record
        if role == UrlRole:
            return record.url
        return None
