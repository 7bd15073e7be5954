"""The timeline's Outcome cell: the step's outcome in the words of ``runs show`` ("failed: timed out"),
or, where the column is too narrow for them, the kind of failure alone beside the failed icon ("timed
out"): a word is never cut. The whole words stay the cell's tooltip and what a screen reader says. Compare's
cells of the two runs are painted so too ("timed out · 0.5 s" where "failed: timed out · 0.5 s" does not fit).
The Runs list's Status cell is painted so too: "failed (2 of 4 tool calls failed)" as ``runs list`` says
it; where the column is narrower, its reason cut after a whole word as ``runs list`` cuts it at a narrow
terminal ("failed (2 of 4 tool calls…", :func:`inspector.i18n.run_cells.cut_reasons`), so that the counts show
while there is room for them. A run whose failed calls all ended one known way says that kind alone beside the
failed icon ("timed out", "Zeitüberschreitung") before a cut that no longer names it; else "failed" alone."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QSize, Qt
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from inspector.i18n.run_cells import fitted_status

#: The model's role for a step's kind of failure alone, or a run's status word without its reason ("" or
#: ``None``: it has none, its whole words are all it says).
FailureRole = Qt.ItemDataRole.UserRole + 7  # after the timeline's own (timeline_model.py, timeline_tree.py)
#: The model's role for a failed run's reason in its fewest words, its kind of failure ("timed out"), where known.
ShortReasonRole = Qt.ItemDataRole.UserRole + 8


def fitting_text(option: QStyleOptionViewItem, failure: str | None, short: str | None = None) -> str:
    """The text the cell of ``option`` (initialised for its index) shows: its whole text where it fits,
    else, for a run's status and its reason ("failed (2 of 4 tool calls failed)", ``failure`` "failed"), the
    reason cut after the last whole word that fits, as long as the cut still says ``short`` (the reason's kind of
    failure, "timed out"), else ``short`` alone, else another cut, else ``failure`` where there is one."""
    if not failure:
        return option.text
    style = option.widget.style() if option.widget is not None else QApplication.style()
    room = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, option.widget).width()
    # The style draws the text this far in from each side of its rectangle (Qt's item view text margin).
    margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, option, option.widget) + 1

    metrics = QFontMetricsF(option.font)  # fractional, as the style lays the text out: 320.48 px does not fit 320

    def fits(text: str) -> bool:
        return metrics.horizontalAdvance(text) <= room - 2 * margin

    return fitted_status(option.text, failure, short, fits) or failure


class OutcomeCellDelegate(QStyledItemDelegate):
    """Paints the Outcome (or Status) column's cells with :func:`fitting_text`; the size a cell asks for is
    its whole words' (a column sized from its cells is as wide as they are, where it has the room)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._sizing = False

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:  # noqa: N802
        self._sizing = True
        try:
            return super().sizeHint(option, index)
        finally:
            self._sizing = False

    def initStyleOption(self, option: QStyleOptionViewItem,  # noqa: N802
                        index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        if not self._sizing:
            option.text = fitting_text(option, index.data(FailureRole), index.data(ShortReasonRole))


__all__ = ["FailureRole", "OutcomeCellDelegate", "ShortReasonRole", "fitting_text"]
