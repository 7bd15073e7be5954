"""A column whose text is shortened in its middle where it does not fit: a run's title keeps both its ends
("invoke_agent support-agent" reads "invoke_a…rt-agent", not "invoke_agent sup…", which every agent's run of one
operation shares). A mark every title of a kind ends in goes first ("tools/call get_weather · proxy" read
"tools/ca… · proxy" at 120 px, as every proxied call did; "tools/c…weather" now). The whole text is in the cell's
tooltip, as the model gives it."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem


class MiddleElided(QStyledItemDelegate):
    """Paints its column's text with its middle elided, and without ``mark`` at its end where it does not fit."""

    def __init__(self, parent: QObject | None = None, mark: str = "") -> None:
        super().__init__(parent)
        self._mark = mark

    def initStyleOption(self, option: QStyleOptionViewItem,  # noqa: N802 - Qt's name
                        index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideMiddle
        if self._mark and option.text.endswith(self._mark) and option.rect.width() > 0 \
                and QFontMetrics(option.font).horizontalAdvance(option.text) > _text_room(option):
            option.text = option.text.removesuffix(self._mark).rstrip()


def _text_room(option: QStyleOptionViewItem) -> int:
    """The width the style gives a cell's text (its text rectangle less the margins it keeps each side)."""
    widget = option.widget
    style = widget.style() if widget is not None else QApplication.style()
    margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, widget) + 1
    return style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, widget).width() - 2 * margin


__all__ = ["MiddleElided"]
