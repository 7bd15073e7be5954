"""A proxied run's title cut short in the run list keeps the tool it called (after small69): every such title ends
in the proxy's mark, "tools/call get_weather · proxy", and cut in its middle at the title's floor (120 px) each read
"tools/ca… · proxy", the part that tells them apart gone (cut at its end before, they read "tools/call get_w…" and
"tools/call search…"). Where the title does not fit, the mark goes first (the tooltip says it whole).

Real parts: the run list on a real run database, offscreen, the real font and style."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem

from inspector.gui.runs.run_list import RunListPane
from inspector.gui.runs.run_list_columns import TITLE_FLOOR_PX
from inspector.gui.runs.runs_model import COLUMNS
from inspector.store import RunStore
from tests.gui.test_run_list_room import list_alone, resize_view_to, widths

TITLE = COLUMNS.index("title")
PROXIED = ("tools/call get_weather · proxy", "tools/call search_documents · proxy", "tools/call search_issues · proxy")


@pytest.fixture
def pane(qtbot, tmp_path: Path):
    store = RunStore.open(tmp_path / "runs.db")
    for title in PROXIED:
        store.finish_run(store.start_run(title, "live", "http://127.0.0.1:8931/mcp"), "ok")
    yield list_alone(qtbot, store)
    store.close()


def shown_title(pane: RunListPane, row: int) -> str:
    """What the title cell of ``row`` paints: its text as the delegate gives it, elided as the style elides it in
    the cell's text rectangle."""
    view = pane.view
    index = pane.model.index(row, TITLE)
    option = QStyleOptionViewItem()
    option.initFrom(view.viewport())
    option.rect = view.visualRect(index)
    view.itemDelegateForColumn(TITLE).initStyleOption(option, index)
    style = view.style()
    room = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, view).width() - 2 * (
        style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1)
    return QFontMetrics(option.font).elidedText(option.text, option.textElideMode, room)


def test_proxied_runs_titles_cut_short_keep_the_tool_that_tells_them_apart(qtbot, pane) -> None:
    wide = [shown_title(pane, row) for row in range(len(PROXIED))]
    assert sorted(wide) == sorted(PROXIED)  # whole where they fit, the mark with them
    resize_view_to(qtbot, pane, 300)
    assert widths(pane)[TITLE] == TITLE_FLOOR_PX
    shown = [shown_title(pane, row) for row in range(len(PROXIED))]
    assert len(set(shown)) == len(PROXIED), shown
    assert all(text.startswith("tools/") and "…" in text and "proxy" not in text for text in shown), shown
    for row in range(len(PROXIED)):  # the tooltip says the title whole, its mark too
        assert pane.model.index(row, TITLE).data(Qt.ItemDataRole.ToolTipRole).count("· proxy") == 1
