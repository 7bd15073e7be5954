"""The server of an agent's trace that names none (issue 23: "the Server tab does not claim what the trace cannot
know"). OpenLIT's agent run (openlit.jsonl) showed the agent's own service, "support-agent", as its server; Respan's
(respan.jsonl) showed a blank in `runs list` and the window, "-" in `runs show`. Their MCP spans name no server (no
``server.address``, no ``mcp.server.name``, no server side in the trace): each place says so, in the same words."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from inspector.gui.language import switch_language
from inspector.gui.runs.runs_model import COLUMNS
from inspector.store import RunStore, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_span_detail import open_run
from tests.support.cli_process import cli_here
from tests.unit.traces.test_otel_agents import FIXTURES

SAID = {"en": "not named in the trace", "de": "im Trace nicht genannt"}
TIP = {"en": "The trace does not say which server this run called", "de": "Der Trace sagt nicht, welchen Server"}


@pytest.mark.parametrize(("fixture", "language"), [("openlit", "en"), ("respan", "en"), ("openlit", "de")])
def test_a_client_s_trace_that_names_no_server_says_so_everywhere(qtbot, make_window, fixture: str,
                                                                  language: str) -> None:
    with RunStore.open(resolve_db_path()) as store:
        run_ids = import_trace(store, FIXTURES / f"{fixture}.jsonl").run_ids
        (run_id,) = [run_id for run_id in run_ids if store.get_run(run_id).title == "invoke_agent support-agent"]
        assert store.get_run(run_id).server is None  # not the agent's own service
        servers = {store.get_run(other).server for other in run_ids if other != run_id}
    assert servers <= {"weather-mcp-server"}  # a server's own trace still names its service
    db = str(resolve_db_path())
    shown = cli_here("--lang", language, "--db", db, "runs", "show", str(run_id)).stdout.splitlines()
    assert shown[1].endswith(f", Server {SAID[language]}" if language == "de" else f", server {SAID[language]}")
    listed = cli_here("--lang", language, "--db", db, "runs", "list", env={"COLUMNS": "250"}).stdout.splitlines()
    [row] = [line for line in listed if line.lstrip().startswith(f"{run_id} ")]
    assert f"  {SAID[language]}  " in row and "support-agent  " not in row.split(SAID[language])[0], row
    _window, tab = open_run(qtbot, make_window, run_id)
    switch_language(language)
    try:
        model = tab.runs
        [row_number] = [row for row in range(model.rowCount())
                        if model.index(row, COLUMNS.index("id")).data() == str(run_id)]
        cell = model.index(row_number, COLUMNS.index("server"))
        assert cell.data() == SAID[language]
        assert TIP[language] in cell.data(Qt.ItemDataRole.ToolTipRole)
    finally:
        switch_language("en")
