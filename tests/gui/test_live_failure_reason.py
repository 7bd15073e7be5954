"""A failed call made in the window's Workbench says why it failed wherever its status is shown, as a run
read from a trace does: the Runs list's Status cell and the timeline's heading say "failed (the tool call
timed out)" for a call the server never answered and "failed (the tool call failed)" for a tool error, in
the words of ``runs list``, in English and German (they said "failed" alone). Exported and imported into a
fresh database, the runs say the same words. Screenshots: whyfailed-{en,de}.png and whyfailed-imported-*.png."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.gui.runs.runs_model import STATUS_COLUMN
from inspector.gui.workbench.servers_model import shown_health_line
from inspector.store import RunStore, ServerRegistry, resolve_db_path
from inspector.transfer import import_trace
from inspector.transfer.exporting import export
from tests.gui.test_screenshots import save
from tests.support.cli_process import cli_here
from tests.support.fault_server import Exchange, FaultServer

#: Why each call's run failed, as the Runs tab and `runs list` say it.
SAID = {"en": {"stall": "failed (the tool call timed out)", "broken": "failed (the tool call failed)"},
        "de": {"stall": "fehlgeschlagen (Zeitüberschreitung beim Tool-Aufruf)",
               "broken": "fehlgeschlagen (der Tool-Aufruf schlug fehl)"}}


def _work(exchange: Exchange) -> None:
    """Two tools: ``stall`` is never answered, ``broken`` reports an error."""
    if exchange.request.rpc_method == "tools/list":
        exchange.send_result({"tools": [{"name": name, "inputSchema": {"type": "object"}}
                                        for name in ("stall", "broken")]})
    elif (exchange.request.params or {}).get("name") == "stall":
        exchange.stall()
    else:
        exchange.send_result({"content": [{"type": "text", "text": "the disk is full"}], "isError": True})


def _call(qtbot, window, tool: str) -> None:
    assert window.workbench.tools.select_tool(tool)
    task = window.workbench.run_current_tool()
    with qtbot.waitSignal(task.finished, timeout=10000):
        pass
    assert task.outcome.status == "failed"


def _runs_by_tool(store: RunStore) -> dict[str, int]:
    """The calls' runs (not the listing of the tools) by the tool called."""
    return {run.title.split()[-1]: run.id for run in store.list_runs(limit=10) if run.title.startswith("tools/call")}


def _listed(language: str) -> dict[int, str]:
    """``runs list``'s lines of the test's database, by run id."""
    said = cli_here("--lang", language, "runs", "list", "--db", str(resolve_db_path()), env={"COLUMNS": "250"})
    assert said.returncode == 0, said.stderr
    return {int(line.split()[0]): line for line in said.stdout.splitlines()[1:]}


def _check_said(qtbot, window, runs: dict[str, int], language: str, shot: str | None = None) -> None:
    """The Runs list's Status cells, the timeline's heading and `runs list` say why each run failed."""
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: all(tab.runs.row_of(run_id) is not None for run_id in runs.values()), timeout=10000)
    lines = _listed(language)
    for tool, run_id in runs.items():
        whole = SAID[language][tool]
        assert tab.runs.index(tab.runs.row_of(run_id), STATUS_COLUMN).data() == whole
        assert f"  {whole}  " in lines[run_id], lines[run_id]
        assert tab.select_runs([run_id])
        heading = tab.timeline_pane.heading.text()
        assert f"— {whole}, " in heading, heading
    if shot is not None:
        assert tab.select_runs([runs["stall"]])
        QApplication.processEvents()
        save(window, shot)


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_failed_workbench_call_says_why_before_and_after_export(qtbot, make_window, monkeypatch, tmp_path,
                                                                  language: str) -> None:
    with FaultServer("session", work=_work) as server:
        window = make_window((server.url, "misbehaving"), budget_s=1, era="handshake")
        window.resize(1600, 860)  # room for the German reason beside a title of 240 px
        for tool in ("stall", "broken"):
            _call(qtbot, window, tool)
        # The Servers panel reads the health back ~0.1 s after the last end (once for a burst): the
        # screenshots show it once it has (they showed the counts from before both calls).
        stored = ServerRegistry(window.store.db).get(server.url)
        assert (stored.failed_count, stored.tool_error_count) == (1, 1)
        qtbot.waitUntil(lambda: window.servers.health.text().endswith(shown_health_line(stored)), timeout=5000)
    with RunStore.open(resolve_db_path()) as store:
        runs = _runs_by_tool(store)
        assert {store.get_run(run_id).source for run_id in runs.values()} == {"live"}
        export(store, list(runs.values()), None, tmp_path / "runs.json")
    switch_language(language)
    try:
        _check_said(qtbot, window, runs, language, f"whyfailed-{language}")
        # The same runs read from their trace on another machine: the same words.
        monkeypatch.setenv("RUN_INSPECTOR_DB", str(tmp_path / "elsewhere.db"))
        with RunStore.open(resolve_db_path()) as store:
            import_trace(store, tmp_path / "runs.json")
            imported = _runs_by_tool(store)
            assert {store.get_run(run_id).source for run_id in imported.values()} == {"imported"}
        elsewhere = make_window(wait_tools=False)
        elsewhere.resize(1600, 860)  # room for the German reason beside a title of 240 px
        _check_said(qtbot, elsewhere, imported, language, f"whyfailed-imported-{language}")
    finally:
        switch_language("en")
