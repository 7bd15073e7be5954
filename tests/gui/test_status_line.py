"""The status bar counts the runs the Play tab plays and names the last run stored, whether an
operation of the workbench or a played run ended last (issue 26). In the real window, the run
played on a fresh demo server, the operation against the demo server on 127.0.0.1."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

from inspector.gui.status_line import status_text
from tests.gui.test_main_window import choose
from tests.gui.test_play_tab import play_tab
from tests.gui.test_server_questions import finish


def test_a_played_run_is_counted_while_it_plays_and_named_when_it_ends(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    before = window.status.text()  # the catalogue's run, the last so far
    assert before.startswith("0 operations running · last run 1: tools/list ")
    room = play_tab(window).room
    assert room.choices.choose("happy-path")
    run = room.play()
    assert run is not None
    assert window.status.text() == before.replace("0 operations running", "0 operations running, 1 run playing")
    qtbot.waitUntil(lambda: not run.running, timeout=30000)
    assert run.status == "ok", run.error
    said = window.status.text()
    assert said.startswith(f"0 operations running · last run {run.run_id}: scenario happy-path (ok) · ")
    assert "playing" not in said
    # An operation of the workbench that ends later is the last run now.
    window.tabs.setCurrentWidget(window.workbench)
    choose(window, "echo")
    window.workbench.arguments.set_arguments({"text": "hi"})
    outcome = finish(qtbot, window.workbench.run_current_tool())
    assert f"last run {outcome.run_id}: tools/call echo (ok)" in window.status.text()
    assert outcome.run_id > run.run_id


def test_an_agent_run_recorded_through_the_proxy_is_the_last_run(qtbot, make_window, demo_server) -> None:
    """The status line went on naming the catalogue's run after an agent's calls through the window's proxy
    were stored; a trace imported later is not the last run (its runs ran elsewhere, earlier)."""
    from inspector.store import RunStore, resolve_db_path
    from tests.gui.test_proxy_controls import _agent_calls

    window = make_window((demo_server.url, "Demo server"))
    assert window.proxies.start_selected()
    assert _agent_calls(window.proxies.proxies[demo_server.url].url) == "through the window's proxy"
    qtbot.waitUntil(lambda: "4 runs recorded so far" in window.proxies.state.text(), timeout=10000)
    with RunStore.open(resolve_db_path()) as store:
        last = max(store.list_runs(limit=None), key=lambda run: (run.finished_at, run.id))  # the last to end
    assert last.title.endswith(" · proxy")
    named = f"0 operations running · last run {last.id}: {last.title} ({last.status}) · "
    qtbot.waitUntil(lambda: window.status.text().startswith(named), timeout=5000)
    fixture = Path(__file__).parents[1] / "fixtures" / "otel" / "mcp_sdk.jsonl"
    with qtbot.waitSignal(window.runs_tab.transfers.imported, timeout=20000):
        window.runs_tab.open_trace(fixture)
    assert window.status.text().startswith(named)


def test_a_cancelled_played_run_is_named_cancelled(qtbot, make_window) -> None:
    window = make_window()
    room = play_tab(window).room
    assert room.choices.choose("user-cancels")  # it cancels itself after 2 s, while `hang` waits
    run = room.play()
    qtbot.waitUntil(lambda: not run.running, timeout=30000)
    assert run.status == "cancelled"
    assert f"last run {run.run_id}: scenario user-cancels (cancelled)" in window.status.text()


def test_the_status_line_counts_runs_playing_in_words() -> None:
    path = Path("/tmp/runs.db")
    assert status_text(0, None, path) == "0 operations running · no run stored in this session · database /tmp/runs.db"
    assert status_text(1, (7, "scenario x", "failed"), path, playing=2) == (
        "1 operation running, 2 runs playing · last run 7: scenario x (failed) · database /tmp/runs.db")
    # A run that plays is stored as it goes: the line does not say none is stored.
    assert status_text(0, None, path, playing=1) == "0 operations running, 1 run playing · database /tmp/runs.db"
    # A run's title is one line with its controls visible: a title cannot turn the line around.
    assert "\u202e" not in status_text(0, (1, "a\u202eb\nc", "ok"), path)


def test_the_first_run_playing_is_not_said_to_be_unstored(qtbot, make_window) -> None:
    from inspector.gui.language import switch_language

    window = make_window()
    assert "no run stored in this session" in window.status.text()
    room = play_tab(window).room
    switch_language("de")
    try:
        assert room.choices.choose("user-cancels")
        run = room.play()
        assert run is not None
        # The line as it was when the run's number came (stored as it goes), read as the number is
        # taken: a GUI thread starved on a loaded machine takes the run's start and its end (it
        # cancels itself after 2 s) in one batch, and the line read after a wait names the ended run.
        said_when_stored: list[str] = []
        run.changed.connect(lambda: said_when_stored.append(window.status.text())
                            if run.run_id is not None and not said_when_stored else None)
        qtbot.waitUntil(lambda: bool(said_when_stored), timeout=30000)
        # It said "1 Lauf wird vorgeführt · in dieser Sitzung noch kein Lauf gespeichert", the run stored as it went.
        said = said_when_stored[0]
        assert said.startswith("0 Vorgänge laufen, 1 Lauf wird vorgeführt · Datenbank "), said
        assert "kein Lauf gespeichert" not in said
        qtbot.waitUntil(lambda: not run.running, timeout=30000)
        assert f"letzter Lauf {run.run_id}: Szenario user-cancels (abgebrochen)" in window.status.text()
    finally:
        switch_language("en")


def test_runs_imported_are_not_said_to_be_unstored(qtbot, make_window) -> None:
    """Opening a trace stores its runs: the status bar counts them instead of "no run stored"."""
    window = make_window(wait_tools=False)
    window.tabs.setCurrentWidget(window.runs_tab)
    assert "no run stored in this session" in window.status.text()
    fixture = Path(__file__).parents[1] / "fixtures" / "otel" / "mcp_sdk.jsonl"
    with qtbot.waitSignal(window.runs_tab.transfers.imported, timeout=20000) as imported:
        window.runs_tab.open_trace(fixture)
    count = len(imported.args[0])
    assert count >= 1
    said = window.status.text()
    assert "no run stored" not in said
    assert said.startswith(f"0 operations running · {count} run{'s' if count > 1 else ''} imported in this session · ")


def test_the_status_line_counts_runs_imported_in_words() -> None:
    path = Path("/tmp/runs.db")
    assert status_text(0, None, path, imported=1) == ("0 operations running · 1 run imported in this session · "
                                                      "database /tmp/runs.db")
    # A run stored since is named: it is the last one.
    assert status_text(0, (9, "tools/call echo", "ok"), path, imported=4).startswith(
        "0 operations running · last run 9: tools/call echo (ok) · ")


def test_a_failed_run_is_said_with_why_in_one_pair_of_parentheses() -> None:
    path = Path("/tmp/runs.db")
    # The reason as the Runs list and `runs list` say it, one pair of parentheses: the status's.
    assert status_text(0, (3, "tools/call broken", "failed"), path, reason=(1, 1, False, "timed_out")) == (
        "0 operations running · last run 3: tools/call broken — failed (the tool call timed out) · "
        "database /tmp/runs.db")
    # A failed run whose reason is not read yet (or not known) is said as before.
    assert "last run 3: tools/call broken (failed) · " in status_text(0, (3, "tools/call broken", "failed"), path)


def said_whole(window, start: str) -> str:
    """The status line once it says ``start``…: its accessible name says it whole, and its tip where it is cut
    (shown as plain text: an elided label's tip)."""
    label = window.status
    assert start in label.text(), label.text()
    assert label.accessibleName() == f"Status: {label.text()}"
    assert label.toolTip() == (label.text() if label.is_cut() else "")
    return label.text()


def said_in_both(qtbot, window, english: str, german: str, shot: str, narrow: str = "") -> None:
    """The line comes to say ``english`` (the reason is read off the GUI thread, so it follows the run's
    end), then ``german``; each whole in its tip, pictured as ``statusline-{shot}-en``/``-de``. With
    ``narrow``, a narrow window cuts the German line, which still ends whole in its tip."""
    from inspector.gui.language import switch_language
    from tests.gui.test_screenshots import save

    qtbot.waitUntil(lambda: english in window.status.text(), timeout=10000)
    said_whole(window, english)
    save(window.statusBar(), f"statusline-{shot}-en")
    switch_language("de")
    try:
        said_whole(window, german)
        save(window.statusBar(), f"statusline-{shot}-de")
        if narrow:
            window.resize(480, 600)
            QApplication.processEvents()
            assert window.status.width() < window.status.fontMetrics().horizontalAdvance(window.status.text())
            said_whole(window, narrow)
    finally:
        switch_language("en")


def test_a_failed_workbench_call_is_named_with_why_as_the_runs_list_says_it(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    window.resize(1280, 800)
    choose(window, "fail")
    outcome = finish(qtbot, window.workbench.run_current_tool())
    assert outcome.status == "failed"
    said_in_both(qtbot, window, f"last run {outcome.run_id}: tools/call fail — failed (the tool call failed) · ",
                 f"letzter Lauf {outcome.run_id}: tools/call fail — fehlgeschlagen (der Tool-Aufruf schlug fehl) · ",
                 "workbench", narrow="fehlgeschlagen (der Tool-Aufruf schlug fehl) · Datenbank ")


def test_a_played_run_that_failed_is_named_with_why_as_the_play_tab_says_it(qtbot, make_window) -> None:
    window = make_window()
    window.resize(1280, 800)
    room = play_tab(window).room
    assert room.choices.choose("flaky-server")
    run = room.play()
    qtbot.waitUntil(lambda: not run.running, timeout=30000)
    assert run.status == "failed", run.error
    why = "1 of 4 tool calls failed; the model still gave its answer"
    assert f"failed ({why})" in room.status.text()  # what the Play tab says of it
    said_in_both(qtbot, window, f"last run {run.run_id}: scenario flaky-server — failed ({why}) · ",
                 f"letzter Lauf {run.run_id}: Szenario flaky-server — fehlgeschlagen (1 von 4 Tool-Aufrufen "
                 "schlug fehl; das Modell gab trotzdem seine Antwort) · ", "played")


def test_a_screen_reader_hears_what_the_line_says(qtbot, make_window) -> None:
    """The line's accessible name was "Status", its text only in the description (which some screen readers
    do not say): the name says the text now, and follows it as it changes, in the reader's language."""
    from PySide6.QtGui import QAccessible

    from inspector.gui.language import switch_language

    window = make_window(wait_tools=False)
    label = window.status
    name = QAccessible.queryAccessibleInterface(label).text(QAccessible.Text.Name)
    assert name == label.accessibleName() == f"Status: {label.text()}"
    assert "no run stored in this session" in name and label.accessibleDescription() == ""
    window.status_line.runs_imported(2)
    assert label.accessibleName() == f"Status: {label.text()}" and "2 runs imported in this session" in label.text()
    switch_language("de")
    try:
        assert label.accessibleName() == f"Status: {label.text()}" and "2 Läufe in dieser Sitzung importiert" in (
            label.accessibleName())
    finally:
        switch_language("en")
    assert "2 runs imported in this session" in label.accessibleName()
