"""View › Zoom in front of an audience: the Runs tab's columns grow with the font, as the Play tab's do.
At 150 % on a 1280 × 800 window, after Play → Show in Runs, the list read "05.12.2026, …" and the
timeline "12:07:…", "Mo…", "< 0,0…", its heading "Runde" over its neighbour: the columns kept the
widths fitted to the font before the zoom. Fitted, they left the timeline's details and waterfall a
sliver beside the step's detail: the detail now goes under the timeline where the bigger words need the
width (the pixel sizes the panes are arranged by grow with the font), and the waterfall grows too (its
axis read "0" alone at 150 %)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from inspector.gui.runs.runs_model import COLUMNS as RUN_COLUMNS
from inspector.gui.runs.timeline_model import COLUMNS as STEP_COLUMNS
from tests.gui.test_play_audience import played_in, shown_in_runs


def words_fit(view, columns: list[int]) -> list[tuple[int, str, int, int]]:
    """(column, text, width needed, width) of each heading and cell of ``columns`` that does not fit."""
    header, model, cut = view.horizontalHeader(), view.model(), []
    for column in columns:
        width = view.columnWidth(column)
        heading = str(model.headerData(column, Qt.Orientation.Horizontal))
        if header.fontMetrics().horizontalAdvance(heading) > width:
            cut.append((column, heading, header.fontMetrics().horizontalAdvance(heading), width))
        for row in range(model.rowCount()):
            text = str(model.index(row, column).data() or "")
            if view.fontMetrics().horizontalAdvance(text) > width:
                cut.append((column, text, view.fontMetrics().horizontalAdvance(text), width))
    return cut


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_runs_tabs_columns_grow_with_the_zoom(qtbot, make_window, language) -> None:
    with played_in(qtbot, make_window, "flaky-server", language, (1280, 800)) as (window, _room, run):
        tab = shown_in_runs(qtbot, window, run)
        timeline = [STEP_COLUMNS.index(name) for name in ("time", "kind", "round", "duration")]
        listed = [RUN_COLUMNS.index(name) for name in ("id", "started", "steps", "duration")]
        assert words_fit(tab.timeline_view, timeline) == [] and words_fit(tab.run_view, listed) == []
        assert tab.lower.orientation() == Qt.Orientation.Horizontal  # at 100 %: the detail beside
        details, waterfall = STEP_COLUMNS.index("details"), STEP_COLUMNS.index("waterfall")
        for zoom in (150, 200):
            window.view_menu.set_zoom(zoom)
            QApplication.processEvents()
            assert words_fit(tab.timeline_view, timeline) == [], zoom
            assert words_fit(tab.run_view, listed) == [], zoom
            if zoom == 150:  # the details keep a readable width (they had 30 px), the waterfall its own
                em = tab.timeline_view.fontMetrics().averageCharWidth()
                assert tab.timeline_view.columnWidth(details) >= 20 * em, tab.lower.orientation()
                assert tab.timeline_view.columnWidth(waterfall) >= 150
            # The waterfall's axis still has a scale (at 100 px its bigger labels left "0" alone); where the details
            # need its room (at 200 %), it is hidden, and nothing scrolls sideways.
            if not tab.timeline_view.isColumnHidden(waterfall):
                assert len(tab.timeline_view.horizontalHeader().labels_shown()) >= 2, zoom
            assert tab.timeline_view.horizontalScrollBar().maximum() == 0, zoom
        assert tab.lower.orientation() == Qt.Orientation.Vertical
        window.view_menu.set_zoom(100)
        QApplication.processEvents()
        assert tab.lower.orientation() == Qt.Orientation.Horizontal
        # Back at 100 %, the columns give the room back (the details take what the others leave, the waterfall shows).
        header = tab.timeline_view.horizontalHeader()
        time_column = STEP_COLUMNS.index("time")
        assert not tab.timeline_view.isColumnHidden(waterfall)
        assert header.length() == tab.timeline_view.viewport().width()
        assert tab.timeline_view.columnWidth(time_column) < 1.5 * tab.timeline_view.fontMetrics().horizontalAdvance(
            tab.timeline.index(0, time_column).data())
