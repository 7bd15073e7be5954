"""A server's tool catalogue as a list model, and the filter on name and description."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt

from ..widgets.plain_text import cell_text, plain_tooltip

ToolRole = Qt.ItemDataRole.UserRole + 1
Index = QModelIndex | QPersistentModelIndex


def tool_name(tool: dict[str, Any]) -> str:
    name = tool.get("name")
    return name if isinstance(name, str) else ""


def tool_description(tool: dict[str, Any]) -> str:
    text = tool.get("description")
    return text if isinstance(text, str) else ""


class ToolsModel(QAbstractListModel):
    """One row per tool; the display is the name, the tooltip the description (plain text)."""

    def __init__(self) -> None:
        super().__init__()
        self._tools: list[dict[str, Any]] = []

    def set_tools(self, tools: list[dict[str, Any]]) -> None:
        self.beginResetModel()
        self._tools = [tool for tool in tools if tool_name(tool)]
        self.endResetModel()

    def tool(self, row: int) -> dict[str, Any] | None:
        return self._tools[row] if 0 <= row < len(self._tools) else None

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self._tools)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._tools) or index.column() != 0:
            return None
        tool = self._tools[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return cell_text(tool_name(tool), 200)  # the name called stays exact: only the row shows it visibly
        if role == Qt.ItemDataRole.ToolTipRole:
            # Escaped for Qt's tooltip, which would render rich text: server text stays plain.
            description = tool_description(tool)
            return plain_tooltip(description[:2000]) if description else None
        if role == ToolRole:
            return tool
        return None



class ToolFilter(QSortFilterProxyModel):
    """Keeps the tools whose name or description holds the typed text (any case)."""

    def __init__(self) -> None:
        super().__init__()
        self._needle = ""

    def set_text(self, text: str) -> None:
        if hasattr(self, "beginFilterChange"):  # Qt >= 6.9: the invalidation is bracketed
            self.beginFilterChange()
            self._needle = text.strip().casefold()
            self.endFilterChange()
        else:
            self._needle = text.strip().casefold()
            self.invalidateFilter()

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:  # noqa: N802
        if not self._needle:
            return True
        model = self.sourceModel()
        tool = model.tool(source_row) if isinstance(model, ToolsModel) else None
        if tool is None:
            return False
        return self._needle in tool_name(tool).casefold() or self._needle in tool_description(tool).casefold()


