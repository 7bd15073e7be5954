"""The Servers panel's width follows the window's (a sixth of it, between its least and 230 px) until it is set
otherwise: dragged, restored from the last session's layout, or set by a program."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QWidget

from inspector.gui.servers_splitter import SERVERS_MOST_PX, ServersSplitter


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
    state = splitter.saveState()
    splitter.moveSplitter(260, 1)  # a drag
    assert splitter.sizes()[0] == 260 and not splitter.following
    assert _resized(qtbot, splitter, 1024) == 260

    restored = _splitter(qtbot)
    assert restored.restoreState(state) and not restored.following  # the last session's layout
    assert _resized(qtbot, restored, 1600) == 200

    set_so = _splitter(qtbot)
    set_so.setSizes([240, 960])
    assert _resized(qtbot, set_so, 1024) == 240
