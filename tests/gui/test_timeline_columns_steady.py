"""Walking a run's steps with the keyboard keeps the timeline's columns and the detail's room where they are (issue
23). The Kind, Duration and Outcome columns were fitted to the words of the rows painted so far: in a committed
Pydantic AI trace at 1,280 x 800 px, the timed-out call further down widened the Outcome column 107 -> 129 px when
it scrolled into view (the Details column 216 -> 194); and the panes were arranged before the columns were fitted,
so the timeline took its room from the step's detail only at a later selection (718 -> 682 px at the first step,
682 -> 704 three steps after the timed-out one). A page's rows are said when it is read now, and the panes are
arranged again when the fitted columns want another room.

Real parts: the committed trace imported into the test's run database, the real font offscreen."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from inspector.store import RunStore, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_screenshots import save

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"


def _layout(tab) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The timeline's columns' widths (hidden ones 0) and the timeline's and the detail's widths."""
    header = tab.timeline_view.horizontalHeader()
    columns = tuple(0 if header.isSectionHidden(column) else header.sectionSize(column)
                    for column in range(header.count()))
    return columns, tuple(tab.lower.sizes())


@pytest.mark.parametrize("language", ["en", "de"])
def test_walking_a_traces_steps_down_keeps_the_columns_and_the_details_room(qtbot, runs_tab_showing,
                                                                            language) -> None:
    with RunStore.open(resolve_db_path()) as store:
        (run_id,) = import_trace(store, FIXTURES / "pydantic_ai.jsonl").run_ids
    shown = runs_tab_showing(run_id, language=language, size=(1280, 800))
    window, tab = shown.window, shown.tab
    view = tab.timeline_view
    qtbot.wait(50)
    QApplication.processEvents()
    first = _layout(tab)
    rows = tab.timeline.rowCount()
    assert view.viewport().height() < rows * view.rowHeight(0)  # the run's last rows are out of sight at first
    view.setFocus()
    tab.select_step(0)
    for _row in range(rows - 1):
        qtbot.keyClick(view, Qt.Key.Key_Down)
        view.viewport().repaint()
        qtbot.wait(5)
        QApplication.processEvents()
        assert _layout(tab) == first, (view.currentIndex().row(), _layout(tab), first)
    assert view.currentIndex().row() == rows - 1  # the keys reached the last step
    save(window, f"timeline-walked-down-{language}")
