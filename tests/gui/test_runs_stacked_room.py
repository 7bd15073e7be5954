"""A window 1,024 by 768 pixels (the tab too narrow for the step detail beside the timeline): the run
list, the timeline and the step detail stand one above the other and share the height, so a support
engineer who opened a customer's trace sees its steps, not ten rows of an almost empty run list."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from tests.gui.test_runs_room import fully_visible_rows
from tests.gui.test_runs_span_detail import imported_agent_run


@pytest.mark.parametrize("language", ["en", "de"])
def test_stacked_panes_show_the_steps_of_an_opened_trace(qtbot, runs_tab_showing, language: str) -> None:
    run_id = imported_agent_run("traceloop.jsonl")
    # The language before the window is made, as a user's language is.
    shown = runs_tab_showing(run_id, language=language, language_first=True, size=(1024, 768))
    window, tab = shown.window, shown.tab
    tab.select_step(3)
    QApplication.processEvents()
    assert tab.lower.orientation() == Qt.Orientation.Vertical
    # The seven steps the run shows (its plumbing hidden): at least five in view at once, not two.
    assert tab.timeline.rowCount() == 7
    assert fully_visible_rows(tab.timeline_view) >= 5
    # The list still shows a few runs, and the detail keeps at least the room it needs.
    assert fully_visible_rows(tab.run_view) >= 1 and tab.run_view.viewport().height() >= 3 * \
        tab.run_view.verticalHeader().defaultSectionSize()
    assert tab.detail.height() >= tab.detail.minimumSizeHint().height()
    # Side by side (a wider window), the list keeps its ten rows.
    window.resize(1600, 900)
    qtbot.waitUntil(lambda: tab.lower.orientation() == Qt.Orientation.Horizontal)
    QApplication.processEvents()
    assert tab.split.sizes()[0] == tab.run_list.height_for_rows()


def _whole_rows(tree) -> int:
    """The items of ``tree`` shown whole (top to bottom, opened ones' children too)."""
    viewport, item, count = tree.viewport().rect(), tree.topLevelItem(0), 0
    while item is not None:
        count += viewport.contains(tree.visualItemRect(item), proper=False)
        item = tree.itemBelow(item)
    return count


@pytest.mark.parametrize("language", ["en", "de"])
def test_stacked_the_wire_tab_shows_the_legs_and_what_they_held(qtbot, make_window, demo_server,
                                                               language: str) -> None:
    """A call made here, its step's Wire tab at 1,024 by 768 pixels: the legs with their requests and
    answers several rows deep beside the selected part's text (they had a row and a half each), and
    the timeline above still five steps high."""
    from tests.gui.test_screenshots import finished, save

    switch_language(language)
    try:
        # The handshake era: the call's step has three legs, each with its request and answer.
        window = make_window((demo_server.url, "Demo server"), era="handshake")
        window.resize(1024, 768)
        assert window.workbench.tools.select_tool("echo")
        window.workbench.arguments.set_arguments({"text": "hello"})
        outcome = finished(qtbot, window.workbench.run_current_tool())
        assert outcome.status == "ok" and outcome.run_id is not None
        window.tabs.setCurrentWidget(window.runs_tab)
        tab = window.runs_tab
        qtbot.waitUntil(lambda: tab.runs.row_of(outcome.run_id) is not None)
        assert tab.select_runs([outcome.run_id])
        tab.select_step(0)
        detail = tab.detail
        detail.tabs.setCurrentWidget(detail.exchanges)
        wire = detail.exchanges
        wire.tree.setCurrentItem(wire.tree.topLevelItem(wire.tree.topLevelItemCount() - 1).child(0))
        QApplication.processEvents()
        assert tab.lower.orientation() == Qt.Orientation.Vertical
        assert wire.tree.topLevelItemCount() >= 3 and _whole_rows(wire.tree) >= 4, _whole_rows(wire.tree)
        # The request's text beside them, several lines of it (under a sideways scroll bar: it is not wrapped).
        lines = wire.text.viewport().height() // wire.text.fontMetrics().lineSpacing()
        assert lines >= 3 and wire.text.toPlainText().startswith("POST "), lines
        # Five steps of a longer run would show above it (its heading, filters and column heads too).
        row = tab.timeline_view.verticalHeader().defaultSectionSize()
        assert tab.timeline_view.viewport().height() >= 5 * row
        save(window, f"runs-stacked-wire-{language}")
    finally:
        switch_language("en")
