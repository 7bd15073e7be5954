"""The run list's title column in narrow and wide windows: it takes the room the other columns leave,
the duration's and the server's columns give up room first (down to the durations listed and a usual server's
name), and below the title's floor the list scrolls sideways."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QHeaderView, QStyleOptionViewItem

from inspector.gui.runs.run_list import RunListPane
from inspector.gui.runs.run_list_columns import TITLE_FLOOR_PX, TITLE_KEPT_PX, server_floor
from inspector.gui.runs.runs_model import COLUMNS
from inspector.store import RunStore

TITLE, SERVER, DURATION = COLUMNS.index("title"), COLUMNS.index("server"), COLUMNS.index("duration")


@pytest.fixture
def pane(qtbot, tmp_path: Path):
    store = RunStore.open(tmp_path / "runs.db")
    run = store.start_run("invoke_agent support-agent: a title long enough to need its room", "live",
                          "weather-mcp-server-with-a-long-name")
    store.finish_run(run, "ok")
    yield list_alone(qtbot, store)
    store.close()


def list_alone(qtbot, store: RunStore) -> RunListPane:
    """The run list of ``store``'s runs, wide: every column at its fitted width."""
    pane = RunListPane(store)
    qtbot.addWidget(pane)
    pane.reload()
    # The list alone, so that it can be made narrower than the filters above it allow the pane.
    pane.layout().removeWidget(pane.view)
    pane.view.setParent(None)
    qtbot.addWidget(pane.view)
    pane.view.resize(1600, 300)
    pane.view.show()
    qtbot.waitExposed(pane.view)
    return pane


def widths(pane: RunListPane) -> list[int]:
    header = pane.view.horizontalHeader()
    return [header.sectionSize(column) for column in range(header.count())]


def others(pane: RunListPane, *left_out: int) -> int:
    header = pane.view.horizontalHeader()
    return sum(header.sectionSize(column) for column in range(header.count())
               if column not in left_out and not header.isSectionHidden(column))


def resize_view_to(qtbot, pane: RunListPane, viewport_width: int) -> None:
    """Resize the pane so that the list's viewport is ``viewport_width`` pixels wide."""
    view = pane.view
    view.resize(view.width() + viewport_width - view.viewport().width(), 300)
    qtbot.waitUntil(lambda: pane.view.viewport().width() == viewport_width, timeout=5000)


def test_a_wide_list_gives_the_title_all_the_room_left_and_does_not_scroll(qtbot, pane) -> None:
    fitted_server = widths(pane)[SERVER]
    resize_view_to(qtbot, pane, others(pane, TITLE) + 400)
    assert widths(pane)[TITLE] == 400
    assert widths(pane)[SERVER] == fitted_server
    assert pane.view.horizontalScrollBar().maximum() == 0


def test_a_narrow_list_takes_room_from_the_duration_and_the_server_first_then_scrolls_sideways(qtbot, pane) -> None:
    fitted_server, fitted_duration = widths(pane)[SERVER], widths(pane)[DURATION]
    rest = others(pane, TITLE, SERVER, DURATION)
    # Far narrower: the duration gives up the room it kept for an hour-long run (none listed took one), the
    # server stops at its floor (a usual name whole), the title at its own, and the list scrolls.
    resize_view_to(qtbot, pane, 300)
    listed = widths(pane)[DURATION]
    assert listed < fitted_duration
    assert widths(pane)[TITLE] == TITLE_FLOOR_PX
    assert widths(pane)[SERVER] == server_floor(pane.view)
    qtbot.waitUntil(lambda: pane.view.horizontalScrollBar().maximum() > 0, timeout=5000)
    # Room for the title's floor only if the server gives up 20 px after the duration's room: it gives up all it
    # can spare (a usual title wants more than the floor: at 1,024 px in German the title had its 120 px, cut to
    # "invoke_agent sup…", beside a server column wider than its name), and nothing scrolls.
    resize_view_to(qtbot, pane, rest + listed + fitted_server - 20 + TITLE_FLOOR_PX)
    assert widths(pane)[DURATION] == listed
    assert widths(pane)[SERVER] == server_floor(pane.view)
    assert widths(pane)[TITLE] == TITLE_FLOOR_PX + fitted_server - 20 - server_floor(pane.view) > TITLE_FLOOR_PX
    assert pane.view.horizontalScrollBar().maximum() == 0
    # With room for a usual title, the server keeps its width.
    resize_view_to(qtbot, pane, rest + listed + fitted_server + TITLE_KEPT_PX)
    assert widths(pane)[SERVER] == fitted_server and widths(pane)[TITLE] == TITLE_KEPT_PX
    # Wide again: the server and the duration have their widths back, the title the rest.
    resize_view_to(qtbot, pane, rest + fitted_duration + fitted_server + 500)
    assert widths(pane)[SERVER] == fitted_server
    assert widths(pane)[DURATION] == fitted_duration
    assert widths(pane)[TITLE] == 500


def test_a_width_the_user_gives_the_server_is_kept_once_there_is_room(qtbot, pane) -> None:
    rest = others(pane, TITLE, SERVER)
    resize_view_to(qtbot, pane, rest + 220 + 400)
    pane.view.horizontalHeader().resizeSection(SERVER, 220)  # as a drag of its edge does
    assert widths(pane)[TITLE] == 400
    resize_view_to(qtbot, pane, 300)
    assert widths(pane)[SERVER] == server_floor(pane.view)
    resize_view_to(qtbot, pane, rest + 220 + 600)
    assert widths(pane)[SERVER] == 220
    assert widths(pane)[TITLE] == 600


def test_the_title_column_is_not_left_to_stretch_which_would_squeeze_it(pane) -> None:
    header = pane.view.horizontalHeader()
    assert header.sectionResizeMode(TITLE) == QHeaderView.ResizeMode.Interactive
    # A new fit of the columns (a language switch) leaves the title to the room it is given.
    before = widths(pane)[TITLE]
    pane.fit_columns()
    assert widths(pane)[TITLE] == before


def test_a_title_cut_short_keeps_both_its_ends_and_says_itself_whole_in_its_tooltip(qtbot, pane) -> None:
    """Every run of one agent's operation begins "invoke_agent …": cut at its end, the titles read alike."""
    resize_view_to(qtbot, pane, 300)
    view, index = pane.view, pane.model.index(0, TITLE)
    option = QStyleOptionViewItem()
    view.itemDelegateForColumn(TITLE).initStyleOption(option, index)
    assert option.textElideMode == Qt.TextElideMode.ElideMiddle
    title = index.data(Qt.ItemDataRole.DisplayRole)
    assert title.startswith("invoke_agent") and title in index.data(Qt.ItemDataRole.ToolTipRole)
    shown = QFontMetrics(option.font).elidedText(title, Qt.TextElideMode.ElideMiddle, widths(pane)[TITLE] - 8)
    assert shown.startswith("invoke_") and shown.endswith("room") and "…" in shown
