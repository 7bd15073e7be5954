"""The Server log: what the servers log (``notifications/message``) and ask on their streams.

Log messages come from the listening session of the selected server and from every operation's
own session. Each row: the time (local, formatted when shown), the level (word, mark and colour,
so that a greyscale print still tells them apart), the server, the session (the operation, or
the listening session), the logger and the data as plain text (JSON compact, long text cut). A
minimum level filters the rows; Clear empties the log. Above the rows, the listener's state in
words, and how many earlier lines were dropped: the log keeps the newest :data:`MAX_ENTRIES`.
Lines arrive in batches (:mod:`.log_feed`), each one update of the model, however many lines.
"""

from __future__ import annotations

from datetime import UTC
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QFont, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _, ngettext
from inspector.i18n.formatting import format_number, format_time
from inspector.i18n.messages import translate
from inspector.mcp import LOG_LEVELS
from inspector.mcp.client_reasons import own_reason
from inspector.mcp.messages import Message

from ..language import follow_language, on_language_changed, translated, translated_item
from ..widgets.accessibility import label_combo
from ..widgets.fitted_label import FittedLabel
from ..widgets.plain_text import cell_text, plain_tooltip
from ..widgets.tab_stops import one_tab_stop
from ..widgets.zone_marks import ZoneMarks
from .log_delegate import LogCellDelegate
from .log_entry import LogEntry, data_text
from .log_feed import MAX_WAITING

__all__ = ["MAX_ENTRIES", "ServerLogModel", "ServerLogView", "data_text", "level_word"]

#: The most entries kept; older ones are dropped first (and counted).
MAX_ENTRIES = MAX_WAITING
#: The lines of a log in use it shows however low the window.
LEAST_LINES = 2
#: The most characters of an entry's data shown in its cell (the tooltip shows more).
DATA_CELL_CHARS = 300
TOOLTIP_CHARS = 2000

#: Okabe–Ito colours by level, and a mark that survives greyscale.
_LEVEL_STYLE = {
    "debug": ("#6E6E6E", ""), "info": ("#0072B2", ""), "notice": ("#009E73", "•"),
    "warning": ("#B36B00", "▲"), "error": ("#D55E00", "■"), "critical": ("#CC4C8F", "◆"),
    "alert": ("#CC4C8F", "◆"), "emergency": ("#CC4C8F", "◆"),
}
_ModelIndex = QModelIndex | QPersistentModelIndex
#: A level's rank (0 = debug … 7 = emergency).
_SEVERITY = {level: rank for rank, level in enumerate(LOG_LEVELS)}


def level_word(level: str) -> str:
    """The level's word, translated."""
    return {
        "debug": _("debug"), "info": _("info"), "notice": _("notice"), "warning": _("warning"),
        "error": _("error"), "critical": _("critical"), "alert": _("alert"), "emergency": _("emergency"),
    }.get(level, level)


class ServerLogModel(QAbstractTableModel):
    """The newest :data:`MAX_ENTRIES` entries, oldest first, and a count of those dropped; the rows
    are the entries at or above the minimum level (requests always).

    The level filter lives here, not in a proxy model: a proxy asks Python about each row a batch
    inserts, and during a flood each of those calls waits for the interpreter lock that the
    worker holds while it reads the stream."""

    COLUMNS = ("time", "level", "server", "operation", "logger", "message")
    #: The entry's level as a number (0 = debug … 7 = emergency; -1 for a request).
    SeverityRole = Qt.ItemDataRole.UserRole + 1

    def __init__(self) -> None:
        super().__init__()
        #: Every entry kept, shown or not.
        self.entries: list[LogEntry] = []
        #: The entries shown: those at or above :attr:`minimum`, in the same order.
        self.rows: list[LogEntry] = []
        #: The minimum level's rank (0 = debug: everything is shown).
        self.minimum = 0
        #: Lines dropped since the log was last cleared: the oldest, past :data:`MAX_ENTRIES`.
        self.dropped = 0
        #: The zones the shown times said ("UTC+1" in the hour a clock is set back): the column fits them.
        self.zone_marks = ZoneMarks(self)

    def shows(self, entry: LogEntry) -> bool:
        if self.minimum == 0:
            return True
        severity = _SEVERITY.get(entry.level or "", -1)
        return severity < 0 or severity >= self.minimum

    def set_minimum(self, level: str | None) -> None:
        """Show the entries at ``level`` and above (and every request)."""
        self.beginResetModel()
        self.minimum = _SEVERITY.get(level or "", 0)
        self.rows = [entry for entry in self.entries if self.shows(entry)]
        self.endResetModel()

    def rowCount(self, parent: _ModelIndex = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: _ModelIndex = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole \
                and 0 <= section < len(self.COLUMNS):
            return (_("Time"), _("Level"), _("Server"), _("Operation"), _("Logger"), _("Message"))[section]
        return None

    def add(self, entry: LogEntry) -> None:
        self.extend([entry])

    def extend(self, entries: list[LogEntry], dropped: int = 0) -> None:
        """Append a batch at once (one change for the views, however many entries); ``dropped``:
        lines dropped before they reached the log, counted with those the log drops."""
        over = max(0, len(entries) - MAX_ENTRIES)
        self.dropped += dropped + over
        entries = entries[over:]
        if not entries:
            return
        drop = max(0, len(self.entries) + len(entries) - MAX_ENTRIES)
        self.dropped += drop
        shown = [entry for entry in entries if self.shows(entry)]
        if self.entries and drop >= len(self.entries):
            # The batch replaces every entry: one reset is cheaper for the table than removing
            # thousands of rows and inserting as many.
            self.beginResetModel()
            self.entries, self.rows = list(entries), shown
            self.endResetModel()
            return
        # The rows are the shown entries in order: those of the oldest entries come first.
        rows_gone = sum(1 for entry in self.entries[:drop] if self.shows(entry))
        if rows_gone:
            self.beginRemoveRows(QModelIndex(), 0, rows_gone - 1)
            del self.rows[:rows_gone]
            self.endRemoveRows()
        del self.entries[:drop]
        self.entries.extend(entries)
        if shown:
            row = len(self.rows)
            self.beginInsertRows(QModelIndex(), row, row + len(shown) - 1)
            self.rows.extend(shown)
            self.endInsertRows()

    def clear(self) -> None:
        self.beginResetModel()
        self.entries, self.rows = [], []
        self.dropped = 0
        self.endResetModel()

    def data(self, index: _ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        entry = self.rows[index.row()]
        column = self.COLUMNS[index.column()]
        if role == self.SeverityRole:
            return LOG_LEVELS.index(entry.level) if entry.level in LOG_LEVELS else -1
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return self._text(entry, column)
        if role == Qt.ItemDataRole.ToolTipRole and column == "message":
            return plain_tooltip(cell_text(self._message(entry), TOOLTIP_CHARS))
        if role == Qt.ItemDataRole.ToolTipRole and column in ("server", "operation"):
            # Both cells may be cut to the column's width: the whole name is a hover away.
            name = entry.server if column == "server" else entry.operation
            return plain_tooltip(cell_text(name, TOOLTIP_CHARS)) if name is not None else None
        if role == Qt.ItemDataRole.ForegroundRole:
            return self._colour(entry, column)
        if role == Qt.ItemDataRole.FontRole and self._bold(entry, column):
            font = QFont()
            font.setBold(True)
            return font
        return None

    def cell(self, row: int, column: int) -> tuple[str, QColor | None, bool] | None:
        """What a painted cell shows: its text, its colour (or None) and whether it is bold; one
        call for the delegate (:class:`~.log_delegate.LogCellDelegate`) instead of one per role."""
        if not 0 <= row < len(self.rows) or not 0 <= column < len(self.COLUMNS):
            return None
        entry, name = self.rows[row], self.COLUMNS[column]
        return self._text(entry, name), self._colour(entry, name), self._bold(entry, name)

    @staticmethod
    def _colour(entry: LogEntry, column: str) -> QColor | None:
        if column != "level":
            return None
        if entry.stderr:
            return QColor("#6E6E6E")
        refused = entry.declined or entry.refused
        return QColor(_LEVEL_STYLE.get(entry.level or "", ("#D55E00" if refused else "#0072B2", ""))[0])

    @staticmethod
    def _bold(entry: LogEntry, column: str) -> bool:
        return column == "level" and _SEVERITY.get(entry.level or "", -1) >= _SEVERITY["error"]

    def _text(self, entry: LogEntry, column: str) -> str:
        if column == "time":
            self.zone_marks.note(entry.at)
            return format_time(entry.at)
        if column == "level":
            if entry.stdout_fault:
                return _("⚠ stdout")
            if entry.stderr:
                return _("▤ stderr")
            if entry.level is None:
                return _("⇄ request")
            mark = _LEVEL_STYLE.get(entry.level, ("", ""))[1]
            word = level_word(entry.level)
            return _("{mark} {level}").format(mark=mark, level=word) if mark else word
        if column == "server":
            return cell_text(entry.server, 60)
        if column == "operation":
            if entry.stderr:
                return _("process")
            return cell_text(entry.operation, 60) if entry.operation is not None else _("listening")
        if column == "logger":
            return cell_text(entry.logger or "", 60)
        return cell_text(self._message(entry), DATA_CELL_CHARS)

    def _message(self, entry: LogEntry) -> str:
        if entry.stdout_fault:
            return translate(entry.data)
        if entry.stderr:
            return data_text(entry.data)
        if entry.request is None:
            # A Message is the client's own sentence (requests dropped), translated; else server data.
            return translate(entry.data) if isinstance(entry.data, Message) else data_text(entry.data)
        if entry.refused and entry.operation is None:
            return _("{reason} Listening goes on; the server logs at the level it chooses.").format(
                reason=translate(entry.data))
        if entry.refused:
            return _("{reason} The operation goes on; the server logs at the level it chooses.").format(
                reason=translate(entry.data))
        if entry.declined and isinstance(entry.data, Message):  # the client's own reason (a limit, "stop asking")
            return _("{method}: declined ({reason})").format(method=entry.request, reason=translate(entry.data))
        if entry.declined:  # the client's reason: one of ours in the reader's language, another as it is
            ours, reason = own_reason(entry.data), entry.data.get("message") if isinstance(entry.data, dict) else None
            return _("{method}: declined ({reason})").format(
                method=entry.request, reason=translate(ours) if ours is not None else data_text(reason or ""))
        return _("{method}: answered {answer}").format(method=entry.request, answer=data_text(entry.data))


class ServerLogView(QWidget):
    """The log table with its filter, Clear, and the listener's state."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = ServerLogModel()
        follow_language(self.model)
        # Where the dock has no room for its wrapped lines (a small window, a high scaling), the lines that
        # fit, the last one ending in "…", and the whole text in the tip; never half of two lines.
        self.state = FittedLabel()
        #: What the state line says, made again in a new language (the owner says a listener's state again).
        self._state_said = False
        translated(self.state, "setText", self._idle_sentence)
        translated(self.state, "setAccessibleName", lambda: _("Listening state"))
        self.minimum = QComboBox()
        for level in LOG_LEVELS:
            translated_item(self.minimum, lambda level=level: level_word(level), level)
        self.minimum.currentIndexChanged.connect(lambda _i: self.model.set_minimum(self.minimum.currentData()))
        self.clear_button = translated(QPushButton(), "setText", lambda: _("Clear"))
        translated(self.clear_button, "setAccessibleName", lambda: _("Clear the server log"))
        self.clear_button.clicked.connect(self.clear)
        #: How many earlier lines were dropped (shown once some were).
        self.dropped = QLabel()
        self.dropped.setTextFormat(Qt.TextFormat.PlainText)
        self.dropped.setObjectName("server-log-dropped")
        self.dropped.hide()
        translated(self.dropped, "setText", self._dropped_sentence)
        translated(self.dropped, "setToolTip", lambda: _(
            "The log keeps the newest {count} lines; older ones are dropped.").format(
                count=format_number(MAX_ENTRIES)))
        show = translated(QLabel(), "setText", lambda: _("Show from"))
        label_combo(self.minimum, lambda: _("Show messages from this level up"), show)
        head = QHBoxLayout()
        head.addWidget(self.state, 1)
        head.addWidget(self.dropped)
        head.addSpacing(12)
        head.addWidget(show)
        head.addWidget(self.minimum)
        head.addWidget(self.clear_button)
        self.table = one_tab_stop(QTableView())
        self.table.setModel(self.model)
        self.table.setItemDelegate(LogCellDelegate(self.table))
        translated(self.table, "setAccessibleName", lambda: _("Server log"))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 6)
        header = self.table.horizontalHeader()
        translated(header, "setAccessibleName", lambda: _("Server log columns"))
        header.setStretchLastSection(True)
        for column in range(5):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        self.fit_time_column()
        self.model.zone_marks.grew.connect(self.fit_time_column)
        on_language_changed(self, self.fit_time_column)
        self.table.setColumnWidth(1, self.table.fontMetrics().horizontalAdvance("◆ emergency") + 24)
        self.table.setColumnWidth(2, 130)
        self.table.setColumnWidth(3, 200)
        self.table.setColumnWidth(4, 90)
        self._fit_least()
        for changed in (self.model.rowsInserted, self.model.rowsRemoved, self.model.modelReset):
            changed.connect(lambda *_args: self._fit_least())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 4)
        layout.addLayout(head)
        layout.addWidget(self.table, 1)

    def _fit_least(self) -> None:
        """The least height: empty, its column heads (the dock is fitted to its rows, .log_dock); in use,
        :data:`LEAST_LINES` of its lines as high as the font makes them, the state line giving way to them
        (at 16 points on a 600 px screen the dock held its title, state line and column heads only)."""
        rows = min(self.model.rowCount(), LEAST_LINES) * self.table.verticalHeader().defaultSectionSize()
        least = self.table.horizontalHeader().sizeHint().height() + 2 * self.table.frameWidth() + rows
        if least != self.table.minimumHeight():
            self.table.setMinimumHeight(least)
            self._cap_state()

    def _cap_state(self) -> None:
        """The state line no higher than the room above the log's least: a box layout gives a wrapped line
        all its lines and would lay the rows under the dock's foot."""
        layout = self.layout()
        if layout is None:
            return
        margins = layout.contentsMargins()
        room = self.height() - margins.top() - margins.bottom() - layout.spacing() - self.table.minimumHeight()
        self.state.setMaximumHeight(max(self.state.minimumSizeHint().height(), room))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._cap_state()

    def fit_time_column(self) -> None:
        """Widen the time column to any time the locale writes, with each zone said beside a shown time
        ("2:30:00 AM (UTC+1)" in the hour a clock is set back): no "(UTC+1)" cut to "…"."""
        samples = self.model.zone_marks.samples(lambda at: format_time(at, zone=UTC))
        wanted = max(self.table.fontMetrics().horizontalAdvance(text) for text in samples) + 20
        if self.table.columnWidth(0) < wanted:
            self.table.setColumnWidth(0, wanted)

    def fitted_height(self) -> int:
        """The height that shows the head (its state line wrapped as wide as it is), the column heads and
        a row per line shown, without scrolling."""
        layout = self.layout()
        margins = layout.contentsMargins()
        head = layout.itemAt(0).layout()
        state = self.state.heightForWidth(self.state.width()) if self.state.width() > 0 else 0
        table = self.table.horizontalHeader().sizeHint().height() + 2 * self.table.frameWidth() + \
            self.model.rowCount() * self.table.verticalHeader().defaultSectionSize()
        if self.table.horizontalScrollBar().isVisible():
            table += self.table.horizontalScrollBar().height()
        return margins.top() + max(head.minimumSize().height(), state) + layout.spacing() + table + margins.bottom()

    def add(self, entry: LogEntry) -> None:
        self.add_many([entry])

    def add_many(self, entries: list[LogEntry], dropped: int = 0) -> None:
        """Add a batch of entries (as the log feed delivers them, with the count of lines dropped
        before them); follow the end if it was shown."""
        at_end = self.table.verticalScrollBar().value() >= self.table.verticalScrollBar().maximum() - 2
        self.model.extend(entries, dropped)
        if at_end:
            self.table.scrollToBottom()
        self._show_dropped()

    def clear(self) -> None:
        """Empty the log (and forget what it dropped)."""
        self.model.clear()
        self._show_dropped()

    def _show_dropped(self) -> None:
        self.dropped.setText(self._dropped_sentence())
        self.dropped.setVisible(self.model.dropped > 0)

    def _dropped_sentence(self) -> str:
        count = self.model.dropped
        return ngettext("{count} earlier line dropped", "{count} earlier lines dropped", count).format(
            count=format_number(count))

    def _idle_sentence(self) -> str:
        return self.state.text() if self._state_said else _("Not listening: no server selected.")

    def show_state(self, text: str) -> None:
        self._state_said = True
        self.state.setText(text)
