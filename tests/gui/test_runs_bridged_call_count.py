"""A tool call is counted once whatever wraps it, in every count the user sees: ``runs list``, ``runs show``,
``compare`` and the window's Runs list and heading. Two real traces (tests/fixtures/otel/, each ``lookup`` ok,
``fail`` with the tool's error, ``slow`` timed out by the client, ``slow`` cancelled by the agent):

- OpenLIT on ``mcp`` 2.x (``openlit_mcp2.jsonl``): its ``mcp tools/call`` wraps the SDK's call through its plumbing
  ``mcp transport/request``; the wrapper was not known as one, and each call was counted twice ("4 of 8 tool calls
  failed, 2 not recorded");
- Splunk's FastMCP instrumentation (``splunk_fastmcp.jsonl``): its server span sits between FastMCP's client span
  (joined to it as the call's server side) and FastMCP's server span, which was counted as a call of its own
  ("3 of 8 tool calls failed, 1 not recorded").

Both read "failed (2 of 4 tool calls failed, 1 not recorded)" now (the cancelled call: its client recorded none)."""

from __future__ import annotations

import pytest

from inspector.gui.language import switch_language
from inspector.store import RunStore, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_span_detail import open_run
from tests.support.cli_process import cli_here
from tests.unit.traces.test_otel_agents import FIXTURES

SAID = {"en": "failed (2 of 4 tool calls failed, 1 not recorded)",
        "de": "fehlgeschlagen (2 von 4 Tool-Aufrufen schlugen fehl, 1 nicht erfasst)"}


@pytest.mark.parametrize(("fixture", "language"), [("openlit_mcp2", "en"), ("splunk_fastmcp", "en"),
                                                   ("openlit_mcp2", "de")])
def test_each_call_is_counted_once_in_every_count_shown(qtbot, make_window, fixture: str, language: str) -> None:
    with RunStore.open(resolve_db_path()) as store:
        run_ids = import_trace(store, FIXTURES / f"{fixture}.jsonl").run_ids
        (run_id,) = [run_id for run_id in run_ids if store.get_run(run_id).title == "invoke_agent support-agent"]
        other = next(other for other in run_ids if other != run_id)
    db = str(resolve_db_path())
    shown = cli_here("--lang", language, "--db", db, "runs", "show", str(run_id)).stdout.splitlines()
    assert f" {SAID[language]}, " in shown[1], shown[1]
    listed = cli_here("--lang", language, "--db", db, "runs", "list", env={"COLUMNS": "250"}).stdout
    assert SAID[language] in listed, listed
    compared = cli_here("--lang", language, "--db", db, "compare", str(run_id), str(other)).stdout.splitlines()
    assert f" — {SAID[language]}, " in compared[0], compared[0]
    _window, tab = open_run(qtbot, make_window, run_id)
    switch_language(language)
    try:
        assert f" — {SAID[language]}" in tab.timeline_pane.heading.text(), tab.timeline_pane.heading.text()
        model = tab.runs
        shown_in_list = [model.index(row, column).data() for row in range(model.rowCount())
                         for column in range(model.columnCount())]
        assert SAID[language] in shown_in_list, shown_in_list
    finally:
        switch_language("en")
