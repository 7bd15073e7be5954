"""At 16 points on a screen 600 pixels high, with the Server log open, the window needed 626 px in English
and 649 px in German (the Workbench alone 418 and 441, its call box 258 in German): its bottom was off the
screen, German "Abbrechen (Esc)" cut at the foot of the call box, and the log a fifth of the window (120 px),
its title, state line and column heads, not one of its lines. The tools and the call scroll where the
window is low; a log in use shows two lines whatever the font; the window fits the screen."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.gui.workbench.log_entry import LogEntry


@pytest.mark.parametrize("points", [16], indirect=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_workbench_and_the_server_log_fit_a_600_pixel_screen_at_16_points(
        qtbot, make_window, demo_server, points, language: str) -> None:
    switch_language(language)  # before the window is made, as a user's language is
    try:
        window = make_window((demo_server.url, "Demo server"))
        bench, dock = window.workbench, window.log_dock
        bench.tools.view.setCurrentIndex(bench.tools.view.model().index(0, 0))  # a tool: its form and Run
        dock.show()
        dock.add_entries([LogEntry(datetime.now(timezone.utc), "info", "app", f"line {number}", "Demo server")
                          for number in range(5)])
        QApplication.processEvents()
        assert bench.arguments.isVisible() and bench.cancel_button.isVisible()
        assert window.minimumSizeHint().height() <= 600, (window.minimumSizeHint(), bench.minimumSizeHint())
        window.resize(1024, 600)
        qtbot.waitUntil(lambda: window.height() == 600)
        qtbot.wait(50)  # the dock is fitted once a turn
        QApplication.processEvents()
        # Two of the log's lines shown whole below its column heads (its state line gives way: "…").
        table = dock.view.table
        row = table.verticalHeader().defaultSectionSize()
        seen = table.viewport().visibleRegion().boundingRect().height()
        assert seen >= 2 * row, (dock.height(), seen, row)
        assert dock.view.state.height() >= dock.view.state.fontMetrics().height()
        # Cancel whole inside the call box, and whole on the screen once scrolled to.
        cancel, call = bench.cancel_button, bench.call_box
        assert call.rect().contains(QRect(cancel.mapTo(call, QPoint(0, 0)), cancel.size())), (
            cancel.geometry(), call.size())
        scroll = bench.widget(0)
        scroll.ensureWidgetVisible(cancel)
        QApplication.processEvents()
        assert cancel.visibleRegion().boundingRect() == cancel.rect(), cancel.visibleRegion().boundingRect()
    finally:
        switch_language("en")
