"""Compare on a 1,024 px screen, in German: a run's cell too narrow for "✗ fehlgeschlagen: Zeitüberschreitung ·
0,5 s" said "✗ fehlgeschlagen: Zeitüberschreitu…" (the kind cut, the duration gone) while the other run's column
showed the same words whole. Such a cell says the kind of failure alone beside the failed icon and the duration
("✗ Zeitüberschreitung · 0,5 s"), as the timeline's Outcome column does; its tooltip keeps the whole words."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionViewItem

from inspector.gui.language import switch_language
from inspector.gui.runs.compare_model import CompareModel
from tests.gui.test_runs_compare import cells, open_compare, two_imported_traces

WHOLE = "fehlgeschlagen: Zeitüberschreitung · "


def shown_text(view, row: int, column: int) -> tuple[str, int]:
    """The text the cell's delegate gives the style to paint, and the room the style has for it (it
    elides what is wider)."""
    index = view.model().index(row, column)
    option = QStyleOptionViewItem()
    option.rect = view.visualRect(index)
    option.widget = view
    option.fontMetrics = view.fontMetrics()
    (view.itemDelegateForColumn(column) or view.itemDelegate()).initStyleOption(option, index)
    style = view.style()
    room = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, view).width()
    margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, option, view) + 1
    return option.text, room - 2 * margin


def test_a_narrow_run_cell_says_the_kind_of_failure_and_the_duration_whole(qtbot, make_window) -> None:
    window, tab, sdk, traceloop = two_imported_traces(qtbot, make_window)
    switch_language("de")
    try:
        dialog = open_compare(qtbot, tab, [sdk, traceloop])
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        dialog.resize(900, 640)  # a dialog on a 1,024 px screen: the differences keep their room
        qtbot.waitUntil(lambda: dialog.width() == 900)
        QApplication.processEvents()
        checked = 0
        for side in ("first", "second"):
            column = CompareModel.COLUMNS.index(side)
            for row, text in enumerate(cells(dialog.model, side)):
                if not text or not text.startswith(WHOLE):
                    continue
                shown, room = shown_text(dialog.view, row, column)
                assert dialog.view.fontMetrics().horizontalAdvance(shown) <= room, (side, shown, room)  # never elided
                assert "…" not in shown, (side, shown, room)
                assert "Zeitüberschreitung" in shown and shown.endswith(" s"), (side, shown)
                index = dialog.model.index(row, column)
                assert text in index.data(Qt.ItemDataRole.ToolTipRole)  # the whole words, one hover away
                checked += 1
        assert checked == 2  # each run's timed-out call
        # Where a run's column is narrower than its whole words, the shorter ones are what it shows.
        narrow = [side for side in ("first", "second")
                  if dialog.view.columnWidth(CompareModel.COLUMNS.index(side))
                  < dialog.view.sizeHintForColumn(CompareModel.COLUMNS.index(side))]
        assert narrow, [dialog.view.columnWidth(CompareModel.COLUMNS.index(side)) for side in ("first", "second")]
    finally:
        switch_language("en")
