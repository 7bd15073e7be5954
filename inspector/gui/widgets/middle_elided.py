"""A column whose text is shortened in its middle where it does not fit: a run's title keeps both its ends
("invoke_agent support-agent" reads "invoke_a…rt-agent", not "invoke_agent sup…", which every agent's run of one
operation shares). The whole text is in the cell's tooltip, as the model gives it."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem


class MiddleElided(QStyledItemDelegate):
    """Paints its column's text with its middle elided."""

    def initStyleOption(self, option: QStyleOptionViewItem,  # noqa: N802 - Qt's name
                        index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideMiddle


__all__ = ["MiddleElided"]
