"""Which server the window selects as it opens: the one the user selected last (remembered in the
settings) while it is still listed, else the demo entry; never simply the first address in the list,
which is sorted by address (every address the command line called is listed, by its health)."""

from __future__ import annotations

from inspector.gui.app import open_window
from inspector.gui.language import switch_language
from inspector.gui.settings import AppSettings
from inspector.gui.workbench.demo_service import DEMO_NAME, ENTRY_KEY
from inspector.store import RunStore, ServerRegistry
from inspector.store.secrets import NoSecretKeeper
from tests.gui.test_screenshots import save

DEMO = "http://127.0.0.1:51939/mcp"
CALLED = "http://127.0.0.1:37813/mcp"  # sorts before the demo entry
MINE = "http://127.0.0.1:45000/mcp"


def _launch(qtbot, db, opened, opening_file: bool = False):
    """A window as a launch opens it: the demo entry configured but not started (autostart off)."""
    while opened:
        window, store = opened.pop()
        window.close()
        store.close()
    store = RunStore.open(db)
    window = open_window(store, db, AppSettings(), secrets=NoSecretKeeper(), opening_file=opening_file)
    opened.append((window, store))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_the_window_opens_on_the_server_selected_last_else_the_demo_entry(qtbot, tmp_path) -> None:
    settings = AppSettings()
    settings.demo_autostart = False  # the entry stays "not running": no process is needed to choose it
    settings.qsettings.setValue(ENTRY_KEY, DEMO)
    settings.sync()
    db = tmp_path / "runs.db"
    store = RunStore.open(db)
    registry = ServerRegistry(store.db)
    registry.save_server(DEMO, name=DEMO_NAME)
    registry.save_server(MINE, name="mine")
    registry.count_operation(CALLED, "failed", None)  # a call from the command line: listed by its health
    store.close()
    opened: list = []
    try:
        window = _launch(qtbot, db, opened)
        assert [window.servers.model.record(row).url for row in range(window.servers.model.rowCount())][0] == CALLED
        assert window.admin.current().url == DEMO  # not the first address: the demo entry
        for language in ("en", "de"):
            switch_language(language)
            qtbot.wait(200)
            save(window.servers, f"start-selection-{language}")
        switch_language("en")
        window.admin.reload_servers(select_url=MINE)  # the user picks another
        window = _launch(qtbot, db, opened)
        assert window.admin.current().url == MINE  # remembered across the restart
        window = _launch(qtbot, db, opened, opening_file=True)  # opening a file selects the demo entry itself
        assert window.admin.current().url == DEMO
        window = _launch(qtbot, db, opened)
        assert window.admin.current().url == MINE  # ... which was not the user's choice
        tools = window.workbench.tools  # its listing (refused: nothing listens) ends before it is removed
        qtbot.waitUntil(lambda: tools.task is not None and not tools.task.running, timeout=20000)
        window.admin.forget_server(MINE)
        window = _launch(qtbot, db, opened)
        assert window.admin.current().url == DEMO  # the one remembered is gone: the demo entry again
    finally:
        for window, store in opened:
            window.close()
            store.close()
