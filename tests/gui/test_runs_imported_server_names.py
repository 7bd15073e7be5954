"""The support engineer who named a server of their own at 127.0.0.1:8765 opens the developer's export:
the developer's runs on the developer's 127.0.0.1:8765 were listed under the engineer's name for that
address ("Engineer's test server"), a server on another machine. An imported run's loopback address is
shown as the address; a run recorded here at that address, and an imported run at an address that names
one server wherever it is read, keep the registry's name. A real file imported into a real SQLite file."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from inspector.gui.runs import runs_model
from inspector.store import RunStore, ServerRegistry, resolve_db_path
from inspector.transfer import import_trace
from tests.gui.test_runs_tab import runs_window

HERE, ELSEWHERE = "http://127.0.0.1:9/mcp", "http://mcp.invalid/mcp"


def test_an_imported_runs_loopback_server_is_not_named_after_this_computers(qtbot, make_window, tmp_path) -> None:
    runs = [{"uid": f"from-the-developer-{number}", "title": "tools/call echo", "source": "live", "server": server,
             "status": "ok", "started_at": f"2026-12-05T14:22:2{number}Z",
             "finished_at": f"2026-12-05T14:22:2{number}Z", "steps": []}
            for number, server in ((1, HERE), (2, ELSEWHERE))]
    path = tmp_path / "from-the-developer.json"
    path.write_text(json.dumps({"format": "run-inspector-trace", "version": 1, "runs": runs}))
    with RunStore.open(resolve_db_path()) as store:
        registry = ServerRegistry(store.db)
        registry.save_server(HERE, name="Engineer's test server")
        registry.save_server(ELSEWHERE, name="Team staging")
        mine = store.start_run("tools/call echo", "live", HERE)
        store.finish_run(mine, "ok")
        theirs_here, theirs_elsewhere = import_trace(store, path).run_ids
    window = runs_window(make_window)
    tab = window.runs_tab
    # the window lists the selected server's tools first (a run of its own, which fails here)
    listed = (mine, theirs_here, theirs_elsewhere)
    qtbot.waitUntil(lambda: all(tab.runs.row_of(run_id) is not None for run_id in listed))
    column = runs_model.COLUMNS.index("server")

    def shown(run_id: int) -> str:
        return tab.runs.data(tab.runs.index(tab.runs.row_of(run_id), column))

    assert shown(theirs_here) == "127.0.0.1:9/mcp"
    assert shown(mine) == "Engineer's test server"
    assert shown(theirs_elsewhere) == "Team staging"
    # The server filter lists what the column says, and each entry lists the runs whose cell says it:
    # the engineer's name leaves the developer's run at 127.0.0.1 out, the address lists it alone.
    combo = tab.server_filter
    labels = [combo.itemText(row) for row in range(1, combo.count())]
    assert labels == ["Engineer's test server", "127.0.0.1:9/mcp", "Team staging"]
    assert "another computer" in combo.itemData(2, Qt.ItemDataRole.ToolTipRole)
    for row, label in enumerate(labels, start=1):
        combo.setCurrentIndex(row)
        qtbot.waitUntil(lambda: tab.runs.filter.server is not None)
        listed = {tab.runs.run(number).id for number in range(tab.runs.rowCount())}
        assert {tab.runs.data(tab.runs.index(number, column)) for number in range(tab.runs.rowCount())} == {label}
        assert (mine in listed, theirs_here in listed, theirs_elsewhere in listed) == (row == 1, row == 2, row == 3)
