"""A step's attributes are read for their values: in a window of the size it opens at (the detail beside the
timeline, about 250 px of table), the Value column is on screen beside the Key, not scrolled out of sight
behind a Key column 190 px wide (it was: Origin and Key filled the table, the values began past its right
edge). A key cut short keeps both its ends and says itself whole in its tip, as a value does; where there
is room the Key keeps its 190 px, and a Key column the user widened stays as wide."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.gui.main_window import DEFAULT_SIZE
from inspector.gui.widgets.middle_elided import MiddleElided
from tests.gui.test_runs_span_detail import imported_agent_run, open_run, step_row

KEY, VALUE = 1, 2


def shown_width(view, column: int) -> int:
    """How many pixels of ``column`` are inside the table's viewport."""
    left = view.columnViewportPosition(column)
    return max(0, min(left + view.columnWidth(column), view.viewport().width()) - max(left, 0))


def attributes_of_failed_call(qtbot, make_window, width: int):
    run_id = imported_agent_run("traceloop.jsonl")
    window, tab = open_run(qtbot, make_window, run_id)
    window.resize(width, DEFAULT_SIZE.height())
    tab.select_step(step_row(tab, "fail:"))
    panel = tab.detail.span.attributes
    tab.detail.tabs.setCurrentWidget(panel)
    qtbot.waitUntil(lambda: panel.view.viewport().width() > 0 and panel.model.rowCount() > 5)
    QApplication.processEvents()
    return window, tab, panel


@pytest.mark.parametrize("language", ["en", "de"])
def test_values_are_on_screen_at_the_window_size_it_opens_at(qtbot, make_window, language) -> None:
    window, tab, panel = attributes_of_failed_call(qtbot, make_window, DEFAULT_SIZE.width())
    switch_language(language)
    try:
        QApplication.processEvents()
        view = panel.view
        assert tab.lower.orientation() == Qt.Orientation.Horizontal  # the detail beside the timeline
        room = view.viewport().width()
        assert room < 320, room  # the narrow table this is about
        assert shown_width(view, VALUE) >= 60, [view.columnWidth(column) for column in range(3)]
        assert shown_width(view, KEY) >= 60
        # A key cut short keeps both its ends (the keys of a span share their beginnings), and is whole in
        # its tip, as a value is.
        assert isinstance(view.itemDelegateForColumn(KEY), MiddleElided)
        model = panel.model
        row = next(row for row in range(model.rowCount()) if model.row_at(row).key == "traceloop.entity.name")
        assert ">traceloop.entity.name<" in panel.model.index(row, KEY).data(Qt.ItemDataRole.ToolTipRole)
        assert ">fail<" in panel.model.index(row, VALUE).data(Qt.ItemDataRole.ToolTipRole)
    finally:
        switch_language("en")


def test_with_room_the_key_keeps_its_width_and_a_widened_key_stays(qtbot, make_window) -> None:
    window, tab, panel = attributes_of_failed_call(qtbot, make_window, 1920)
    view = panel.view
    assert view.columnWidth(KEY) == 190
    assert view.columnViewportPosition(VALUE) + view.columnWidth(VALUE) == view.viewport().width()  # no sideways
    view.horizontalHeader().resizeSection(KEY, 240)  # as the user drags the Key's edge
    QApplication.processEvents()
    assert view.columnWidth(KEY) == 240 and shown_width(view, VALUE) >= 60
