"""`run-inspector` without a subcommand: the window on the run database, the demo server started
when no server is configured, and nothing left running after the window closes."""

from __future__ import annotations

import threading

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from inspector.gui.app import autostart_demo, run_window
from inspector.gui.dialogs.database_dialog import DatabaseChoice
from inspector.gui.main_window import MainWindow
from inspector.gui.settings import AppSettings
from inspector.store import RunStore, ServerRegistry, resolve_db_path


def test_the_demo_server_starts_at_every_launch_while_its_entry_exists(qtbot, tmp_path) -> None:
    settings = AppSettings()
    with RunStore.open(tmp_path / "runs.db") as store:
        registry = ServerRegistry(store.db)
        first = autostart_demo(registry, settings)
        try:
            # The entry is there at once; its server, a process of its own, listens a moment later.
            assert first is not None and first.starting
            [record] = registry.all()
            assert (record.url, record.name) == (first.entry_url, "Demo server")
            qtbot.waitUntil(lambda: first.running, timeout=40000)
            [record] = registry.all()
            assert (record.url, record.name) == (first.url, "Demo server")
        finally:
            first.stop()
        # The next launch finds the entry and starts the demo server for it (on its port, when free).
        registry.save_server("http://127.0.0.1:9/mcp", name="mine")
        second = autostart_demo(registry, settings)
        try:
            assert second is not None
            qtbot.waitUntil(lambda: second.running, timeout=40000)
            assert sorted(r.name for r in registry.all()) == ["Demo server", "mine"]
            assert second.url in [r.url for r in registry.all()]
        finally:
            second.stop()


def test_a_first_launch_with_a_server_configured_starts_no_demo_server(qtbot, tmp_path) -> None:
    with RunStore.open(tmp_path / "runs.db") as store:
        registry = ServerRegistry(store.db)
        registry.save_server("http://127.0.0.1:9/mcp", name="mine")
        assert autostart_demo(registry, AppSettings()) is None


def test_run_window_opens_on_the_database_and_leaves_nothing_behind(qtbot, tmp_path) -> None:
    app = QApplication.instance()
    seen = {}

    def close_when_ready() -> None:
        windows = [w for w in app.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
        if windows and windows[0].workbench.tools.model.rowCount() > 0:
            window = windows[0]
            seen["db"] = window.db_path
            seen["servers"] = [r.name for r in window.admin.registry.all()]
            seen["demo_process"] = window.demo.process
            window.close()
        else:
            QTimer.singleShot(50, close_when_ready)

    QTimer.singleShot(50, close_when_ready)
    status = run_window(str(tmp_path / "chosen.db"))
    assert status == 0
    assert seen["db"] == tmp_path / "chosen.db"
    assert seen["servers"] == ["Demo server"]
    assert not seen["demo_process"].alive
    names = [t.name for t in threading.enumerate()]
    assert not [n for n in names if n.startswith(("run-inspector-operations", "demo-"))], names
    assert (tmp_path / "chosen.db").exists() and not resolve_db_path().exists()


def test_a_database_that_cannot_be_opened_is_one_sentence_and_status_2(qtbot, tmp_path, capsys) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    # The window asks what to do (a dialog; see test_database_problem.py); here the user quits.
    asked = []

    def quit_at_once(problem, path):
        asked.append(path)
        return DatabaseChoice.QUIT, None

    assert run_window(str(blocker / "runs.db"), choose=quit_at_once) == 2
    assert asked == [blocker / "runs.db"]
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("run-inspector: ")
    assert not [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
