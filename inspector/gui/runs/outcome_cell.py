"""The timeline's Outcome cell: the step's outcome in the words of ``runs show`` ("failed: timed out"),
or, where the column is too narrow for them, the kind of failure alone beside the failed icon ("timed
out"): a word is never cut. The whole words stay the cell's tooltip and what a screen reader says.
The Runs list's Status cell is painted so too: "failed (2 of 4 tool calls failed)" as ``runs list`` says
it, or "failed" alone beside the icon."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

#: The model's role for a step's kind of failure alone, or a run's status word without its reason ("" or
#: ``None``: it has none, its whole words are all it says).
FailureRole = Qt.ItemDataRole.UserRole + 7  # after the timeline's own (timeline_model.py, timeline_tree.py)


def fitting_text(option: QStyleOptionViewItem, failure: str | None) -> str:
    """The text the cell of ``option`` (initialised for its index) shows: its whole text where it fits,
    else ``failure`` where there is one."""
    if not failure:
        return option.text
    style = option.widget.style() if option.widget is not None else QApplication.style()
    room = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, option.widget).width()
    # The style draws the text this far in from each side of its rectangle (Qt's item view text margin).
    margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, option, option.widget) + 1
    return option.text if option.fontMetrics.horizontalAdvance(option.text) <= room - 2 * margin else failure


class OutcomeCellDelegate(QStyledItemDelegate):
    """Paints the Outcome (or Status) column's cells with :func:`fitting_text`."""

    def initStyleOption(self, option: QStyleOptionViewItem,  # noqa: N802
                        index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        option.text = fitting_text(option, index.data(FailureRole))


__all__ = ["FailureRole", "OutcomeCellDelegate", "fitting_text"]
