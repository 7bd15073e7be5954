"""The Server log in a small window: empty, it takes its state line and column heads, not a fixed
150 px of the Runs tab's height (at 1,024 by 700 pixels in German the timeline showed two steps); a
log in use grows a row per line up to its most, and a height the user gives it stays."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from inspector.gui.runs.timeline_model import OUTCOME_COLUMN, OutcomeRole
from inspector.gui.workbench.log_entry import LogEntry
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_runs_room import fully_visible_rows
from tests.support.runs_tab import RunsShown
from tests.support.sample_runs import mixed_run


def _settled(qtbot, window) -> None:
    qtbot.wait(50)  # the dock is fitted once a turn
    QApplication.processEvents()


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize(("height", "steps_seen"), [(768, 5), (700, 3)])
def test_an_empty_server_log_leaves_the_runs_tab_its_height(qtbot, make_window, demo_server, language: str,
                                                            height: int, steps_seen: int) -> None:
    with RunStore.open(resolve_db_path()) as store:
        run_id = mixed_run(store)
    window = make_window((demo_server.url, "Demo server"))
    window.settings.language = language
    window.apply_language()
    window.resize(1024, height)
    window.tabs.setCurrentWidget(window.runs_tab)
    dock = window.log_dock
    # Listening (its sentence wraps to two lines in German): the log says so, and it is empty.
    qtbot.waitUntil(lambda: "Demo server" in dock.view.state.text(), timeout=10000)
    tab = window.runs_tab
    RunsShown(qtbot, window).select(run_id)
    tab.select_step(next(row for row in range(tab.timeline.rowCount())
                         if tab.timeline.index(row, OUTCOME_COLUMN).data(OutcomeRole) == "cancelled"))
    _settled(qtbot, window)
    assert dock.isVisible() and dock.view.model.rowCount() == 0
    # Its state line whole and its column heads shown, nothing more (it took 150 px, 130 at 700).
    assert dock.view.state.height() >= dock.view.state.heightForWidth(dock.view.state.width())
    assert dock.view.table.horizontalHeader().isVisible()
    assert dock.height() <= 80, dock.height()
    # The height goes to the Runs tab: the timeline shows the run's steps (before: three at 768, two at 700).
    assert fully_visible_rows(tab.timeline_view) >= steps_seen
    assert tab.detail.height() >= tab.detail.minimumSizeHint().height()


def _lines(count: int) -> list[LogEntry]:
    return [LogEntry(datetime.now(timezone.utc), "info", "app", f"line {number}", "Demo server")
            for number in range(count)]


def _empty_log(qtbot, make_window):
    """A window of 1,024 by 768 pixels, its Server log dock, the dock's height empty and a row's height."""
    window = make_window(wait_tools=False)
    window.resize(1024, 768)
    dock = window.log_dock
    _settled(qtbot, window)
    return window, dock, dock.height(), dock.view.table.verticalHeader().defaultSectionSize()


def test_a_log_in_use_grows_a_row_a_line_up_to_its_most_and_keeps_the_users_height(qtbot, make_window) -> None:
    from inspector.gui.workbench.log_dock import FITTED_MOST_PX

    window, dock, empty, row = _empty_log(qtbot, make_window)
    dock.add_entries(_lines(2))
    _settled(qtbot, window)
    assert dock.height() == empty + 2 * row
    dock.add_entries(_lines(40))
    _settled(qtbot, window)
    assert dock.height() == FITTED_MOST_PX
    dock.view.clear()  # Clear: the empty log is low again
    _settled(qtbot, window)
    assert dock.height() == empty
    # The user makes it higher (the separator): from then on it keeps that height.
    window.resizeDocks([dock], [300], Qt.Orientation.Vertical)
    _settled(qtbot, window)
    dock.add_entries(_lines(1))
    _settled(qtbot, window)
    assert dock.sized_by_user and dock.height() == 300
    dock.view.clear()
    _settled(qtbot, window)
    assert dock.height() == 300


@pytest.mark.parametrize("laid_out", [0, 1, 2])
@pytest.mark.parametrize("count", [2, 40])
def test_the_first_lines_fit_the_log_whenever_qt_lays_the_window_out(qtbot, make_window, count: int,
                                                                    laid_out: int) -> None:
    """The first lines raise the dock's least height (its column heads to two lines: 70 to 110 px), which
    Qt lays out in two turns of posted events; on a busy machine they may come before the fit's turn. Qt
    giving the dock that height was taken for a height the user gave it: the log stayed at 110 px for good
    (40 lines: not 150), and cleared it did not go back to its column heads."""
    from inspector.gui.workbench.log_dock import FITTED_MOST_PX

    window, dock, empty, row = _empty_log(qtbot, make_window)
    dock.add_entries(_lines(count))
    for _turn in range(laid_out):  # the layout's turns (not the fit's: a timer) before the fit's
        QApplication.sendPostedEvents()
    _settled(qtbot, window)
    assert not dock.sized_by_user
    assert dock.height() == (empty + count * row if count == 2 else FITTED_MOST_PX)
    dock.view.clear()
    _settled(qtbot, window)
    assert not dock.sized_by_user and dock.height() == empty


def test_a_log_squeezed_by_a_low_window_grows_back_with_it(qtbot, make_window) -> None:
    """Qt squeezes the dock when the window gets low; that is not the user's height: the dock is fitted
    again to the window's new height and grows back when the window does (it stayed squeezed for good
    once the window's width changed too). A height the user gives it still stays, the window resized or not."""
    from inspector.gui.workbench.log_dock import FITTED_MOST_PX, FITTED_SHARE

    window = make_window(wait_tools=False)
    window.resize(1366, 768)
    dock = window.log_dock
    _settled(qtbot, window)
    dock.add_entries(_lines(40))
    _settled(qtbot, window)
    assert dock.height() == FITTED_MOST_PX
    for size in ((1366, 600), (1366, 500), (1300, 500)):  # lower, lowest (the dock squeezed), narrower
        window.resize(*size)
        _settled(qtbot, window)
        assert not dock.sized_by_user, size
        # Its share of the window, or its least: two of its lines (110 px at 500 px, not 100).
        assert dock.height() <= max(int(size[1] * FITTED_SHARE), dock.minimumSizeHint().height()), (size, dock.height())
    window.resize(1366, 768)
    _settled(qtbot, window)
    assert not dock.sized_by_user and dock.height() == FITTED_MOST_PX
    # The user's height, then a lower window and back: the user's height (as far as the window lets it).
    window.resizeDocks([dock], [200], Qt.Orientation.Vertical)
    _settled(qtbot, window)
    assert dock.sized_by_user and dock.height() == 200
    window.resize(1366, 700)
    _settled(qtbot, window)
    window.resize(1366, 768)
    _settled(qtbot, window)
    dock.add_entries(_lines(1))
    _settled(qtbot, window)
    assert dock.sized_by_user and dock.height() == 200




@pytest.mark.parametrize("size", [(900, 500), (860, 540)])
def test_a_squeezed_state_line_shows_whole_lines_and_the_whole_text_in_its_tip(qtbot, runs_tab_showing, size) -> None:
    """A window made smaller wraps the state line to a second line that the dock has no room for (the
    tabs above keep their least height): the line showed half of each of two lines, cut at the top and the
    bottom. Seen at 200 % scaling on a 1,920 by 1,080 screen (960 by 540 logical pixels, a maximized window
    a little less). Now it shows the lines that fit, the last one ending in "…", and the whole text as its tip."""
    with RunStore.open(resolve_db_path()) as store:
        run_id = mixed_run(store)
    shown = runs_tab_showing(run_id, size=(960, 600))  # a step shown: the tab's least height is high
    window, tab = shown.window, shown.tab
    tab.select_step(0)
    dock = window.log_dock
    dock.hide()  # as on a short screen; View → Server log shows it
    _settled(qtbot, window)
    dock.toggleViewAction().trigger()
    why = "Why it says so."
    sentence = ("Listening to Demo server. It sends log lines only once a level is chosen: "
                "File › Settings… (Server log level).")
    dock.view.show_state(sentence)
    getattr(dock.view.state, "set_note", dock.view.state.setToolTip)(why)  # as the dock says why (._status)
    _settled(qtbot, window)
    window.resize(*size)
    _settled(qtbot, window)
    state = dock.view.state
    assert state.heightForWidth(state.width()) > state.fontMetrics().height()  # it wraps to two lines
    if state.height() >= state.heightForWidth(state.width()):
        return  # room for all of it
    lines = getattr(state, "shown_lines", lambda: None)()
    need = state.heightForWidth(state.width())
    assert lines is not None, f"a {state.height()} px label shows half of a {need} px text"
    assert len(lines) * state.fontMetrics().lineSpacing() <= state.contentsRect().height()
    assert lines[-1].endswith("…")
    assert sentence in state.toolTip() and why in state.toolTip()
    assert state.text() == sentence  # for a screen reader and for copying
