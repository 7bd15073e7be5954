"""A list with no rows says why, where its rows would be: the Runs list of a new database says how
runs come, one whose filters leave nothing out says so and how to see every run; the Workbench's
operations say how to start one. In English and German."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from inspector.gui.language import switch_language
from inspector.gui.runs.runs_model import COLUMNS
from inspector.mcp import ServerEndpoint
from inspector.store import RunStore, resolve_db_path
from inspector.store.plumbing_traces import without_plumbing_traces
from inspector.transfer.importing import import_trace
from tests.gui.test_screenshots import save

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def back_to_english() -> Iterator[None]:
    yield
    switch_language("en")


def _hint(tab):
    return tab.run_list.empty.label


def _one_run_listed(qtbot, make_window, title: str, status: str):
    """A database of one run (``title``, ended ``status``), and the window listing it in its Runs tab."""
    with RunStore.open(resolve_db_path()) as store:
        run = store.start_run(title, "live", None)
        store.finish_run(run, status)
    window = make_window()
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 1, timeout=5000)
    return run, window, tab


def test_the_runs_list_says_how_runs_come_then_what_its_filters_leave_out(qtbot, make_window, back_to_english) -> None:
    window = make_window()
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    hint = _hint(tab)
    qtbot.waitUntil(hint.isVisible, timeout=5000)
    assert hint.text().startswith("No runs yet: run a tool in the Workbench")
    switch_language("de")
    assert hint.isVisible() and hint.text().startswith("Noch keine Läufe:")
    save(window, "runs-empty-de")
    switch_language("en")
    with RunStore.open(resolve_db_path()) as store:
        run = store.start_run("tools/call echo", "live", None)
        store.finish_run(run, "ok")
    tab.reload()
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 1, timeout=5000)
    assert not hint.isVisible()
    tab.search.setText("zzzz")
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 0, timeout=5000)
    assert hint.isVisible() and hint.text().startswith("No run matches the filters.")
    save(window, "runs-search-matches-nothing-en")
    tab.search.clear()
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 1, timeout=5000)
    assert not hint.isVisible()


def test_the_operations_list_says_how_to_start_one_until_the_first(qtbot, make_window, back_to_english) -> None:
    window = make_window()
    operations = window.workbench.operations
    assert operations.model.rowCount() == 0
    assert operations.empty.isVisible() and operations.empty.text().startswith("No operations yet")
    switch_language("de")
    assert operations.empty.text().startswith("Noch keine Vorgänge")
    task = window.engine.ping(ServerEndpoint("http://127.0.0.1:9/mcp"), 2, store=False)  # nobody listens there
    assert operations.model.rowCount() == 1 and not operations.empty.isVisible()
    qtbot.waitUntil(lambda: not task.running, timeout=10000)



def test_with_no_tool_chosen_nothing_claims_a_tool_and_run_waits(qtbot, make_window, demo_server,
                                                                  back_to_english) -> None:
    """No server, no tool: the arguments say nothing of a tool's arguments and Run is off; a chosen
    tool without properties says it takes none, and Run is on."""
    from PySide6.QtWidgets import QLabel

    def said(window) -> list[str]:
        panel = window.workbench.arguments
        root = panel.form.root  # the form shown (one replaced is deleted later)
        return [label.text() for label in root.findChildren(QLabel) if label.isVisibleTo(root) and label.text()]

    empty = make_window()
    assert empty.workbench.tool_title.text() == "No tool selected."
    assert not empty.workbench.run_button.isEnabled()
    assert said(empty) == []
    switch_language("de")
    assert said(empty) == [] and not empty.workbench.run_button.isEnabled()
    switch_language("en")
    window = make_window((demo_server.url, "Demo server"))
    assert window.workbench.tools.select_tool("echo")
    assert window.workbench.run_button.isEnabled()
    window.workbench._tool_selected({"name": "ping_me", "inputSchema": {"type": "object"}})
    assert said(window) == ["This tool takes no arguments."] and window.workbench.run_button.isEnabled()


def test_the_timeline_says_to_choose_a_run_until_one_is_chosen(qtbot, make_window, back_to_english) -> None:
    """A new Runs tab showed an empty timeline with no heading at all: the timeline says what to do
    (as it says "No run selected." once a chosen run is let go)."""
    run, window, tab = _one_run_listed(qtbot, make_window, "tools/call echo", "ok")
    pane = tab.timeline_pane
    assert pane.heading.text() == "No run selected."
    assert pane.empty_note.isVisible() and pane.empty_note.text().startswith("Select a run")
    switch_language("de")
    assert pane.heading.text() == "Kein Lauf ausgewählt."
    assert pane.empty_note.isVisible() and pane.empty_note.text().startswith("Wählen Sie oben einen Lauf")
    save(window, "runs-none-chosen-de")
    switch_language("en")
    tab.select_runs([run])
    qtbot.waitUntil(lambda: pane.model.rowCount() == 0 and pane.heading.text().startswith(f"Run {run}:"))
    assert pane.empty_note.text() == "This run has no steps."


def test_the_search_finds_the_runs_whose_steps_hold_the_text(qtbot, make_window, back_to_english) -> None:
    """A support engineer typed the customer's error ("TimeoutError") into the Runs search: no run, as the
    search looked in titles, servers, files and notes only (Find looks in one run's steps). It now finds
    the runs whose steps hold the text as Find sees it (an exception's type, an error.type's word, a tool's
    name), case aside; a text no step holds leaves the list empty, and the hint says where it looked."""
    with RunStore.open(resolve_db_path()) as store:
        trace = import_trace(store, ROOT / "tests" / "fixtures" / "otel" / "mcp_sdk.jsonl")
        imported = without_plumbing_traces(store.db.conn, trace.run_ids)[0]  # the runs listed: the agent's
        failing = store.list_runs(outcome="failed")[0].id
    window = make_window()
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: tab.runs.rowCount() == len(imported), timeout=5000)
    hint = _hint(tab)
    for text in ("TimeoutError", "timeouterror", "tool_error"):  # an exception's type; the server's error.type
        tab.search.setText(text)
        qtbot.waitUntil(lambda text=text: tab.runs.filter.text == text, timeout=5000)
        assert [tab.runs.run(row).id for row in range(tab.runs.rowCount())] == [failing], text
    tab.search.setText("no step holds this")
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 0, timeout=5000)
    assert hint.isVisible() and hint.text().startswith("No run matches the filters.")
    assert hint.text().endswith("and in their steps: tool names, errors, outcomes, arguments, results and a "
                                "trace's attributes and events, as Find (Ctrl+F) does in one run.")
    save(window, "runs-search-in-steps-en")
    switch_language("de")
    qtbot.waitUntil(lambda: hint.text().endswith("wie Suchen (Strg+F) in einem Lauf."), timeout=5000)
    save(window, "runs-search-in-steps-de")
    switch_language("en")
    tab.search.clear()
    qtbot.waitUntil(lambda: tab.runs.rowCount() == len(imported), timeout=5000)
    filter_ = tab.run_list.outcome_filter
    filter_.setCurrentIndex(filter_.findData("cancelled"))  # no search text: the filters alone are named
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 0, timeout=5000)
    assert hint.isVisible() and "Find" not in hint.text()


def _traced_runs_listed(qtbot, make_window):
    """The Runs tab listing the mcp SDK's trace (tests/fixtures/otel/), imported for real: the agent's run (its three
    notifications' traces are plumbing traces, not listed)."""
    with RunStore.open(resolve_db_path()) as store:
        import_trace(store, ROOT / "tests" / "fixtures" / "otel" / "mcp_sdk.jsonl")
    window = make_window()
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 1 and tab.run_list.plumbing_line.count == 3, timeout=5000)
    return tab


def test_the_search_of_the_steps_is_read_off_the_gui_thread(qtbot, make_window) -> None:
    """The search reads every run's steps (62,500 of a trace of 25,000 runs: 0.2-0.6 s a search), which on
    the GUI thread froze the window after each pause in typing: it is read on a reader thread, and the GUI
    thread's connection never reads a step for it."""
    tab = _traced_runs_listed(qtbot, make_window)
    read_here: list[str] = []
    tab.run_list.store.db.conn.set_trace_callback(read_here.append)
    try:
        tab.search.setText("TimeoutError")
        qtbot.waitUntil(lambda: tab.runs.filter.text == "TimeoutError" and tab.runs.rowCount() == 1, timeout=5000)
    finally:
        tab.run_list.store.db.conn.set_trace_callback(None)
    assert not [sql for sql in read_here if "FROM steps" in sql and "json_valid(payload)" in sql]


def test_a_search_read_while_the_list_was_sorted_anew_is_applied_in_the_new_order(qtbot, make_window) -> None:
    """The search's answer, read for the order the list had, arrives after a click on a heading sorted it
    anew: the search is asked again for the new order, not dropped (the text typed then filtered nothing)."""
    tab = _traced_runs_listed(qtbot, make_window)
    pane = tab.run_list
    pane.search.blockSignals(True)
    pane.search.setText("tool_error")
    pane.search.blockSignals(False)
    pane._filters_changed()  # noqa: SLF001 - the typing paused: the search asked of the reader thread
    assert pane._search_reads.pending is not None  # noqa: SLF001
    tab.runs.sort(COLUMNS.index("title"), Qt.SortOrder.AscendingOrder)  # before the answer is laid out
    qtbot.waitUntil(lambda: tab.runs.filter.text == "tool_error", timeout=5000)
    assert tab.runs.rowCount() == 1 and (tab.runs.order, tab.runs.descending) == ("title", False)


@pytest.mark.parametrize(("language", "said"), [
    ("en", "The search found the text in 1 step of this run (Find, Ctrl+F, shows it)."),
    ("de", "Die Suche fand den Text in 1 Schritt dieses Laufs (Suchen, Strg+F, zeigt ihn).")])
def test_a_run_found_by_its_steps_says_in_how_many_in_its_titles_tooltip(qtbot, make_window, back_to_english,
                                                                        language, said) -> None:
    """A run listed for its steps' text is told from one listed for its title: its title's tooltip counts
    the steps the search found the text in; without a search, or for a run found by its title, no count."""
    tab = _traced_runs_listed(qtbot, make_window)
    switch_language(language)
    tab.search.setText("TimeoutError")
    qtbot.waitUntil(lambda: tab.runs.filter.text == "TimeoutError" and tab.runs.rowCount() == 1, timeout=5000)
    tip = tab.runs.index(0, COLUMNS.index("title")).data(Qt.ItemDataRole.ToolTipRole)
    assert said in tip and "invoke_agent support-agent" in tip
    tab.search.setText("mcp_sdk.jsonl")  # the file the runs came from: no step counted
    qtbot.waitUntil(lambda: tab.runs.filter.text == "mcp_sdk.jsonl", timeout=5000)
    assert tab.runs.rowCount() == 1 and tab.run_list.plumbing_line.count == 3
    tip = tab.runs.index(0, COLUMNS.index("title")).data(Qt.ItemDataRole.ToolTipRole)
    assert said.split(" 1 ")[0] not in tip
