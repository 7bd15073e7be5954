"""At 16 points the German window was held 1,030 pixels wide, its right edge off a screen 1,024 wide:
the Workbench's heading "Laufende und letzte Vorgänge" (bold, on one line) beside the operation's detail.
The heading wraps where its box is narrow; the window fits the screen and the heading is shown whole."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QLabel

from inspector.gui.language import switch_language


@pytest.mark.parametrize("points", [16], indirect=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_window_fits_a_1024_pixel_screen_at_16_points(qtbot, make_window, demo_server, points,
                                                          language: str) -> None:
    switch_language(language)  # before the window is made, as a user's language is
    try:
        window = make_window((demo_server.url, "Demo server"), wait_tools=False)
        assert window.runs_tab is not None  # built: its panes count too
        QApplication.processEvents()
        assert window.minimumSizeHint().width() <= 1024, window.minimumSizeHint()
        window.resize(1024, 700)
        qtbot.waitUntil(lambda: window.width() == 1024)
        QApplication.processEvents()
        heading = [label for label in window.workbench.findChildren(QLabel)
                   if label.text() in ("Running and recent operations", "Laufende und letzte Vorgänge")][0]
        # Whole: as high as its lines at its width, its words never wider than it.
        assert heading.height() >= heading.heightForWidth(heading.width()), (heading.size(), heading.text())
        words = heading.text().split()
        assert max(heading.fontMetrics().horizontalAdvance(word) for word in words) <= heading.width()
    finally:
        switch_language("en")
