"""At 200 % on a 1,280 by 720 screen (640 by 360 logical pixels: the window at its least size) the Play
tab's steps table cut the German heading "Was geschah" to "Vas gescha": the other columns left the
column of what happened less than its heading. It keeps its heading's width; the table scrolls sideways."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.gui.play.steps_model import COLUMNS


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_heading_of_what_happened_is_whole_in_the_least_window(qtbot, make_window, demo_server,
                                                                  language: str) -> None:
    switch_language(language)  # before the window is made, as a user's language is
    try:
        window = make_window((demo_server.url, "Demo server"), wait_tools=False)
        window.log_dock.hide()  # as it starts on a screen this low
        room = window.play.room
        window.tabs.setCurrentWidget(room)
        window.resize(640, 360)  # held at its least size
        QApplication.processEvents()
        view, what = room.view, COLUMNS.index("what")
        header = view.horizontalHeader()
        assert view.columnWidth(what) >= header.sectionSizeHint(what), (view.columnWidth(what), window.size())
        # A wide window: the column takes the room the others leave, no sideways scrolling.
        window.resize(1280, 800)
        qtbot.waitUntil(lambda: window.width() == 1280)
        QApplication.processEvents()
        assert header.length() <= view.viewport().width() + 1
        assert view.columnWidth(what) > header.sectionSizeHint(what)
    finally:
        switch_language("en")
