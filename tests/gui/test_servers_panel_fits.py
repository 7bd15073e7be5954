"""The Servers panel on a low screen: at 16 pt on 1280 by 720 pixels (and at 150 %, 853 by 480 logical)
the lines under the list of servers (the sign-in sentence, the health) wrapped onto more lines than the
panel had room for, and were laid over each other and over the buttons (the sign-in sentence, 200 pixels
high, over Sign in and Sign out), or the window grew past the screen (761 and 850 pixels high); at
853 by 480 with a recording proxy running its sentence had 22 pixels of the 56 it needs. Below the list
the panel now scrolls where it must: each line as high as its words, none over another."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QAbstractButton, QLabel, QLineEdit, QScrollArea, QWidget

from inspector.gui.language import switch_language
from inspector.gui.widgets.fitted_label import FittedLabel
from inspector.gui.workbench.sparkline import Sparkline

#: (language, font size in points or None for the usual one, the window's size)
CASES = [("en", 16, (1280, 720)), ("de", 16, (1280, 720)), ("en", None, (853, 480)), ("de", None, (853, 480))]


def _parts(panel: QWidget) -> list[QWidget]:
    """The panel's shown words and controls."""
    return [widget for widget in panel.findChildren(QWidget) if widget.isVisible()
            and isinstance(widget, QLabel | QAbstractButton | QLineEdit | Sparkline)]


def _place(widget: QWidget, panel: QWidget) -> QRect:
    return QRect(widget.mapTo(panel, QPoint(0, 0)), widget.size())


def _hidden_by(widget: QWidget, panel: QWidget) -> str | None:
    """The widget that cuts ``widget`` off (its rectangle reaches past that one's), up to a scroll area's
    content (what lies past its viewport is a scroll away) or the panel."""
    parent = widget.parentWidget()
    while parent is not None and parent is not panel.parentWidget():
        if parent.objectName() == "qt_scrollarea_viewport":
            return None
        if not parent.rect().contains(QRect(widget.mapTo(parent, QPoint(0, 0)), widget.size())):
            return f"{type(parent).__name__} {parent.rect()}"
        parent = parent.parentWidget()
    return None


@pytest.mark.parametrize(("language", "points", "size"), CASES, ids=["en-16pt", "de-16pt", "en-480", "de-480"],
                         indirect=["points"])
def test_the_servers_panel_s_lines_never_lie_over_each_other(qtbot, make_window, sdk_server, language,
                                                            points, size) -> None:
    window = make_window((sdk_server.url, "A server with a long name"))
    if points is None:
        window.log_dock.hide()  # as it starts on a screen 480 high
    switch_language(language)
    panel = window.servers
    panel.test_button.click()  # its outcome is one more line under the health
    qtbot.waitUntil(lambda: "MCP" in panel.test_result.text(), timeout=10000)
    window.proxies.start_button.click()  # a recording proxy: its sentence, its address and Stop
    assert window.proxies.stop_button.isVisible()
    try:
        qtbot.wait(50)  # the window's least height without the log
        window.resize(*size)
        qtbot.wait(100)
        qtbot.wait(100)  # the wrapped lines' heights settle
        parts = _parts(panel)
        texts = [part.text() for part in parts if isinstance(part, QLabel)]
        assert any("\n" in text for text in texts), texts  # the health's lines are there
        for part in parts:
            if isinstance(part, QLabel) and part.wordWrap() and part.text():
                assert part.height() >= part.heightForWidth(part.width()), (part.text(), part.size())
            assert _hidden_by(part, panel) is None, (type(part).__name__, _hidden_by(part, panel))
        places = [(_place(part, panel), part) for part in parts]
        for index, (place, part) in enumerate(places):
            for other_place, other in places[index + 1:]:
                assert not place.intersects(other_place), (type(part).__name__, place, type(other).__name__,
                                                           other_place)
        # What scrolls is all there: its content as high as its lines at its width.
        for area in panel.findChildren(QScrollArea):
            if area.widget() is not None:
                content = area.widget()
                assert content.height() >= content.heightForWidth(content.width())
        # And the window fits the screen (at 16 pt it grew to 761 pixels, 850 in German).
        assert window.size().toTuple() == size, (window.size(), window.minimumSizeHint(), panel.minimumSizeHint())
        # The list of servers keeps a row or two.
        assert panel.view.height() >= 2 * panel.view.fontMetrics().lineSpacing()
    finally:
        window.proxies.stop_selected()
        switch_language("en")


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_server_s_long_address_never_widens_the_window(qtbot, make_window, language) -> None:
    """An address with a token in its path (some services put the key there) was one unbreakable word in
    the panel's health, in the Tools tab's "could not reach" and in the server log: the window could not
    be narrower than 3,400 px. The panel says it on a line of its own, shortened (the whole as its tip);
    the wrapped sentences break it anywhere, as they draw it."""
    address = "https://mcp.example.invalid/api/" + "a1b2c3d4" * 24 + "/mcp"
    window = make_window((address, ""))  # unreachable: the tools and the log say so with the address
    panel = window.servers
    qtbot.waitUntil(lambda: panel.current() is not None and address in window.workbench.tools.findChild(
        FittedLabel).text(), timeout=20000)
    switch_language(language)
    try:
        window.resize(1000, 700)
        # Once the panel has laid out its lines for the new size (under load, later than 100 ms: the name was
        # read while a scroll bar stood beside the lines for a moment, and cut shorter).
        qtbot.waitUntil(lambda: panel.name_line.shown_text().endswith("/mcp"), timeout=5000)
        assert window.width() == 1000, (window.minimumSizeHint(), panel.minimumSizeHint())
        assert panel.name_line.text() == address and panel.name_line.toolTip() == address
        shown = panel.name_line.shown_text()
        assert shown.startswith("https://mcp.example.invalid/") and shown.endswith("…/mcp") and len(shown) < 60, shown
        assert address not in panel.health.text()
    finally:
        switch_language("en")
