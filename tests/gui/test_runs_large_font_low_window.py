"""At 16 points in a window of 1,024 by 600 pixels (a small laptop's screen, a large desktop font) the
Runs tab's run list and timeline each showed one row (the step detail held its eight lines, the filters'
second line was not counted): a user could not browse the runs. They keep three rows each; the step
detail scrolls, and the window still fits the screen's height."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from inspector.store import RunStore, resolve_db_path
from tests.gui.test_runs_room import fully_visible_rows
from tests.gui.test_runs_span_detail import imported_agent_run
from tests.support.sample_runs import mixed_run


@pytest.mark.parametrize("points", [16], indirect=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_run_list_and_the_timeline_show_three_rows_at_16_points_on_a_600_pixel_screen(
        qtbot, runs_tab_showing, points, language: str) -> None:
    with RunStore.open(resolve_db_path()) as store:
        for _ in range(4):
            mixed_run(store)
    run_id = imported_agent_run("traceloop.jsonl")
    shown = runs_tab_showing(run_id, language=language, language_first=True, size=(1024, 600))
    window, tab = shown.window, shown.tab
    window.log_dock.hide()  # as a window opened on a screen 600 pixels high starts
    # Laid out again before the step is chosen, as a user's click comes after: with the log open the
    # window now fits 600 px, and a step scrolled to in the lower timeline stayed 3 px scrolled down.
    QApplication.processEvents()
    tab.select_step(2)
    qtbot.waitUntil(lambda: tab.detail.step is not None)
    QApplication.processEvents()
    assert window.minimumSizeHint().height() <= 600, window.minimumSizeHint()
    window.resize(1024, 600)
    qtbot.waitUntil(lambda: window.height() == 600)
    QApplication.processEvents()
    assert tab.lower.orientation() == Qt.Orientation.Vertical
    assert tab.runs.rowCount() >= 3 and fully_visible_rows(tab.run_view) >= 3, tab.split.sizes()
    assert fully_visible_rows(tab.timeline_view) >= 3, tab.lower.sizes()
    # The detail is a scroll away, its heading in view.
    assert tab.detail_scroll.verticalScrollBar().isVisible()
    assert not tab.detail.visibleRegion().isEmpty()
