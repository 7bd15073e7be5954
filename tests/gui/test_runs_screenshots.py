"""Screenshots of the Runs tab (tests/gui/screenshots/, git-ignored): a run of mixed outcomes with
its cancelled step's detail, and an imported OTLP trace. Each checks the state it shows."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.gui.runs.timeline_model import COLUMNS, OUTCOME_COLUMN, OutcomeRole
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_screenshots import save
from tests.support.runs_tab import RunsShown
from tests.support.sample_runs import T0, mixed_run


def runs_window(make_window):
    window = make_window(wait_tools=False)
    window.resize(1400, 860)
    window.main.setSizes([220, 1180])
    window.tabs.setCurrentWidget(window.runs_tab)
    QApplication.processEvents()  # the resize reaches the tab
    assert window.runs_tab.lower.orientation() == Qt.Orientation.Horizontal  # wide: the detail beside
    return window


def test_screenshot_mixed_outcomes_and_the_cancelled_step(qtbot, make_window, runs_tab_showing) -> None:
    with RunStore.open(resolve_db_path()) as store:
        older = store.start_run("tools/call echo", "live", "http://127.0.0.1:8765/mcp")
        store.finish_run(older, "ok")
        run_id = mixed_run(store, "scenario user-cancels <img src=x>")
    shown = runs_tab_showing(run_id, window=runs_window(make_window))
    window, tab = shown.window, shown.tab
    cancelled = next(row for row in range(tab.timeline.rowCount())
                     if tab.timeline.index(row, OUTCOME_COLUMN).data(OutcomeRole) == "cancelled")
    tab.select_step(cancelled)
    assert tab.detail.remote_effect.isVisibleTo(tab) and not tab.detail.bar.isHidden()
    assert "hang" in tab.detail.heading.text()
    path = save(window, "runs-mixed-cancelled", grey=True)
    assert QImage(str(path)).width() >= 1400


TRACE = "5b8efff798038103d269b633813fc60c"
OTLP = {"resourceSpans": [{"resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "agent"}}]},
    "scopeSpans": [{"scope": {"name": "someone-elses-agent"}, "spans": [
        {"traceId": TRACE, "spanId": "eee19b7ec3c1b174", "name": "invoke_agent",
         "kind": 1, "startTimeUnixNano": "1764580443000000000", "endTimeUnixNano": "1764580449000000000",
         "attributes": [{"key": "gen_ai.operation.name", "value": {"stringValue": "invoke_agent"}}]},
        {"traceId": TRACE, "spanId": "eee19b7ec3c1b175", "parentSpanId": "eee19b7ec3c1b174",
         "name": "chat gpt-4o", "kind": 3, "startTimeUnixNano": "1764580443100000000",
         "endTimeUnixNano": "1764580443900000000",
         "attributes": [{"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
                        {"key": "gen_ai.request.model", "value": {"stringValue": "gpt-4o"}}]},
        {"traceId": TRACE, "spanId": "eee19b7ec3c1b176", "parentSpanId": "eee19b7ec3c1b174",
         "name": "execute_tool get_weather", "kind": 1, "startTimeUnixNano": "1764580444000000000",
         "endTimeUnixNano": "1764580444600000000",
         "attributes": [{"key": "gen_ai.tool.name", "value": {"stringValue": "get_weather"}},
                        {"key": "gen_ai.tool.call.result", "value": {"stringValue": "12 °C, rain"}}]},
        {"traceId": TRACE, "spanId": "eee19b7ec3c1b177", "parentSpanId": "eee19b7ec3c1b174",
         "name": "execute_tool book_table", "kind": 1, "startTimeUnixNano": "1764580444700000000",
         "endTimeUnixNano": "1764580446000000000", "status": {"code": 2, "message": "the restaurant said no"},
         "attributes": [{"key": "gen_ai.tool.name", "value": {"stringValue": "book_table"}}]},
        {"traceId": TRACE, "spanId": "eee19b7ec3c1b178", "parentSpanId": "eee19b7ec3c1b174",
         "name": "execute_tool send_sms", "kind": 1, "startTimeUnixNano": "1764580446100000000",
         "endTimeUnixNano": "1764580448000000000",
         "attributes": [{"key": "gen_ai.tool.name", "value": {"stringValue": "send_sms"}},
                        {"key": "error.type", "value": {"stringValue": "cancelled"}}]},
        {"traceId": TRACE, "spanId": "eee19b7ec3c1b179", "parentSpanId": "eee19b7ec3c1b174",
         "name": "execute_tool slow_lookup", "kind": 1, "startTimeUnixNano": "1764580448200000000",
         "attributes": [{"key": "gen_ai.tool.name", "value": {"stringValue": "slow_lookup"}}]}]}]}]}


def write_otlp(path: Path) -> Path:
    path.write_text(json.dumps(OTLP), encoding="utf-8")
    return path


def test_screenshot_an_imported_otlp_trace(qtbot, make_window, tmp_path) -> None:
    window = runs_window(make_window)
    tab = window.runs_tab
    with qtbot.waitSignal(tab.transfer_ended, timeout=20000) as ended:
        window.open_trace(write_otlp(tmp_path / "someone-elses-agent.otlp.json"))
    assert ended.args[1] == "ok", ended.args
    run = tab.current_run()
    assert run is not None and run.source == "imported"
    outcomes = [tab.timeline.index(row, OUTCOME_COLUMN).data(OutcomeRole) for row in range(tab.timeline.rowCount())]
    assert {"ok", "failed", "cancelled", ""} <= set(outcomes)
    durations = [tab.timeline.index(row, COLUMNS.index("duration")).data() for row in range(tab.timeline.rowCount())]
    assert "unfinished" in durations
    tab.select_step(outcomes.index("cancelled"))
    # The Server tab does not claim what another tool's trace cannot know.
    assert tab.detail.server_side.toPlainText().startswith("The trace this step came from does not record")
    assert save(window, "runs-imported-otlp").exists()


@contextmanager
def mixed_run_step_four(qtbot, make_window, language: str) -> Iterator:
    """The window in ``language`` on its Runs tab, a mixed run's cancelled step (its fifth) selected;
    English again afterwards, whatever the test found."""
    with RunStore.open(resolve_db_path()) as store:
        run_id = mixed_run(store)
    window = make_window(wait_tools=False)
    switch_language(language)
    try:
        window.tabs.setCurrentWidget(window.runs_tab)
        RunsShown(qtbot, window).select(run_id)
        window.runs_tab.select_step(4)
        yield window
    finally:
        switch_language("en")


@pytest.mark.parametrize("language", ["en", "de"])
def test_screenshot_the_runs_tab_at_the_default_size(qtbot, make_window, language) -> None:
    with mixed_run_step_four(qtbot, make_window, language) as window:
        tab = window.runs_tab
        QApplication.processEvents()
        assert save(window, f"runs-default-size-{language}").exists()
        details = tab.timeline_view.columnWidth(COLUMNS.index("details"))
        assert tab.lower.orientation() == Qt.Orientation.Horizontal  # the detail beside the timeline
        # (German's wider buttons and words leave the details about 100 px: noted, not yet solved.)
        assert details >= (150 if language == "en" else 90), f"the details column is {details} px wide"
        # The step search and the runs' search show their placeholders whole (the frame, margins and clear
        # button take about 30 px); the runs' was cut in German: "Titel, Server, Dateien, Notizen durchsuch…".
        for find in (tab.timeline_pane.find_edit, tab.run_list.search):
            assert find.fontMetrics().horizontalAdvance(find.placeholderText()) + 30 <= find.width(), find.width()
        # The step's detail shows every tab's whole name: no scroll arrows, nothing cut at its edge.
        bar = tab.detail.tabs.tabBar()
        for index in shown_tabs(bar):
            name = bar.tabText(index)
            assert bar.tabRect(index).right() < tab.detail.tabs.width(), name
            assert bar.tabRect(index).width() >= bar.fontMetrics().horizontalAdvance(name) + 8, name


def shown_tabs(bar) -> list[int]:
    return [index for index in range(bar.count()) if bar.isTabVisible(index)]


@pytest.mark.parametrize("language", ["en", "de"])
def test_screenshot_seven_tabs_in_the_narrowest_step_detail(qtbot, make_window, language) -> None:
    """A step with every tab of ours (a command server's, with structured content) beside the timeline
    at the detail's least width: each tab shows (none behind scroll arrows), every name whole (the
    least width follows the names; it was their first two letters, "Re…", "Argum…")."""
    with mixed_run_step_four(qtbot, make_window, language) as window:
        tab = window.runs_tab
        detail = tab.detail
        for page in (detail.structured, detail.stderr):
            detail.tabs.setTabVisible(detail.tabs.indexOf(page), True)
        least = detail.minimumSizeHint().width()
        tab.lower.setSizes([sum(tab.lower.sizes()) - least, least])
        QApplication.processEvents()
        bar = detail.tabs.tabBar()
        assert len(shown_tabs(bar)) == 7 and detail.width() == least
        assert all(bar.tabRect(index).right() < detail.tabs.width() for index in shown_tabs(bar))
        assert not [bar.tabText(index) for index in shown_tabs(bar) if bar.is_cut(index)]
        save(window, f"runs-seven-tabs-narrow-{language}")


@pytest.mark.parametrize(("size", "language"), [((1200, 760), "en"), ((1200, 760), "de"), ((1440, 900), "en"),
                                                ((1440, 900), "de")])
def test_screenshot_thirty_runs(qtbot, runs_tab_showing, size, language) -> None:
    """Thirty stored runs, servers by name, a run's cancelled step: at the default size and a larger one."""
    from tests.gui.test_runs_room import fully_visible_rows, thirty_runs

    with RunStore.open(resolve_db_path()) as store:
        thirty_runs(store)
        run_id = mixed_run(store, "tools/call hang @ Demo server", started_at=T0 + timedelta(hours=1))
    shown = runs_tab_showing(run_id, language=language, size=size)
    window, tab = shown.window, shown.tab
    tab.select_step(4)
    QApplication.processEvents()
    assert fully_visible_rows(tab.run_view) >= 10
    assert save(window, f"runs-thirty-{size[0]}x{size[1]}-{language}").exists()


@pytest.mark.parametrize("language", ["en", "de"])
def test_screenshot_a_filter_that_matches_nothing(qtbot, make_window, runs_tab_showing, language) -> None:
    with RunStore.open(resolve_db_path()) as store:
        run_id = mixed_run(store, "scenario user-cancels")
    shown = runs_tab_showing(run_id, language=language, window=runs_window(make_window))
    window, tab = shown.window, shown.tab
    tab.step_outcome_filter.setCurrentIndex(tab.step_outcome_filter.findData("failed"))
    tab.kind_filter.setCurrentIndex(tab.kind_filter.findData("llm"))
    note = tab.timeline_pane.empty_note
    assert tab.timeline.rowCount() == 0 and note.isVisibleTo(tab)
    assert ("6" in note.text()) and ("0" in tab.run_heading.text())
    # The note is whole: its lines fit in the room it was given.
    assert note.heightForWidth(note.width()) <= note.height()
    save(window, f"runs-filter-matches-nothing-{language}", grey=True)
