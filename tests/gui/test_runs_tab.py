"""The Runs tab in the window: live runs, scenario runs, drops and imports, export, delete, Find,
hostile payloads. Real servers on 127.0.0.1, a real SQLite file, real widgets offscreen."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton

from inspector.gui.runs import transfers
from inspector.gui.runs.timeline_model import COLUMNS, OUTCOME_COLUMN, MatchRole, OutcomeRole
from inspector.mcp import ServerEndpoint
from inspector.store import RunStore, resolve_db_path
from inspector.transfer import export, import_trace
from tests.support.sample_runs import T0, big_run, mixed_run


def database_bytes(path: Path) -> dict[str, bytes]:
    """The database file and its write-ahead log, as bytes (what 'unchanged' means)."""
    return {suffix: Path(f"{path}{suffix}").read_bytes() for suffix in ("", "-wal")
            if Path(f"{path}{suffix}").exists()}


def runs_window(make_window):
    window = make_window(wait_tools=False)
    window.tabs.setCurrentWidget(window.runs_tab)
    return window


def drop(window, *paths: Path) -> None:
    """Drag files onto the window and drop them. Qt delivers drop events only inside a real drag
    session (none offscreen), so the events go to the window's drop filter as Qt would hand them."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path)) for path in paths])
    drop_filter = window.runs_tab._drop_filter
    enter = QDragEnterEvent(QPoint(200, 200), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    assert drop_filter.eventFilter(window, enter) and enter.isAccepted()
    event = QDropEvent(QPointF(200, 200), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    assert drop_filter.eventFilter(window, event) and event.isAccepted()
    assert window.acceptDrops()


def trace_file(tmp_path: Path, name: str = "mixed.trace.json", steps: int | None = None,
               file_format: str = "trace") -> tuple[Path, list[str]]:
    """A trace written by export from a database of its own; returns the file and its run uids."""
    with RunStore.open(tmp_path / f"source-{name}.db") as source:
        run_id = mixed_run(source) if steps is None else big_run(source, steps)
        export(source, [run_id], None, tmp_path / name, file_format)
        return tmp_path / name, [source.get_run(run_id).uid]


def outcomes_of(tab) -> list[str]:
    return [tab.timeline.index(row, OUTCOME_COLUMN).data(OutcomeRole) for row in range(tab.timeline.rowCount())]


def test_a_live_run_from_the_workbench_appears_and_updates(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    tab = window.runs_tab
    tab.show_me()  # the list is read while it is shown (the workbench's operations run behind it)

    def hang_row():
        return next((row for row in range(tab.runs.rowCount()) if tab.runs.run(row).title == "tools/call hang"), None)

    assert window.workbench.tools.select_tool("hang")
    task = window.workbench.run_current_tool()
    qtbot.waitUntil(lambda: hang_row() is not None and tab.runs.run(hang_row()).status == "running", timeout=10000)
    assert hang_row() == 0  # newest first
    assert tab.runs.index(0, 3).data() == "running"
    assert demo_server.state.hang_started.wait(10)
    task.cancel()
    qtbot.waitUntil(lambda: tab.runs.run(hang_row()).status == "cancelled", timeout=10000)
    assert tab.runs.index(hang_row(), 3).data() == "cancelled" and tab.runs.run(hang_row()).step_count == 1
    assert tab.select_runs([tab.runs.run(hang_row()).id])
    assert outcomes_of(tab) == ["cancelled"]


def test_a_scenario_run_shows_its_cancelled_step_in_flight(qtbot, make_window, demo_server) -> None:
    from inspector.agent import AgentRun, ScriptedModel, StoreSink, shipped_scenarios

    window = runs_window(make_window)
    tab = window.runs_tab
    scenario = shipped_scenarios()["user-cancels"]
    ended = threading.Event()

    def play() -> None:  # the scenario on a thread of its own, writing through its own connection
        with RunStore.open(resolve_db_path()) as store:
            agent = AgentRun(ScriptedModel(scenario), ServerEndpoint(demo_server.url), scenario.prompt,
                             title=f"scenario {scenario.name}", sink=StoreSink(store, "scenario"),
                             max_rounds=scenario.max_rounds, budget_s=scenario.budget_s,
                             cancel_after_s=scenario.cancel_after_s)
            asyncio.run(agent.run())
        ended.set()

    thread = threading.Thread(target=play)
    thread.start()
    try:
        # While the call hangs the run is listed as running, with the steps recorded so far.
        qtbot.waitUntil(lambda: tab.runs.rowCount() == 1 and tab.runs.run(0).status == "running"
                        and (tab.runs.run(0).step_count or 0) >= 2, timeout=15000)
        tab.select_runs([tab.runs.run(0).id])
        qtbot.waitUntil(lambda: tab.runs.run(0).status == "cancelled", timeout=15000)
        qtbot.waitUntil(lambda: "cancelled" in outcomes_of(tab), timeout=5000)
    finally:
        thread.join(20)
    assert ended.is_set()
    outcomes = outcomes_of(tab)
    assert "failed" not in outcomes
    row = outcomes.index("cancelled")
    assert tab.timeline.index(row, COLUMNS.index("details")).data().startswith("hang: cancelled in flight")
    tab.select_step(row)
    assert tab.detail.remote_effect.isVisibleTo(tab)
    assert "unknown" in tab.detail.remote_effect.text()
    # The legs replayed in the budget bar: the handshake, then the cancelled call, hatched.
    assert [leg.outcome for leg in tab.detail.step.legs][-1] == "cancelled"
    assert not tab.detail.bar.isHidden()
    # Copy buttons: the result as shown, the payload as pretty JSON.
    tab.detail.copy_payload.click()
    copied = json.loads(QApplication.clipboard().text())
    assert copied["toolName"] == "hang" and copied["toolOutcome"] == "cancelled" and copied["cancelledInFlight"]
    tab.detail.copy_result.click()
    assert QApplication.clipboard().text() == tab.detail.result.toPlainText()


def test_a_failed_request_step_with_no_outcome_of_its_own_is_not_drawn_ok(qtbot, runs_tab_showing) -> None:
    """A request step (tools/list) records no outcome, only its legs: its bar ends as they did."""
    from inspector.runs import Leg, RunStep, StepKind

    legs = {"failed": (Leg("server/discover", 20, 25.0, 500, "ok"), Leg("initialize", 20, 3.0, 500, "failed")),
            "cancelled": (Leg("tools/list", 20, 900.0, None, "cancelled"),),
            "ok": (Leg("tools/list", 20, 12.0, 200, "ok"),)}
    with RunStore.open(resolve_db_path()) as store:
        runs = {}
        for status, run_legs in legs.items():
            run_id = runs[status] = store.start_run(f"tools/list {status}", "live", "http://127.0.0.1:1/mcp",
                                                    started_at=T0)
            step = RunStep(kind=StepKind.REQUEST, round=0, duration_ms=30.0, content="tools/list: said",
                           legs=run_legs)
            store.append_steps(run_id, [(step, T0)])
            store.finish_run(run_id, status, T0)
    showing = runs_tab_showing()
    tab = showing.tab
    for status, run_id in runs.items():
        show_the_one_step(showing, run_id)
        assert outcomes_of(tab) == [""]  # the timeline says no outcome, as the reference does
        assert tab.detail.bar.state.ending == status, status


@pytest.mark.parametrize(("language", "header", "spent"), [
    ("en", "0.004 s", "0.004 s of 20 s spent"),
    ("de", "0,004 s", "0,004 s von 20 s verbraucht"),
])
def test_a_steps_bar_spends_what_its_header_says(qtbot, runs_tab_showing, language, header, spent) -> None:
    """A call of 4.2 ms whose three legs took 3 ms: the header said "0,004 s" and the bar
    "0,003 s von 20 s verbraucht". The one deadline counts wall time from the operation's start, the
    time between the legs too: the bar spends the step's whole duration, as the live bar did."""
    from inspector.runs import Leg, RunStep, RunTrace, StepKind, ToolResult

    legs = (Leg("initialize", 20, 1.0, 200, "ok"), Leg("notifications/initialized", 20, 0.5, 202, "ok"),
            Leg("tools/call", 20, 1.5, 200, "ok"))
    with RunStore.open(resolve_db_path()) as store:
        run_id = store.start_run("tools/call echo", "live", "http://127.0.0.1:1/mcp", started_at=T0)
        step = RunTrace().record_tool_result(0, "echo", {"text": "hi"}, ToolResult.text("hi"), 4.2, legs=legs)
        assert isinstance(step, RunStep) and step.kind == StepKind.TOOL
        store.append_steps(run_id, [(step, T0)])
        store.finish_run(run_id, "ok", T0)
    showing = runs_tab_showing(language=language)
    tab = showing.tab
    show_the_one_step(showing, run_id)
    assert tab.detail.summary.text().split(" · ")[0] == header
    assert tab.detail.bar.current_geometry().spent_text == spent
    from tests.gui.test_screenshots import save

    assert save(tab.detail, f"step-detail-spent-{language}").exists()
    assert tab.detail.bar.header_shown[0] == spent  # as painted


def show_the_one_step(showing, run_id: int) -> None:
    """Select the run of one step and that step, and wait for its budget bar."""
    showing.select(run_id, steps=1)
    tab = showing.tab
    tab.select_step(0)
    showing.qtbot.waitUntil(lambda: tab.detail.bar.state is not None and not tab.detail.bar.isHidden())


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_tool_step_whose_source_recorded_no_outcome_ends_its_bar_not_recorded(qtbot, runs_tab_showing,
                                                                                  language) -> None:
    """An imported call with no status, error or result: its ok legs do not make it ok."""
    from inspector.gui.widgets.budget_bar_words import ending_text
    from inspector.runs import Leg, RunStep, StepKind

    with RunStore.open(resolve_db_path()) as store:
        run_id = store.start_run("tools/call slow", "imported", None, started_at=T0)
        step = RunStep(kind=StepKind.TOOL, round=0, duration_ms=200.0, tool_name="slow",
                       tool_result="no outcome recorded: the span ended without a status, an error or a result",
                       legs=(Leg("tools/call", 20, 200.0, 200, "ok"),))
        store.append_steps(run_id, [(step, T0)])
        store.finish_run(run_id, "ok", T0)
    showing = runs_tab_showing(language=language)
    window, tab = showing.window, showing.tab
    show_the_one_step(showing, run_id)
    word = {"en": "not recorded", "de": "nicht erfasst"}[language]
    assert outcomes_of(tab) == [""] and tab.timeline.index(0, OUTCOME_COLUMN).data() == word
    assert tab.detail.bar.state.ending == "unrecorded"
    assert ending_text(tab.detail.bar.state) == word  # no "✓ ok"
    from tests.gui.test_screenshots import save

    assert save(window, f"runs-unrecorded-{language}").exists()


def test_drop_a_trace_file_the_run_appears_and_is_selected_and_again_is_not_doubled(qtbot, make_window,
                                                                                 tmp_path) -> None:
    window = runs_window(make_window)
    tab = window.runs_tab
    path, (uid,) = trace_file(tmp_path)
    with qtbot.waitSignal(tab.transfer_ended, timeout=20000) as ended:
        drop(window, path)
    assert ended.args[:2] == ["import", "ok"]
    run = tab.current_run()
    assert run is not None and run.uid == uid and run.source == "imported"
    assert tab.selected_run_ids() == [run.id]
    assert outcomes_of(tab) == ["", "ok", "failed", "", "cancelled", ""]
    tab.run_view.selectionModel().clearSelection()
    with qtbot.waitSignal(tab.transfer_ended, timeout=20000) as again:
        drop(window, path)
    assert again.args[:2] == ["import", "ok"] and "here already" in again.args[2]
    assert tab.runs.rowCount() == 1 and tab.selected_run_ids() == [run.id]


def test_two_files_dropped_together_are_imported_one_after_the_other(qtbot, make_window, tmp_path) -> None:
    from tests.gui.test_runs_screenshots import write_otlp

    window = runs_window(make_window)
    tab = window.runs_tab
    first, _uids = trace_file(tmp_path)
    second = write_otlp(tmp_path / "other.otlp.json")
    ended = []
    tab.transfer_ended.connect(lambda *args: ended.append(args))
    drop(window, first, second)
    qtbot.waitUntil(lambda: len(ended) == 2, timeout=20000)
    assert [args[:2] for args in ended] == [("import", "ok")] * 2
    assert tab.runs.rowCount() == 2
    assert tab.current_run().origin == "other.otlp.json"  # the last one imported is shown


def test_drop_a_bad_file_shows_the_importer_sentence_and_changes_nothing(qtbot, make_window, tmp_path) -> None:
    window = runs_window(make_window)
    tab = window.runs_tab
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": "run-inspector-trace", "version": 1, "runs": [{"uid": 1', encoding="utf-8")
    before = database_bytes(resolve_db_path())
    with qtbot.waitSignal(tab.transfer_ended, timeout=20000) as ended:
        drop(window, bad)
    assert ended.args[1] == "failed"
    assert tab.last_error is not None and tab.last_error.startswith("Cannot import broken.json:")
    assert tab.error_box is not None and tab.error_box.isVisible() and tab.error_box.text() == tab.last_error
    assert database_bytes(resolve_db_path()) == before
    assert tab.runs.rowCount() == 0
    tab.error_box.close()


def test_a_long_status_sentence_is_cut_with_an_ellipsis_the_whole_in_its_tooltip(qtbot, make_window,
                                                                                tmp_path) -> None:
    """The line under the Runs tab (what an import or export did) was one line cut at the window's
    edge mid-word ("Es wurde nic"): it wraps to two lines, then ends in "…", the whole in its tooltip."""
    from inspector.gui.language import switch_language
    from inspector.gui.widgets.plain_text import plain_tooltip

    window = runs_window(make_window)
    tab = window.runs_tab
    bad = tmp_path / ("a-trace-with-a-rather-long-name-" * 6 + ".jsonl")
    bad.write_text('{"format": "run-inspector-trace", "version": 1, "runs": [{"uid": 1', encoding="utf-8")
    switch_language("de")
    try:
        with qtbot.waitSignal(tab.transfer_ended, timeout=20000):
            drop(window, bad)
        status = tab.status
        qtbot.waitUntil(lambda: status.text().endswith("Es wurde nichts importiert."))
        lines = status.shown_lines()
        assert len(lines) <= 2 and len(lines) * status.fontMetrics().lineSpacing() <= status.contentsRect().height()
        assert lines[-1].endswith("…") and status.toolTip() == plain_tooltip(status.text())
        status.setText("Ein Lauf aus kurz.json importiert.")
        assert status.shown_lines() == ["Ein Lauf aus kurz.json importiert."] and status.toolTip() == ""
    finally:
        switch_language("en")


def test_cancel_a_large_import_changes_nothing(qtbot, make_window, tmp_path) -> None:
    window = runs_window(make_window)
    tab = window.runs_tab
    path, _uids = trace_file(tmp_path, "large.trace.json", steps=40_000)
    before = database_bytes(resolve_db_path())
    job = window.runs_tab.open_trace(path)
    # Hold the worker at its first progress report until Cancel was pressed: no race with a fast disk.
    reported, pressed = threading.Event(), threading.Event()

    def hold(_value: int) -> None:
        if not reported.is_set():
            reported.set()
            pressed.wait(10)

    job.progress.connect(hold, Qt.ConnectionType.DirectConnection)
    qtbot.waitUntil(reported.is_set, timeout=20000)
    assert tab.dialog is not None
    with qtbot.waitSignal(tab.transfer_ended, timeout=20000) as ended:
        cancel_button = tab.dialog.findChild(QPushButton)
        assert cancel_button.text() == "Cancel"
        cancel_button.click()
        pressed.set()
    assert ended.args[1] == "cancelled", ended.args
    assert database_bytes(resolve_db_path()) == before
    assert tab.runs.rowCount() == 0


def hold_at_first_progress(job):
    """Hold the worker at its first progress report until released: no race with a fast disk."""
    reported, released = threading.Event(), threading.Event()

    def hold(_value: int) -> None:
        if not reported.is_set():
            reported.set()
            released.wait(10)

    job.progress.connect(hold, Qt.ConnectionType.DirectConnection)
    return reported, released


def test_cancel_an_export_leaves_no_file(qtbot, make_window, tmp_path) -> None:
    with RunStore.open(resolve_db_path()) as store:
        big = big_run(store, 40_000)
    window = runs_window(make_window)
    tab = window.runs_tab
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 1)
    destination = tmp_path / "never.json"
    job = tab.export_runs(destination, "otlp", [big])
    reported, released = hold_at_first_progress(job)
    qtbot.waitUntil(reported.is_set, timeout=20000)
    with qtbot.waitSignal(tab.transfer_ended, timeout=20000) as ended:
        tab.dialog.findChild(QPushButton).click()
        released.set()
    assert ended.args[:2] == ["export", "cancelled"], ended.args
    assert not destination.exists() and list(tmp_path.iterdir()) == []


def test_export_from_the_window_then_import_elsewhere_gives_the_same_runs(qtbot, make_window, tmp_path) -> None:
    with RunStore.open(resolve_db_path()) as store:
        first = mixed_run(store, "first")
        second = mixed_run(store, "second", started_at=T0.replace(hour=10))
        big = big_run(store, 700)
    window = runs_window(make_window)
    tab = window.runs_tab
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 3)
    assert tab.select_runs([first, second])
    for file_format in ("trace", "otlp"):
        destination = tmp_path / f"exported.{file_format}.json"
        with qtbot.waitSignal(tab.transfer_ended, timeout=20000) as ended:
            tab.export_runs(destination, file_format)
        assert ended.args[:2] == ["export", "ok"], ended.args
        with RunStore.open(tmp_path / f"fresh-{file_format}.db") as fresh:
            report = import_trace(fresh, destination)
            assert report.runs_imported == 2
            with RunStore.open(resolve_db_path()) as original:
                for run_id in (first, second):
                    mine = original.get_run(run_id)
                    theirs = fresh.find_run_by_uid(mine.uid)
                    assert theirs is not None and (theirs.title, theirs.status) == (mine.title, mine.status)
                    assert [s.step for s in fresh.iter_steps(theirs.id)] == [s.step for s in original.iter_steps(
                        run_id)]
    assert big not in tab.selected_run_ids()


def _answer_delete(monkeypatch, answer: QMessageBox.StandardButton) -> list[tuple[str, Qt.TextFormat]]:
    asked: list[tuple[str, Qt.TextFormat]] = []

    def exec_(box: QMessageBox) -> int:
        asked.append((box.text(), box.textFormat()))
        return answer

    monkeypatch.setattr(QMessageBox, "exec", exec_)
    return asked


def test_delete_runs_asks_naming_them(qtbot, make_window, monkeypatch) -> None:
    with RunStore.open(resolve_db_path()) as store:
        ids = [mixed_run(store, f"run {n}", started_at=T0.replace(minute=n)) for n in range(3)]
    window = runs_window(make_window)
    tab = window.runs_tab
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 3)
    tab.select_runs(ids[:2])
    asked = _answer_delete(monkeypatch, QMessageBox.StandardButton.No)
    assert tab.delete_selected() is None and tab.runs.rowCount() == 3
    asked_again = _answer_delete(monkeypatch, QMessageBox.StandardButton.Yes)
    with qtbot.waitSignal(tab.transfer_ended, timeout=20000) as ended:
        assert tab.delete_selected() is not None
    asked += asked_again
    assert ended.args == ["delete", "ok", "Deleted 2 runs."]
    question = "\n".join(["Delete 2 runs and all their steps? This cannot be undone.", "",
                           *sorted(f"run {run_id} “run {n}”" for n, run_id in enumerate(ids[:2]))])
    assert [(text.split("\n")[:2] + sorted(text.split("\n")[2:]), form) for text, form in asked] == [
        (question.split("\n"), Qt.TextFormat.PlainText)] * 2
    assert [tab.runs.run(row).id for row in range(tab.runs.rowCount())] == [ids[2]]
    assert tab.timeline.run is None or tab.timeline.run.id == ids[2]


def test_deleting_one_run_names_it_and_many_are_counted(qtbot, make_window, monkeypatch) -> None:
    with RunStore.open(resolve_db_path()) as store:
        ids = [mixed_run(store, f"<b>run</b> {n}", started_at=T0.replace(minute=n)) for n in range(8)]
    window = runs_window(make_window)
    tab = window.runs_tab
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 8)
    asked = _answer_delete(monkeypatch, QMessageBox.StandardButton.No)
    tab.select_runs(ids[:1])
    tab.delete_selected()
    tab.select_runs(ids)
    tab.delete_selected()
    assert asked[0] == (f"Delete run {ids[0]} “<b>run</b> 0” and all its steps? This cannot be undone.",
                        Qt.TextFormat.PlainText)
    lines = asked[1][0].split("\n")
    assert lines[0] == "Delete 8 runs and all their steps? This cannot be undone."
    assert len(lines) == 2 + 5 + 1 and lines[-1] == "… and 3 more runs"
    assert tab.runs.rowCount() == 8  # nothing deleted on No


def test_find_highlights_matches_and_goes_next_and_previous(qtbot, runs_tab_showing) -> None:
    with RunStore.open(resolve_db_path()) as store:
        run_id = mixed_run(store)
    shown = runs_tab_showing(run_id, listed=1)
    window, tab = shown.window, shown.tab
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    tab.timeline_view.setFocus()
    qtbot.keyClick(tab.timeline_view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert tab.find_edit.hasFocus()
    tab.find_edit.setText("hang")
    assert tab.find() == [0, 4]
    assert [tab.timeline.index(row, 0).data(MatchRole) for row in range(6)] == [True, False, False, False, True,
                                                                                False]
    assert tab.timeline.index(4, 0).data(Qt.ItemDataRole.BackgroundRole) is not None
    assert tab.timeline_view.currentIndex().row() == 0 and tab.find_status.text() == "1 of 2"
    tab.find_next()
    assert tab.timeline_view.currentIndex().row() == 4
    tab.find_next()
    assert tab.timeline_view.currentIndex().row() == 0
    tab.find_previous()
    assert tab.timeline_view.currentIndex().row() == 4 and tab.find_status.text() == "2 of 2"
    # The timeline filter: failed only; the cancelled step is not among them.
    tab.step_outcome_filter.setCurrentIndex(tab.step_outcome_filter.findData("failed"))
    assert outcomes_of(tab) == ["failed"]
    tab.step_outcome_filter.setCurrentIndex(tab.step_outcome_filter.findData("cancelled"))
    assert outcomes_of(tab) == ["cancelled"]
    tab.kind_filter.setCurrentIndex(tab.kind_filter.findData("llm"))
    assert outcomes_of(tab) == []
    # Nothing matches: the heading still counts the run's steps, and the empty rows say why.
    assert tab.run_heading.text() == (f"Run {run_id}: user-cancels — cancelled; 0 of 6 steps shown (filtered)")
    note = tab.timeline_pane.empty_note
    assert note.isVisibleTo(tab) and note.text().startswith("No step of this run matches the filters.")
    assert "all 6" in note.text() and note.textFormat() == Qt.TextFormat.PlainText
    tab.kind_filter.setCurrentIndex(0)
    tab.step_outcome_filter.setCurrentIndex(0)
    assert tab.run_heading.text() == f"Run {run_id}: user-cancels — cancelled, 6 steps"
    assert not note.isVisibleTo(tab)


def test_hostile_payloads_show_as_plain_clipped_text_quickly(qtbot, make_window) -> None:
    nested = "[" * 5_000 + '"bottom"' + "]" * 5_000  # deeper than any JSON parser here will go
    huge = "<img src=x onerror=alert(1)>\x1b[2J\x07" + "é" * 3_000_000
    with RunStore.open(resolve_db_path()) as store:
        run_id = store.start_run("hostile <b>title</b>\x1b[31m", "imported", None, started_at=T0)
        # Written as a hostile file could hold it: past the bounds our own recording keeps.
        store.db.conn.execute("INSERT INTO steps (run_id, sequence, kind, round, duration_ms, started_at, outcome,"
                              " payload) VALUES (?, 1, 'tool', 0, 1.0, ?, 'ok', ?)",
                              (run_id, "2026-12-01T09:14:03.000000Z", json.dumps({
                                  "kind": "tool", "round": 0, "durationMs": 1.0, "toolName": "x" * 10_000,
                                  "toolArguments": {"deep": "ok"}, "toolResult": huge, "toolIsError": False,
                                  "toolOutcome": "ok"}, ensure_ascii=False)))
        # Deep nesting: written as text, as a hostile file could have it.
        payload = '{"kind": "llm", "round": 0, "durationMs": 1.0, "content": "deep", "raw": ' + nested + "}"
        store.db.conn.execute("INSERT INTO steps (run_id, sequence, kind, round, duration_ms, started_at, outcome,"
                              " payload) VALUES (?, 2, 'llm', 0, 1.0, ?, '', ?)",
                              (run_id, "2026-12-01T09:14:04.000000Z", payload))
    window = runs_window(make_window)
    tab = window.runs_tab
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 1)
    assert tab.runs.index(0, 2).data() == "hostile <b>title</b>␛[31m"
    assert "&lt;b&gt;title&lt;/b&gt;" in tab.runs.index(0, 2).data(Qt.ItemDataRole.ToolTipRole)
    tab.select_runs([run_id])
    started = time.perf_counter()
    tab.select_step(0)
    QApplication.processEvents()
    tab.select_step(1)
    QApplication.processEvents()
    # Not a hang: 0.7 s alone, 5.3 s beside five other test processes on two cores (the bound was 3 s and
    # failed there); the whole 3,000,000 characters laid out, as before the cut, takes minutes.
    assert time.perf_counter() - started < 20
    assert len(tab.timeline.index(0, COLUMNS.index("details")).data()) <= 300
    tab.select_step(0)
    text = tab.detail.result.toPlainText()
    assert text.startswith("<img src=x onerror=alert(1)>␛[2J␇") and len(text) < 200_000
    assert "cut: the text has" in text
    tab.select_step(1)
    assert "nested deeper than" in tab.detail.payload.toPlainText() or len(tab.detail.payload.toPlainText()) < 200_000


@pytest.mark.parametrize("steps", [100_000])
def test_a_huge_run_opens_fast_and_scrolling_reads_only_the_pages_shown(qtbot, make_window, steps) -> None:
    from PySide6.QtCore import QEvent, QObject

    with RunStore.open(resolve_db_path()) as store:
        run_id = big_run(store, steps)
    window = runs_window(make_window)
    tab = window.runs_tab
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 1)
    painted = []

    class Paints(QObject):
        def eventFilter(self, watched, event):  # noqa: N802
            if event.type() == QEvent.Type.Paint and tab.timeline.rowCount():
                painted.append(time.perf_counter())
            return False

    watcher = Paints()
    tab.timeline_view.viewport().installEventFilter(watcher)
    started = time.perf_counter()
    tab.select_runs([run_id])
    qtbot.waitUntil(lambda: bool(painted), timeout=5000)
    # Generous: 2.05 s once in a full run beside other work at load 5 (the figure is measured in benchmarks/);
    # reading every page would take far longer, and pages_read below says it was not done.
    assert painted[0] - started < 3.0, f"first rows painted after {painted[0] - started:.3f} s"
    assert tab.timeline.rowCount() == steps and tab.timeline.pages_read == 1
    bar = tab.timeline_view.verticalScrollBar()
    bar.setValue(bar.maximum())  # drag the scroll bar to the end
    tab.timeline_view.viewport().repaint()
    last_page = (steps - 1) // tab.timeline.page_size
    assert tab.timeline.page_log == [0, last_page]
    assert tab.timeline.index(steps - 1, COLUMNS.index("details")).data() == f"thinking {steps - 1}"
    # Scrolling a screen at a time through the first 2,000 rows reads each of their pages once.
    bar.setValue(0)
    tab.timeline_view.viewport().repaint()
    tab.timeline.page_log.clear()
    while tab.timeline_view.rowAt(tab.timeline_view.viewport().height() - 1) < 2_000:
        bar.setValue(bar.value() + bar.pageStep())
        tab.timeline_view.viewport().repaint()
    assert tab.timeline.page_log == list(range(1, 2_000 // tab.timeline.page_size + 1))
    assert tab.timeline.cached_rows <= tab.timeline.cached_pages * tab.timeline.page_size


def test_every_control_of_the_runs_tab_has_an_accessible_name(qtbot, runs_tab_showing) -> None:
    from tests.gui.test_models_and_accessibility import _unnamed

    with RunStore.open(resolve_db_path()) as store:
        run_id = mixed_run(store)
    shown = runs_tab_showing(run_id, listed=1)
    window, tab = shown.window, shown.tab
    tab.select_step(4)
    assert tab.isVisibleTo(window)
    missing = _unnamed(window)
    assert missing == [], missing
    # Pictures speak: the status icon and the outcome cell say their word.
    assert tab.runs.index(0, 3).data(Qt.ItemDataRole.AccessibleTextRole) == "cancelled"
    assert tab.timeline.index(4, OUTCOME_COLUMN).data(Qt.ItemDataRole.AccessibleTextRole) == "cancelled"


def test_an_old_run_far_down_a_long_list_is_selected_and_a_sort_keeps_the_selection(qtbot, make_window) -> None:
    from tests.gui.test_runs_models import many_runs

    with RunStore.open(resolve_db_path()) as store:
        ids = many_runs(store, 1_500)
    window = runs_window(make_window)
    tab = window.runs_tab
    qtbot.waitUntil(lambda: tab.runs.rowCount() > 0)
    assert tab.runs.rowCount() < 1_500  # read in pages
    assert tab.select_runs([ids[3]])  # the fourth oldest: far down the list
    assert tab.current_run().id == ids[3] and tab.selected_run_ids() == [ids[3]]
    tab.run_view.sortByColumn(2, Qt.SortOrder.AscendingOrder)  # by title
    assert tab.current_run() is not None and tab.current_run().id == ids[3]
    assert tab.selected_run_ids() == [ids[3]] and tab.timeline.run.id == ids[3]


def test_a_file_name_in_the_progress_dialog_is_plain_text(qtbot, make_window, tmp_path) -> None:
    """A stranger's file name is shown as its characters: "<h1><font color=red>" is no headline."""
    from PySide6.QtWidgets import QLabel

    window = runs_window(make_window)
    tab = window.runs_tab
    path, _uids = trace_file(tmp_path, "<h1><font color=red>URGENT<br>pay now.trace.json", steps=20_000)
    job = tab.open_trace(path)
    reported, released = hold_at_first_progress(job)
    qtbot.waitUntil(reported.is_set, timeout=20000)
    try:
        assert tab.dialog is not None
        labels = [label for label in tab.dialog.findChildren(QLabel) if "URGENT" in label.text()]
        assert labels and "<h1><font color=red>URGENT<br>" in labels[0].text()
        assert all(label.textFormat() == Qt.TextFormat.PlainText for label in labels), labels
    finally:
        with qtbot.waitSignal(tab.transfer_ended, timeout=20000):
            released.set()


def test_a_file_name_that_turns_text_around_is_shown_as_its_characters(qtbot, make_window, tmp_path) -> None:
    """A right-to-left override in a file's name ("invoice‮nosj.exe" reads as "invoiceexe.json") is
    shown as U+FFFD in the status line after an import, and in the error box when the file is bad."""
    window = runs_window(make_window)
    tab = window.runs_tab
    good, _uids = trace_file(tmp_path)
    named = good.rename(tmp_path / "invoice\u202enosj.exe")
    with qtbot.waitSignal(tab.transfer_ended, timeout=20000) as ended:
        drop(window, named)
    assert ended.args[1] == "ok"
    assert "\u202e" not in tab.status.text() and "invoice\ufffdnosj.exe" in tab.status.text()
    bad = tmp_path / "bad\u202enosj.exe"
    bad.write_text("{", encoding="utf-8")
    with qtbot.waitSignal(tab.transfer_ended, timeout=20000) as ended:
        drop(window, bad)
    assert ended.args[1] == "failed"
    assert tab.error_box is not None and "bad\ufffdnosj.exe" in tab.error_box.text()
    assert "\u202e" not in tab.error_box.text() and "\u202e" not in tab.status.text()
    tab.error_box.close()


def test_copy_says_what_it_copied(qtbot, runs_tab_showing) -> None:
    with RunStore.open(resolve_db_path()) as store:
        run_id = mixed_run(store)
    tab = runs_tab_showing(run_id, listed=1).tab
    tab.timeline_pane.select_step(1)
    qtbot.waitUntil(lambda: tab.detail.step is not None and tab.detail.step.row.sequence == 2)
    tab.detail.copy_result.click()
    assert QApplication.clipboard().text() == "saved note 1"
    assert tab.status.text() == "Copied the result of step 2 (12 characters)."
    tab.detail.copy_payload.click()
    copied = QApplication.clipboard().text()
    assert json.loads(copied)["toolName"] == "write_note"
    assert tab.status.text() == f"Copied the payload of step 2 as JSON ({len(copied):,} characters)."


def test_the_file_dialogs_start_in_the_documents_folder_then_the_last_one_used(qtbot, make_window, monkeypatch,
                                                                                tmp_path) -> None:
    from PySide6.QtCore import QStandardPaths
    from PySide6.QtWidgets import QFileDialog

    with RunStore.open(resolve_db_path()) as store:
        run_id = mixed_run(store)
    window = runs_window(make_window)
    tab = window.runs_tab
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 1)
    started: list[str] = []
    chosen = tmp_path / "elsewhere"
    chosen.mkdir()

    def save(parent, caption, directory, filters, *args):
        started.append(directory)
        return "", ""

    def open_(parent, caption, directory, filters, *args):
        started.append(directory)
        return str(chosen / "missing.json"), ""

    monkeypatch.setattr(transfers, "save_file_name", lambda *asked, suffix: save(*asked))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", open_)
    tab.transfers.choose_export([run_id])
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    first = Path(started[0])
    assert first.name == f"run-{run_id}.json"
    assert first.parent in {Path(documents), Path.home()} and first.parent != Path.cwd()
    with qtbot.waitSignal(tab.transfer_ended, timeout=20000):
        tab.transfers.choose_trace()  # a file that is not there: the import fails, the folder is kept
    tab.transfers.choose_export([run_id, run_id])
    assert started[2] == str(chosen / "runs.json")


def test_the_round_column_shows_only_for_a_run_with_rounds(qtbot, runs_tab_showing) -> None:
    """An agent's run has rounds; a single operation's (or a trace's) would show a column of dashes,
    whose room the details take instead."""
    from inspector.runs import RunStep, StepKind

    with RunStore.open(resolve_db_path()) as store:
        agent = mixed_run(store)
        single = store.start_run("tools/call echo", "live", "http://127.0.0.1:1/mcp", started_at=T0)
        store.append_steps(single, [(RunStep(kind=StepKind.TOOL, round=0, duration_ms=3.0, tool_name="echo",
                                             tool_result="hi"), T0)])
        store.finish_run(single, "ok", T0)
    showing = runs_tab_showing()
    tab = showing.tab
    pane, round_column = tab.timeline_pane, COLUMNS.index("round")
    details = pane.view.horizontalHeader()
    for run_id, rounds in ((agent, True), (single, False), (agent, True)):
        showing.select(run_id)  # waits until the pane shows it
        assert pane.view.isColumnHidden(round_column) is not rounds, run_id
    width_with_rounds = details.sectionSize(COLUMNS.index("details"))
    tab.select_runs([single])
    qtbot.waitUntil(lambda: pane.view.isColumnHidden(round_column))
    assert details.sectionSize(COLUMNS.index("details")) > width_with_rounds
