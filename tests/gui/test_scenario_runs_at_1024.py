"""Played scenarios' runs in the Runs list of a window 1,024 x 768 px, English and German, measured with the real
font offscreen (issue 23). The Servers panel kept 230 px of the 1,024, and the list cut the fresh demo server's
name ("Fresh demo ser…", "Demo-Server …") and said a timed-out run's status "fehlgeschlagen" (the words
"Zeitüberschreitung" need 144 px of a 121 px column): the panel is a sixth of the window now, and the Status column
keeps the room of the listed runs' kinds of failure. The title gives way first (its tooltip whole).

Real parts: the runs played by ``run-inspector scenario`` (its own demo server, in a process) into the test's run
database, the window on it."""

from __future__ import annotations

import subprocess
import sys

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.gui.runs.runs_model import COLUMNS
from inspector.gui.servers_splitter import SERVERS_SHARE
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_run_list_narrow_columns import painted
from tests.gui.test_screenshots import save

TITLE, STATUS, SERVER = COLUMNS.index("title"), COLUMNS.index("status"), COLUMNS.index("server")
#: The fresh demo server's name and a timed-out run's status where its reason does not fit.
WORDS = {"en": ("Fresh demo server", "timed out"), "de": ("Demo-Server (frisch)", "Zeitüberschreitung")}


def _play(*args: str) -> int:
    done = subprocess.run([sys.executable, "-m", "inspector", "--lang", "en", "scenario", *args, "--json", "--db",
                           str(resolve_db_path())], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode in (0, 1), done.stderr  # 1: the run failed, as a timed-out call makes it
    with RunStore.open(resolve_db_path()) as store:
        return max(run.id for run in store.list_runs())


@pytest.fixture
def played() -> dict[str, int]:
    """A run whose hanging call timed out (its budget 1 s), and one whose calls all succeeded."""
    return {"timed out": _play("user-cancels", "--budget", "1"), "ok": _play("happy-path")}


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_scenario_runs_server_and_timed_out_status_read_whole_at_1024_px(qtbot, make_window, played,
                                                                           language) -> None:
    server, timed_out = WORDS[language]
    window = make_window(wait_tools=False)
    try:
        switch_language(language)
        window.resize(1024, 768)
        qtbot.waitUntil(lambda: window.width() == 1024)
        tab = window.runs_tab
        tab.show_me()
        qtbot.waitUntil(lambda: all(tab.runs.row_of(run_id) is not None for run_id in played.values()))
        QApplication.processEvents()
        assert window.main.sizes()[0] == max(round(window.main.width() * SERVERS_SHARE),
                                             window.servers.minimumSizeHint().width())
        view = tab.run_list.view
        rows = {name: tab.runs.row_of(run_id) for name, run_id in played.items()}
        for row in rows.values():
            assert painted(view, row, SERVER) == (server, True)  # was "Demo-Server …", "Fresh demo ser…"
            title = tab.runs.index(row, TITLE)
            shown, whole = painted(view, row, TITLE)
            # The title gives way first: where it is cut, its tooltip says it whole.
            assert whole or title.data() in title.data(Qt.ItemDataRole.ToolTipRole), (shown, title.data())
        assert painted(view, rows["timed out"], STATUS) == (timed_out, True)  # not "fehlgeschlagen" alone
        assert painted(view, rows["ok"], STATUS) == ("ok", True)
        assert view.horizontalScrollBar().maximum() == 0  # nothing scrolls sideways
        save(window, f"scenario-runs-1024-{language}")
    finally:
        switch_language("en")
