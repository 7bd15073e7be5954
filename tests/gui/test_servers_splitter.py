"""The Servers panel's width follows the window's (a sixth of it, between its least and 230 px) until it is set
otherwise: dragged, restored from the last session's layout, or set by a program; it is wider where the selected
server's address needs it, at once."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

from inspector.gui.language import switch_language
from inspector.gui.servers_splitter import SERVERS_MOST_PX, SERVERS_SHARE, ServersSplitter
from inspector.gui.workbench.servers_panel import ServersPanel
from inspector.store import ServerRecord
from tests.gui.test_screenshots import save


def _splitter(qtbot) -> ServersSplitter:
    servers = QWidget()
    servers.setMinimumWidth(150)
    splitter = ServersSplitter(servers, QWidget())
    qtbot.addWidget(splitter)
    splitter.resize(1200, 600)
    splitter.show()
    qtbot.waitExposed(splitter)
    return splitter


def _resized(qtbot, splitter: ServersSplitter, width: int) -> int:
    splitter.resize(width, 600)
    qtbot.waitUntil(lambda: splitter.width() == width)
    QApplication.processEvents()
    return splitter.sizes()[0]


def test_the_servers_panel_follows_the_window_until_it_is_set_otherwise(qtbot) -> None:
    splitter = _splitter(qtbot)
    assert _resized(qtbot, splitter, 1024) == 171  # a sixth (it kept 230 px)
    assert _resized(qtbot, splitter, 1600) == SERVERS_MOST_PX
    assert _resized(qtbot, splitter, 840) == 150  # never below its least
    assert _resized(qtbot, splitter, 1200) == 200
    assert splitter.saveState().isEmpty()  # following: nothing for the next launch to restore
    splitter.moveSplitter(260, 1)  # a drag
    assert splitter.sizes()[0] == 260 and not splitter.following
    assert _resized(qtbot, splitter, 1024) == 260
    state = splitter.saveState()

    restored = _splitter(qtbot)
    assert restored.restoreState(state) and not restored.following  # the last session's layout
    assert _resized(qtbot, restored, 1600) == 260

    set_so = _splitter(qtbot)
    set_so.setSizes([240, 960])
    assert _resized(qtbot, set_so, 1024) == 240


#: A short address, and one whose host and last part ("https://mcp.example.invalid/…/mcp") need more than a sixth of
#: 1,024 px (171) and less than 230.
SHORT, LONG = "http://127.0.0.1:9/mcp", "https://mcp.example.invalid/api/v1/tenants/acme/mcp"
LONG2 = "https://mcp.example.invalid/api/v2/mcp"


def _record(url: str) -> ServerRecord:
    return ServerRecord(url, None, None, (), None, None, 0, 0, 0)


def _click(qtbot, panel: ServersPanel, row: int) -> None:
    view = panel.view
    at = view.visualRect(panel.model.index(row, 0)).center()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=at)
    QApplication.processEvents()


def test_the_servers_panel_follows_the_selected_server_s_address_until_dragged(qtbot) -> None:
    """Selecting a server with a long address (or adding one, or editing one's address) widened the panel only at the
    window's next resize: until then the name line said "https://mcp.example.inv…"."""
    panel = ServersPanel()
    splitter = ServersSplitter(panel, QWidget())
    qtbot.addWidget(splitter)
    splitter.resize(1024, 600)
    splitter.show()
    qtbot.waitExposed(splitter)
    panel.set_records([_record(SHORT), _record(LONG)])
    QApplication.processEvents()
    assert splitter.sizes()[0] == 171  # a sixth: the short address fits
    _click(qtbot, panel, 1)
    assert panel.current().url == LONG
    wants = panel.wanted_width()
    assert 171 < wants < SERVERS_MOST_PX
    assert splitter.sizes()[0] == wants  # at once, no resize needed
    qtbot.waitUntil(lambda: panel.name_line.shown_text() == "https://mcp.example.invalid/…/mcp")
    _click(qtbot, panel, 0)
    assert splitter.sizes()[0] == 171  # a sixth again

    # Added (the window lists the servers again, the new one selected), or an address edited.
    panel.set_records([_record(SHORT), _record(LONG), _record(LONG2)], select_url=LONG2)
    assert splitter.sizes()[0] == wants
    panel.set_records([_record("http://127.0.0.1:10/mcp"), _record(LONG)], select_url="http://127.0.0.1:10/mcp")
    assert splitter.sizes()[0] == 171
    panel.set_records([_record(LONG), _record(LONG2)], select_url=LONG)  # the short one's address edited
    assert splitter.sizes()[0] == wants

    splitter.moveSplitter(190, 1)  # a drag: the user decides
    _click(qtbot, panel, 1)
    _click(qtbot, panel, 0)
    assert splitter.sizes()[0] == 190


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_window_s_servers_panel_widens_for_a_server_added(qtbot, make_window, language) -> None:
    """The window's own splitter and panel: a server with a long address added is read whole at once."""
    window = make_window((SHORT, ""), wait_tools=False)
    switch_language(language)
    try:
        window.resize(1024, 768)
        qtbot.waitUntil(lambda: window.width() == 1024)
        QApplication.processEvents()
        share = max(round(window.main.width() * SERVERS_SHARE), window.servers.minimumSizeHint().width())
        assert window.main.sizes()[0] == share
        window.admin.registry.save_server(LONG)
        window.admin.reload_servers(LONG)  # as the Add dialog's OK does
        assert window.main.sizes()[0] == window.servers.wanted_width() > share
        panel = window.servers
        # Its tools asked for and refused (its health says so), the lines under the list settled: read whole.
        qtbot.waitUntil(lambda: panel.current().failed_count == 1, timeout=20000)
        qtbot.waitUntil(lambda: panel.name_line.shown_text() == "https://mcp.example.invalid/…/mcp"
                        and not panel.below.verticalScrollBar().isVisible())
        assert window.main.sizes()[0] == panel.wanted_width()
        save(window, f"servers-panel-long-address-{language}")
    finally:
        switch_language("en")


def test_the_servers_panel_follows_the_window_again_at_the_next_launch_unless_dragged(qtbot, make_window) -> None:
    """The window saves its splitters' layout when it closes, and the next launch restores it: the Servers panel's
    width, never dragged, was saved too, and from the second launch on it followed neither the window nor the
    selected server's address (a window first opened at 1,920 px kept 230 px of a 1,024 px one)."""
    first = make_window(wait_tools=False)
    first.resize(1920, 1000)
    qtbot.waitUntil(lambda: first.width() == 1920)
    QApplication.processEvents()
    assert first.main.sizes()[0] == SERVERS_MOST_PX
    first.close()  # its layout saved

    again = make_window(wait_tools=False)
    again.resize(1024, 768)
    qtbot.waitUntil(lambda: again.width() == 1024)
    QApplication.processEvents()
    assert again.main.following
    assert again.main.sizes()[0] == max(round(again.main.width() * SERVERS_SHARE),
                                        again.servers.minimumSizeHint().width())  # was 230
    again.main.moveSplitter(260, 1)  # a drag: the user decides, and the next launch keeps it
    again.close()

    dragged = make_window(wait_tools=False)
    dragged.resize(1280, 800)
    qtbot.waitUntil(lambda: dragged.width() == 1280)
    QApplication.processEvents()
    assert not dragged.main.following and dragged.main.sizes()[0] == 260
