"""A run played on a demo server started for it alone (a played scenario, the Play tab's fresh demo server)
listed its server as the address it had, a random 127.0.0.1 port that died with the run: read later, a dead
address with nothing saying it was the bundled demo, and each run another entry of the server filter. The
Server column, the filter and `runs show` now name it; its address stays in the tooltip and beside the name,
and the stored address is unchanged (`--json`). Real scenarios played by the real command line on the real
demo server, into the window's SQLite file."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from inspector.gui.language import switch_language
from inspector.gui.runs import runs_model
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_runs_tab import runs_window
from tests.support.cli_process import cli_here

ELSEWHERE = "http://127.0.0.1:9/mcp"


def _played_twice() -> list[str]:
    """Two scenarios played, each on a demo server of its own, and a run on a server at an address: the
    addresses the two scenarios' runs stored."""
    db = str(resolve_db_path())
    for _ in range(2):
        assert cli_here("scenario", "happy-path", "--db", db).returncode == 0
    with RunStore.open(resolve_db_path()) as store:
        store.finish_run(store.start_run("tools/call echo", "live", ELSEWHERE), "ok")
        return [run.server for run in store.list_runs() if run.source == "scenario"]


def test_the_runs_list_names_the_demo_server_a_run_was_played_on(qtbot, make_window) -> None:
    addresses = _played_twice()
    assert len(set(addresses)) == 2 and all(address.startswith("http://127.0.0.1:") for address in addresses)
    window = runs_window(make_window)
    runs = window.runs_tab.runs
    qtbot.waitUntil(lambda: runs.rowCount() == 3)
    column = runs_model.COLUMNS.index("server")

    def cells(role: Qt.ItemDataRole = Qt.ItemDataRole.DisplayRole) -> list[str]:
        return [runs.data(runs.index(row, column), role) for row in range(runs.rowCount())]

    assert cells() == ["127.0.0.1:9/mcp", "Fresh demo server", "Fresh demo server"]
    tips = cells(Qt.ItemDataRole.ToolTipRole)
    for tip, address in zip(tips[1:], addresses, strict=True):
        assert "bundled demo server, started for this run alone at" in tip and address in tip
    combo = window.runs_tab.server_filter
    assert [combo.itemText(row) for row in range(1, combo.count())] == ["Fresh demo server", "127.0.0.1:9/mcp"]
    combo.setCurrentIndex(1)  # one entry for both: each chooses the runs whose cell says it
    qtbot.waitUntil(lambda: runs.rowCount() == 2)
    assert cells() == ["Fresh demo server", "Fresh demo server"]
    combo.setCurrentIndex(2)
    qtbot.waitUntil(lambda: runs.rowCount() == 1)
    assert cells() == ["127.0.0.1:9/mcp"]
    try:
        switch_language("de")
        combo.setCurrentIndex(0)
        qtbot.waitUntil(lambda: runs.rowCount() == 3)
        assert cells()[1:] == ["Demo-Server (frisch)", "Demo-Server (frisch)"]
        assert "Demo-Server (frisch)" in [combo.itemText(row) for row in range(combo.count())]
    finally:
        switch_language("en")


def test_runs_show_names_it_beside_its_address_and_json_keeps_the_address() -> None:
    address = _played_twice()[0]
    db = str(resolve_db_path())
    shown = cli_here("runs", "show", "2", "--db", db).stdout.splitlines()[1]
    assert shown == f"  status ok, source scenario, server Fresh demo server (bundled, started for this run alone at " \
                    f"{address})"
    assert json.loads(cli_here("runs", "show", "2", "--json", "--db", db).stdout)["run"]["server"] == address
    german = cli_here("--lang", "de", "runs", "show", "2", "--db", db).stdout.splitlines()[1]
    assert german.endswith(f"Demo-Server (frisch) (mitgeliefert, nur für diesen Lauf gestartet unter {address})")
