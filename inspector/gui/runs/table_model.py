"""What the run list and the timeline models share: named columns with translated headings, a
flat table (no children), and one check that an index names a cell of a row that exists."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from ..language import follow_language

Index = QModelIndex | QPersistentModelIndex


class NamedColumnsModel(QAbstractTableModel):
    """A flat table whose columns are named by :attr:`COLUMNS` and headed by :meth:`headings`.

    Subclasses say how many rows there are (:meth:`row_count`) and what a cell holds; the rest of
    Qt's table interface is here, once."""

    #: The columns' keys, in order.
    COLUMNS: tuple[str, ...] = ()

    def __init__(self) -> None:
        super().__init__()
        follow_language(self)
        #: A heading's tooltip, made in the language of the moment (``None``: it has none).
        self._heading_tips: dict[int, Callable[[], str | None]] = {}

    def set_heading_tip(self, section: int, tip: Callable[[], str | None]) -> None:
        """Column ``section``'s heading says ``tip()`` in its tooltip from now on."""
        self._heading_tips[section] = tip
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, section, section)

    def headings(self) -> tuple[str, ...]:
        """The columns' headings in the current language (one per column)."""
        raise NotImplementedError

    def row_count(self) -> int:
        raise NotImplementedError

    def column_of(self, index: Index) -> str | None:
        """The key of the column ``index`` is in, or ``None`` when it is no cell of this table.

        Called for every role of every painted cell: kept to the cheapest checks (a flat table's
        indexes never have a parent; a row out of range is the subclass's to refuse)."""
        column = index.column()
        if not index.isValid() or not 0 <= column < len(self.COLUMNS):
            return None
        return self.COLUMNS[column]

    # -- Qt's model interface -----------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else self.row_count()

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.COLUMNS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.headings()[section]
        if role == Qt.ItemDataRole.ToolTipRole and section in self._heading_tips:
            return self._heading_tips[section]()
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable


__all__ = ["Index", "NamedColumnsModel"]
