"""A server's tool catalogue as a list model, and the filter on name and description."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt

from inspector.i18n import _
from inspector.i18n.messages import Message, translate

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
    """One row per tool; the display is the name, the tooltip the description (plain text).

    After the tools that can be called come those the server listed but that must not be called
    (e.g. an invalid ``x-mcp-header`` annotation): shown disabled, marked "excluded", the reason
    in the tooltip and the accessible text; they have no :data:`ToolRole` (nothing runs them)."""

    def __init__(self) -> None:
        super().__init__()
        self._tools: list[dict[str, Any]] = []
        self._excluded: list[tuple[dict[str, Any], Message | str]] = []

    def set_tools(self, tools: list[dict[str, Any]],
                  excluded: Iterable[tuple[dict[str, Any], Message | str]] = ()) -> None:
        self.beginResetModel()
        self._tools = [tool for tool in tools if tool_name(tool)]
        self._excluded = [(tool, reason) for tool, reason in excluded if isinstance(tool, dict)]
        self.endResetModel()

    @property
    def excluded_count(self) -> int:
        return len(self._excluded)

    def tool(self, row: int) -> dict[str, Any] | None:
        """The tool of ``row`` if it can be called (``None`` for an excluded one)."""
        return self._tools[row] if 0 <= row < len(self._tools) else None

    def entry(self, row: int) -> dict[str, Any] | None:
        """The tool of ``row``, callable or excluded (what the filter reads)."""
        if 0 <= row < len(self._tools):
            return self._tools[row]
        row -= len(self._tools)
        return self._excluded[row][0] if 0 <= row < len(self._excluded) else None

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self._tools) + len(self._excluded)

    def flags(self, index: Index) -> Qt.ItemFlag:
        if index.isValid() and index.row() >= len(self._tools):
            return Qt.ItemFlag.NoItemFlags  # shown greyed, never selected or run
        return super().flags(index)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < self.rowCount() or index.column() != 0:
            return None
        if index.row() >= len(self._tools):
            return self._excluded_data(*self._excluded[index.row() - len(self._tools)], role)
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

    @staticmethod
    def _excluded_data(tool: dict[str, Any], reason: Message | str, role: int) -> Any:
        name = cell_text(tool_name(tool) or _("(unnamed)"), 200)
        why = translate(reason)
        if role == Qt.ItemDataRole.DisplayRole:
            return _("{name} (excluded)").format(name=name)
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return _("{name}, excluded: {reason}").format(name=name, reason=why)
        if role == Qt.ItemDataRole.ToolTipRole:
            description = tool_description(tool)
            text = _("This tool cannot be called: {reason}").format(reason=why)
            return plain_tooltip(f"{text}\n\n{description[:2000]}" if description else text)
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
        tool = model.entry(source_row) if isinstance(model, ToolsModel) else None
        if tool is None:
            return False
        return self._needle in tool_name(tool).casefold() or self._needle in tool_description(tool).casefold()


