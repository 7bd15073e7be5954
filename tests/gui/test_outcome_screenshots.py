"""Screenshots of the outcome vocabulary in colour and in greyscale (tests/gui/screenshots/, git-ignored):
the operations list with each ending and the selected one's full bar, and the Runs tab's timeline of a
run of mixed outcomes, in English and German; the list on a dark palette too."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QPalette, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QApplication, QTableView

from inspector.gui.language import switch_language
from inspector.gui.runs.timeline_model import OUTCOME_COLUMN, OutcomeRole, WaterfallRole
from inspector.gui.runs.waterfall import WaterfallDelegate
from inspector.gui.widgets.outcomes import outcome_word
from inspector.gui.workbench.operation_task import OperationOutcome, OperationTask
from inspector.gui.workbench.operations_list import OperationsList
from inspector.mcp import ServerEndpoint
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_runs_screenshots import runs_window
from tests.gui.test_screenshots import save
from tests.support.sample_runs import mixed_run

SERVER = ServerEndpoint("http://127.0.0.1:8765/mcp", name="Demo server")


def ended(number: int, tool: str, ending: str, spent: float) -> OperationTask:
    """A call to ``tool`` that ended ``ending`` (a tool error: ``failed`` with its legs ok) after the handshake."""
    task = OperationTask(number, "call", f"tools/call {tool}", SERVER, 20.0, tool=tool)
    state = task.state
    state.leg_started("initialize", 20, 0.0)
    state.leg_finished("initialize", 20, 0.04, "ok", 200)
    state.leg_started("notifications/initialized", 20, 0.04)
    state.leg_finished("notifications/initialized", 20, 0.01, "ok", 202)
    leg = {"timed_out": "failed", "tool_error": "ok"}.get(ending, ending)
    state.leg_started("tools/call", 20, 0.05)
    state.leg_finished("tools/call", 20, spent, leg, 200, error_kind="timed_out" if ending == "timed_out" else None)
    state.finish(0.05 + spent, {"tool_error": "failed"}.get(ending, ending),
                 "tool_error" if ending == "tool_error" else None)
    task.outcome = OperationOutcome(None, None)
    return task


def operations(qtbot, dark: bool = False) -> OperationsList:
    listed = OperationsList()
    qtbot.addWidget(listed)
    if dark:
        palette = QPalette(listed.palette())
        for role, colour in ((QPalette.ColorRole.Base, "#2A2A2A"), (QPalette.ColorRole.Text, "#F0F0F0"),
                             (QPalette.ColorRole.Window, "#353535"), (QPalette.ColorRole.WindowText, "#F0F0F0")):
            palette.setColor(role, QColor(colour))
        listed.setPalette(palette)
        listed.setAutoFillBackground(True)
    listed.resize(900, 320)
    tasks = [ended(1, "echo", "ok", 0.4), ended(2, "fail", "tool_error", 0.3),
             ended(3, "slow_task", "timed_out", 19.95), ended(4, "hang", "cancelled", 6.0), ended(5, "add", "ok", 2.5),
             ended(6, "flaky", "failed", 8.0)]
    for task in tasks:
        listed.add(task)
    listed.show()
    qtbot.waitExposed(listed)
    listed.select(tasks[2])  # the time-out's full bar below the list
    qtbot.waitUntil(lambda: listed.detail.isVisible())
    return listed


@pytest.mark.parametrize("language", ["en", "de"])
def test_screenshot_each_ending_in_the_operations_list(qtbot, language) -> None:
    switch_language(language)
    try:
        listed = operations(qtbot)
        QApplication.processEvents()
        assert listed.model.rowCount() == 6
        assert save(listed, f"outcomes-operations-{language}", grey=True).exists()
    finally:
        switch_language("en")


def test_screenshot_the_operations_list_on_a_dark_palette(qtbot) -> None:
    listed = operations(qtbot, dark=True)
    assert listed.view.palette().color(QPalette.ColorRole.Base) == QColor("#2A2A2A")
    assert save(listed, "outcomes-operations-dark", grey=True).exists()


@pytest.mark.parametrize("language", ["en", "de"])
def test_screenshot_the_runs_tabs_outcomes(qtbot, make_window, runs_tab_showing, language) -> None:
    with RunStore.open(resolve_db_path()) as store:
        run_id = mixed_run(store, "mixed outcomes")
    shown = runs_tab_showing(run_id, language=language, window=runs_window(make_window))
    window, tab = shown.window, shown.tab
    failed = next(row for row in range(tab.timeline.rowCount())
                  if tab.timeline.index(row, OUTCOME_COLUMN).data(OutcomeRole) == "failed")
    tab.select_step(failed)
    QApplication.processEvents()
    assert save(window, f"outcomes-runs-{language}", grey=True).exists()


def test_screenshot_waterfall_bars_of_each_outcome(qtbot) -> None:
    """ok, failed, cancelled, no outcome and unfinished bars, wide enough to see their fill and edge."""
    rows = (("ok", 0.0, 2.0), ("failed", 2.2, 1.5), ("ok", 3.9, 1.0), ("cancelled", 5.0, 3.0), ("", 8.2, 0.6),
            ("failed", 9.0, 0.3), ("", 9.5, None))
    model = QStandardItemModel(len(rows), 2)
    for row, (outcome, offset, duration) in enumerate(rows):
        model.setItem(row, 0, QStandardItem(outcome_word(outcome) if outcome else "—"))
        bar = QStandardItem()
        bar.setData((offset, duration, outcome, 10.0), WaterfallRole)
        model.setItem(row, 1, bar)
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    view.setItemDelegateForColumn(1, WaterfallDelegate(view))
    view.setColumnWidth(1, 420)
    view.resize(560, 200)
    view.show()
    qtbot.waitExposed(view)
    assert save(view, "outcomes-waterfall", grey=True).exists()
