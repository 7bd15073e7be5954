"""The lines under the list of servers showed a scroll bar for 50 to 80 ms before they settled, as the window
opened and after a server was selected: their part (:class:`FittedScroll`) decided on the bar at the height it
had while the layouts above it had not yet given it the height it asked for, its lines needing more. Where the
room comes, no bar is shown on the way; where it does not, the bar is there."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QItemSelectionModel, QObject

from inspector.gui.main_window import MainWindow
from inspector.gui.settings import AppSettings
from inspector.store import RunStore, ServerRegistry, resolve_db_path
from inspector.store.secrets import NoSecretKeeper


class _Shown(QObject):
    """Counts the times the watched widget was shown."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        self.count += event.type() == QEvent.Type.Show
        return False


def test_the_lines_under_the_servers_show_no_scroll_bar_on_their_way_to_the_room_they_get(qtbot) -> None:
    store = RunStore.open(resolve_db_path())
    registry = ServerRegistry(store.db)
    registry.save_server("http://127.0.0.1:9/mcp", name="Short")
    registry.save_server("http://127.0.0.1:9/mcp/with/a/rather/long/path/that/goes/on", name="")
    window = MainWindow(store, resolve_db_path(), AppSettings(), secrets=NoSecretKeeper())
    qtbot.addWidget(window)
    below = window.servers.below
    shown = _Shown()
    below.verticalScrollBar().installEventFilter(shown)
    try:
        window.resize(1280, 800)
        window.show()
        qtbot.waitExposed(window)
        for row in (1, 0, 1):
            qtbot.wait(300)
            window.servers.view.selectionModel().setCurrentIndex(window.servers.model.index(row, 0),
                                                                QItemSelectionModel.SelectionFlag.ClearAndSelect)
        qtbot.wait(500)
        room = below.contentsRect()
        assert below.content_least_height(room.width()) <= room.height()  # the room came: no bar is needed
        assert not below.verticalScrollBar().isVisible()
        assert shown.count == 0, "a scroll bar was shown on the way"
    finally:
        window.shut_down()
        store.close()
