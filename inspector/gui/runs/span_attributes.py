"""The Attributes tab of a step from a trace: every attribute of its span, resource and scope (and of
a joined call's server side, marked), with a filter and Copy as JSON. Values are plain text, cut in
the cell with an ellipsis; Copy gives them whole."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QSize, Qt, Signal
from PySide6.QtGui import QFont, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _, ngettext
from inspector.i18n.formatting import format_number

from ..language import on_language_changed, translated
from ..widgets.accessibility import name_clear_button
from ..widgets.middle_elided import MiddleElided
from ..widgets.plain_text import cell_text, plain_tooltip, visible
from ..widgets.tab_stops import one_tab_stop
from .columns import RoomyColumn
from .span_facts import AttributeRow, origin_word

#: How many characters of a value a cell shows (Copy gives the whole value); its tooltip shows more.
CELL_CHARS = 200
TOOLTIP_CHARS = 2_000
#: The Key column's width where the table has room; in a narrow one (the detail beside the timeline in a
#: window of the size it opens at: about 250 px) it gives way down to its least, so that the Value column
#: is on screen beside it rather than scrolled out of sight; the Value never narrower than its least.
KEY_PX = 190
KEY_LEAST_PX = 70
VALUE_KEEPS_PX = 110
VALUE_LEAST_PX = 60

AnyIndex = QModelIndex | QPersistentModelIndex


class AttributeModel(QAbstractTableModel):
    """Rows of (origin, key, value); :meth:`set_filter` keeps those whose key or value holds a text."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._all: list[AttributeRow] = []
        self._texts: list[str] = []
        self._rows: list[AttributeRow] = []
        self._needle = ""

    def headings(self) -> tuple[str, str, str]:
        return (_("Origin"), _("Key"), _("Value"))

    def set_rows(self, rows: list[AttributeRow]) -> None:
        self._all = list(rows)
        self._texts = [(row.key + "\n" + row.value_text()).lower() for row in self._all]
        self._refilter()

    def set_filter(self, text: str) -> None:
        self._needle = text.strip().lower()
        self._refilter()

    def _refilter(self) -> None:
        self.beginResetModel()
        self._rows = [row for row, text in zip(self._all, self._texts, strict=True)
                      if not self._needle or self._needle in text]
        self.endResetModel()

    @property
    def total(self) -> int:
        return len(self._all)

    def row_at(self, row: int) -> AttributeRow:
        return self._rows[row]

    def shown_rows(self) -> list[AttributeRow]:
        return list(self._rows)

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008, N802 - Qt's signature
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008, N802 - Qt's signature
        return 0 if parent.isValid() else 3

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802 - Qt's name
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole and 0 <= section < 3:
            return self.headings()[section]
        return None

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        column = index.column()
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            if column == 0:
                return origin_word(row.origin)
            return cell_text(row.key if column == 1 else row.value_text(), CELL_CHARS)
        if role == Qt.ItemDataRole.ToolTipRole and column in (1, 2):  # a key cut short, as a value, whole
            text = row.key if column == 1 else row.value_text()
            shown = visible(text[:TOOLTIP_CHARS]) + ("…" if len(text) > TOOLTIP_CHARS else "")
            return plain_tooltip(shown)
        if role == Qt.ItemDataRole.FontRole and row.is_server:
            font = QFont()
            font.setItalic(True)  # the server side's: marked by its words and by its slant
            return font
        return None


class AttributesPanel(QWidget):
    """The table of a step's attributes with its filter field and Copy button."""

    #: A sentence for the status line (what Copy put on the clipboard), made again in a new language.
    said = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.sequence = 0
        self.model = AttributeModel(self)
        self.filter = QLineEdit()
        name_clear_button(self.filter, lambda: _("Clear the attribute filter"))
        translated(self.filter, "setPlaceholderText", lambda: _("Filter keys and values…"))
        translated(self.filter, "setAccessibleName", lambda: _("Filter the attributes"))
        self.filter.textChanged.connect(self.model.set_filter)
        self.copy = translated(QPushButton(), "setText", lambda: _("Copy attributes"))
        translated(self.copy, "setAccessibleName", lambda: _("Copy the selected attributes, or all shown, as JSON"))
        self.copy.clicked.connect(self.copy_attributes)
        # Ctrl+C in the table copies as the button does (the selected rows, whole, as JSON).
        copy_keys = QShortcut(QKeySequence(QKeySequence.StandardKey.Copy), self, self.copy_attributes)
        copy_keys.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.view = one_tab_stop(QTableView())
        self.view.setModel(self.model)
        translated(self.view, "setAccessibleName", lambda: _("Attributes"))
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setWordWrap(False)
        self.view.verticalHeader().hide()
        self.view.verticalHeader().setDefaultSectionSize(self.view.fontMetrics().height() + 6)
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)
        self.view.setColumnWidth(1, KEY_PX)
        # A key cut short keeps both ends: "traceloop.entity.input" and ".output" read "trac…input" and "trac…output".
        self.view.setItemDelegateForColumn(1, MiddleElided(self.view))
        self.value_column = RoomyColumn(self.view, 2, VALUE_LEAST_PX, givers={1: KEY_LEAST_PX},
                                        keeps={1: VALUE_KEEPS_PX})
        # No taller than the detail's other tabs: the detail has little height beside the timeline.
        self.view.setMinimumHeight(40)
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.filter, 1)
        top.addWidget(self.copy)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(top)
        layout.addWidget(self.view, 1)
        on_language_changed(self, self._headings_again)

    def _headings_again(self) -> None:
        self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, 2)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(256, 192)  # as a text tab's: the filter row does not make the detail ask for more

    def show_rows(self, rows: list[AttributeRow], sequence: int) -> None:
        self.sequence = sequence
        self.model.set_rows(rows)

    def selected_rows(self) -> list[AttributeRow]:
        chosen = sorted({index.row() for index in self.view.selectionModel().selectedRows()})
        return [self.model.row_at(row) for row in chosen]

    def copy_attributes(self) -> str:
        """Put the selected rows (or every row shown) on the clipboard as JSON; say what was copied."""
        rows = self.selected_rows() or self.model.shown_rows()
        text = json.dumps([row.to_json() for row in rows], ensure_ascii=False, indent=2)
        QApplication.clipboard().setText(text)
        count, sequence, chars = len(rows), self.sequence, len(text)

        def words() -> str:
            return ngettext("Copied {count} attribute of step {sequence} as JSON ({chars} characters).",
                            "Copied {count} attributes of step {sequence} as JSON ({chars} characters).",
                            count).format(count=format_number(count), sequence=format_number(sequence),
                                          chars=format_number(chars))

        self.said.emit(words)
        return words()


__all__ = ["AttributeModel", "AttributesPanel"]
