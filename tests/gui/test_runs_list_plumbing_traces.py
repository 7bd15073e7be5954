"""The window's Runs list leaves the plumbing traces out as `runs list` does (issue 23: the window and the command
line say the same from the same source): OpenLIT on `mcp` 2.x makes twelve of them beside the agent's one run
(`openlit_mcp2.jsonl`). The window listed all thirteen; now it lists the agent's run, says "Not listed: 12 plumbing
traces (…)" over the list, and "Show plumbing traces" lists them too, as `runs list --all` does. Opening the file
selects the agent's run, `runs show last` is the run the list shows first, the search, Delete and the export of the
listed runs see the runs listed alone, and a live read (another process imports) counts them anew."""

from __future__ import annotations

import json
import re
from pathlib import Path

from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.store import RunStore, resolve_db_path
from inspector.store.plumbing_traces import plumbing_traces_among
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_room import fully_visible_rows
from tests.gui.test_runs_tab import runs_window
from tests.gui.test_screenshots import save
from tests.support.cli_process import cli_here
from tests.support.sample_runs import T0, mixed_run
from tests.support.trace_backends import fixture_trace, fixture_trace_ids, trace_backend

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"
OPENLIT = FIXTURES / "openlit_mcp2.jsonl"


def listed_ids(*options: str) -> list[int]:
    """The ids `runs list` (with ``options``) lists, in its order."""
    said = cli_here("runs", "list", *options, "--db", str(resolve_db_path()))
    assert said.returncode == 0, said.stderr
    return [int(line.split()[0]) for line in said.stdout.splitlines()[1:] if re.match(r"\s*\d", line)]


def shown_ids(tab) -> list[int]:
    return [tab.runs.run_id(row) for row in range(tab.runs.rowCount())]


def opened(qtbot, make_window, path: Path = OPENLIT):
    window = runs_window(make_window)
    window.resize(1280, 800)
    tab = window.runs_tab
    with qtbot.waitSignal(tab.transfer_ended, timeout=20000):
        tab.open_trace(path)
    QApplication.processEvents()
    return window, tab


def test_the_window_lists_what_runs_list_lists_and_says_what_it_left_out(qtbot, make_window) -> None:
    window, tab = opened(qtbot, make_window)
    line = tab.run_list.plumbing_line
    agent = tab.store.find_run_by_uid("otlp-0a5b408882e5fd182a91253940d0cac4")
    assert agent.title == "invoke_agent support-agent"
    # As `runs list`: the agent's run alone, selected (the run the import shows first), the twelve said.
    assert shown_ids(tab) == listed_ids() == [agent.id]
    assert tab.selected_run_ids() == [agent.id] and tab.current_run().id == agent.id
    assert tab.timeline.run.id == agent.id
    assert line.isVisible() and not line.toggle.isChecked()
    assert line.words.text() == ("Not listed: 12 plumbing traces (traces of a session's plumbing alone: its set-up, "
                                 "notifications outside a request).")
    # The run the list shows first is `last`.
    last = cli_here("runs", "show", "last", "--json", "--db", str(resolve_db_path()))
    assert last.returncode == 0, last.stderr
    assert f'"id": {shown_ids(tab)[0]},' in last.stdout
    save(window, "runs-plumbing-traces-left-out-en")
    try:
        switch_language("de")
        assert line.words.text().startswith("Nicht aufgeführt: 12 Infrastruktur-Traces (Traces allein aus")
        assert line.toggle.text() == "Infrastruktur-Traces anzeigen"
        save(window, "runs-plumbing-traces-left-out-de")
    finally:
        switch_language("en")
    # Ticked: the thirteen, as `runs list --all` lists them; unticked again: the one.
    line.toggle.setChecked(True)
    assert shown_ids(tab) == listed_ids("--all") and len(shown_ids(tab)) == 13
    assert line.words.text().startswith("Listed too: 12 plumbing traces (")
    assert tab.selected_run_ids() == [agent.id]  # the selection stays
    line.toggle.setChecked(False)
    assert shown_ids(tab) == [agent.id]


def test_the_runs_acted_on_are_those_listed(qtbot, make_window, tmp_path) -> None:
    """Select All, then Delete: the agent's run goes, the twelve plumbing traces (not listed) stay; the export of
    the listed runs is of the runs listed; a search finds among the runs listed, and says those it left out."""
    _window, tab = opened(qtbot, make_window)
    every = [run.id for run in tab.store.list_runs(limit=None)]
    hidden = plumbing_traces_among(tab.store.db.conn, every)
    assert len(hidden) == 12
    assert tab.runs.run_ids() == [run_id for run_id in every if run_id not in hidden]
    # The search: "session/init" is the title of nine plumbing traces, left out (and said); "support" the agent's.
    tab.search.setText("session/init")
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 0 and tab.run_list.plumbing_line.count == 9, timeout=20000)
    assert tab.run_list.plumbing_line.words.text().startswith("Not listed: 9 plumbing traces (")
    assert listed_ids("--search", "session/init") == []
    tab.search.setText("support")
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 1 and tab.run_list.plumbing_line.count == 0, timeout=20000)
    assert not tab.run_list.plumbing_line.isVisible()
    tab.search.clear()
    qtbot.waitUntil(lambda: tab.run_list.plumbing_line.count == 12, timeout=20000)
    tab.run_view.selectAll()
    with qtbot.waitSignal(tab.transfer_ended, timeout=20000):
        tab.delete_selected(confirm=False)
    assert sorted(run.id for run in tab.store.list_runs(limit=None)) == sorted(hidden)
    assert tab.runs.rowCount() == 0 and tab.run_list.plumbing_line.isVisible()
    # Every run there is is a plumbing trace: the empty list says how to list them.
    assert "tick “Show plumbing traces” above" in tab.run_list.empty.label.text()


def test_a_live_read_counts_the_plumbing_traces_another_process_imported(qtbot, make_window) -> None:
    _window, tab = opened(qtbot, make_window)
    line = tab.run_list.plumbing_line
    done = cli_here("import", str(FIXTURES / "mcp_sdk.jsonl"), "--db", str(resolve_db_path()))
    assert done.returncode == 0, done.stderr
    # Three more (the SDK's notifications' traces), and the SDK agent's run listed: as `runs list` says it.
    qtbot.waitUntil(lambda: line.count == 15 and tab.runs.rowCount() == 2, timeout=20000)
    assert shown_ids(tab) == listed_ids()
    assert line.words.text().startswith("Not listed: 15 plumbing traces (")


def test_a_file_of_plumbing_traces_alone_is_listed_and_selected(qtbot, make_window, tmp_path) -> None:
    """A file whose every trace is plumbing (the SDK server's notifications): opening it selects its runs, and so
    lists the plumbing traces (ticked), rather than show nothing of what was opened."""
    notifications = tmp_path / "notifications.jsonl"
    batches = [json.loads(line) for line in (FIXTURES / "mcp_sdk.jsonl").read_text(encoding="utf-8").splitlines()]
    for batch in batches:  # the spans of the notifications received outside a request, alone
        for resource in batch["resourceSpans"]:
            for scope in resource["scopeSpans"]:
                scope["spans"] = [span for span in scope["spans"]
                                  if span["name"].startswith("notifications/") and not span.get("parentSpanId")]
    notifications.write_text("".join(json.dumps(batch) + "\n" for batch in batches), encoding="utf-8")
    _window, tab = opened(qtbot, make_window, notifications)
    stored = [run.id for run in tab.store.list_runs(limit=None)]
    assert stored and plumbing_traces_among(tab.store.db.conn, stored) == set(stored)
    assert tab.run_list.plumbing_line.toggle.isChecked()
    assert sorted(tab.selected_run_ids()) == sorted(stored)


def test_a_window_opened_on_stored_plumbing_traces_says_them(qtbot, make_window) -> None:
    """The list is first read as the view is given its sort order, before the line listened: it said nothing."""
    with RunStore.open(resolve_db_path()) as store:
        import_trace(store, OPENLIT)
    tab = runs_window(make_window).runs_tab
    assert tab.runs.rowCount() == 1
    assert tab.run_list.plumbing_line.isVisible() and tab.run_list.plumbing_line.count == 12


def test_the_import_status_says_how_many_of_the_runs_are_plumbing_traces_as_the_cli_does(qtbot, make_window,
                                                                                         tmp_path) -> None:
    # It said "Imported 13 runs from openlit_mcp2.jsonl." alone while the list listed one; the command line's
    # `import` says "12 of the runs are plumbing traces (…)".
    cli = cli_here("import", str(OPENLIT), "--db", str(tmp_path / "cli.db"), "--lang", "en")
    assert cli.returncode == 0, cli.stderr
    assert "12 of the runs are plumbing traces (a session's plumbing alone)" in cli.stdout
    window, tab = opened(qtbot, make_window)
    try:
        assert tab.status.text() == (
            "Imported 13 runs from openlit_mcp2.jsonl. 12 of them are plumbing traces (a session's plumbing alone), "
            "which the list leaves out unless “Show plumbing traces” is ticked.")
        save(window, "runs-list-plumbing-imported-en")
        switch_language("de")
        assert tab.status.text().startswith("13 Läufe aus openlit_mcp2.jsonl importiert. 12 davon sind ")
        save(window, "runs-list-plumbing-imported-de")
    finally:
        switch_language("en")


def test_filters_that_select_plumbing_traces_alone_say_so_not_that_no_run_matches(qtbot, make_window) -> None:
    """The search "session/init" finds nine runs, all plumbing traces; the outcome "ok" twelve, the same. The list
    left them out, said "Not listed: 9 plumbing traces" over its rows, and under it "No run matches the filters.
    Choose “Every outcome”, … and clear the search to see every run" (which shows them no more than before), where
    `runs list --search session/init` says they are not listed and how to list them."""
    window, tab = opened(qtbot, make_window)
    pane, line = tab.run_list, tab.run_list.plumbing_line
    said = cli_here("runs", "list", "--search", "session/init", "--db", str(resolve_db_path()), "--lang", "en")
    assert said.returncode == 0, said.stderr
    assert said.stdout.startswith("Not listed: 9 plumbing traces (")
    selected = ("Every run the filters select is a plumbing trace (a session's plumbing alone), which the list leaves "
                "out: tick “Show plumbing traces” above to list them.")
    tab.search.setText("session/init")
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 0 and line.count == 9, timeout=20000)
    assert pane.empty.label.isVisible() and pane.empty.label.text() == selected
    save(window, "runs-list-plumbing-found-alone-en")
    try:
        switch_language("de")
        assert pane.empty.label.text().startswith("Jeder Lauf, den die Filter auswählen, ist ein Infrastruktur-Trace")
        save(window, "runs-list-plumbing-found-alone-de")
    finally:
        switch_language("en")
    tab.search.clear()
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 1 and line.count == 12, timeout=20000)
    pane.outcome_filter.setCurrentIndex(pane.outcome_filter.findData("ok"))  # the agent's run failed
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 0, timeout=20000)
    assert line.count == 12 and pane.empty.label.text() == selected
    line.toggle.setChecked(True)  # listed: the twelve
    assert tab.runs.rowCount() == 12 and not pane.empty.label.isVisible()
    line.toggle.setChecked(False)
    pane.outcome_filter.setCurrentIndex(pane.outcome_filter.findData("cancelled"))  # none at all: as before
    qtbot.waitUntil(lambda: line.count == 0, timeout=20000)
    assert pane.empty.label.text().startswith("No run matches the filters.")


def test_the_list_keeps_ten_runs_in_view_with_the_line_over_it(qtbot, make_window) -> None:
    """The line over the rows took its room from them: opening the trace (the line shown) left nine runs in view of
    the ten the tab gives the list (1,200 by 760 px); and a window opened on stored plumbing traces gave the line
    the room of two lines where it takes one (its height for no width), the timeline 23 px less."""
    with RunStore.open(resolve_db_path()) as store:
        for hour in range(8, 22):
            mixed_run(store, f"run at {hour}", started_at=T0.replace(hour=hour))
    window = runs_window(make_window)
    tab = window.runs_tab
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 14, timeout=20000)
    QApplication.processEvents()
    rows, viewport = fully_visible_rows(tab.run_view), tab.run_view.viewport().height()
    assert rows == 10 and not tab.run_list.plumbing_line.isVisible()
    with qtbot.waitSignal(tab.transfer_ended, timeout=20000):
        tab.open_trace(OPENLIT)
    QApplication.processEvents()
    assert tab.run_list.plumbing_line.isVisible() and tab.runs.rowCount() == 15
    assert fully_visible_rows(tab.run_view) == rows and tab.run_view.viewport().height() == viewport
    save(window, "runs-list-plumbing-ten-rows-en")
    try:
        switch_language("de")  # (in German the line takes two lines: the rows keep their room)
        QApplication.processEvents()
        assert fully_visible_rows(tab.run_view) == rows
        save(window, "runs-list-plumbing-ten-rows-de")
    finally:
        switch_language("en")
    window.close()
    again = runs_window(make_window).runs_tab  # opened on them: the same room for the rows
    qtbot.waitUntil(lambda: again.runs.rowCount() == 15, timeout=20000)
    QApplication.processEvents()
    assert again.run_list.plumbing_line.isVisible()
    assert fully_visible_rows(again.run_view) == rows and again.run_view.viewport().height() == viewport


def test_a_trace_opened_by_id_says_it_is_a_plumbing_trace_as_an_opened_file_does(qtbot, make_window) -> None:
    """File › Open trace by id… of OpenLIT's `mcp session/init` said "Opened trace …: 1 run imported." alone, of a run
    the list leaves out; now as Open trace… says it, and the run opened is listed (ticked) and selected."""
    session = next(trace_id for trace_id in fixture_trace_ids(OPENLIT)
                   if "mcp session/init" in json.dumps(fixture_trace(trace_id, OPENLIT)))
    window = runs_window(make_window)
    window.resize(1280, 800)
    tab = window.runs_tab
    with trace_backend() as jaeger:
        jaeger.serve_json(f"/api/v3/traces/{session}", {"result": fixture_trace(session, OPENLIT)})
        with qtbot.waitSignal(tab.transfers.ended, timeout=20000) as ended:
            tab.transfers.open_trace_by_id("jaeger", jaeger.base, session)
    QApplication.processEvents()
    assert ended.args[:2] == ["import", "ok"]
    try:
        assert tab.status.text() == (f"Opened trace {session}: 1 run imported. The run is a plumbing trace (a "
                                     "session's plumbing alone), listed with “Show plumbing traces” ticked.")
        assert tab.run_list.plumbing_line.toggle.isChecked() and len(tab.selected_run_ids()) == 1
        save(window, "runs-plumbing-trace-by-id-en")
        switch_language("de")
        assert "Infrastruktur-Trace" in tab.status.text(), tab.status.text()
        save(window, "runs-plumbing-trace-by-id-de")
    finally:
        switch_language("en")
