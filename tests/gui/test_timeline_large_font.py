"""The Runs tab's timeline at 1,024 px with a 16 pt desktop font, in English and German (issue 23): its columns
wanted 863 px of a view 738 px wide (German), the details a sliver of 36 px, and the timeline scrolled sideways,
the waterfall half out of view. The details take the room the others leave now, never less than a floor (a title
cut short ends in "…", its tooltip whole); the Outcome column gives up the room of its whole words first ("timed out"
alone, never a word cut), then the waterfall and the round are hidden where the details need their room, and shown
again where there is room.

Real parts: a scenario run played by ``run-inspector scenario`` (its own demo server) into the test's database, the
window on it, measured with the real font offscreen."""

from __future__ import annotations

import html
import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.gui.runs.timeline_columns import DETAILS_FLOOR_CHARS
from inspector.gui.runs.timeline_model import COLUMNS, OUTCOME_COLUMN, WATERFALL_COLUMN
from inspector.gui.widgets.plain_text import TOOLTIP_LINE_CHARS
from inspector.store import resolve_db_path
from tests.gui.test_run_list_narrow_columns import painted
from tests.gui.test_screenshots import save
from tests.support.cli_process import cli_here

DETAILS, ROUND = COLUMNS.index("details"), COLUMNS.index("round")
#: (language, desktop font in points or None for the usual one, window width)
CASES = [(language, points, width) for points in (16, None) for width in (1024, 1280) for language in ("en", "de")]


@pytest.fixture
def timed_out_run() -> int:
    """A scenario run whose hanging call timed out (its budget 1 s): its Outcome cell says "failed: timed out"."""
    done = cli_here("--lang", "en", "scenario", "user-cancels", "--budget", "1", "--json", "--db",
                    str(resolve_db_path()))
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)["run_id"]


def timeline_shown(qtbot, window, run_id: int, width: int, height: int):
    """The Runs tab of ``window`` (``width`` by ``height``) showing run ``run_id``'s timeline, its columns fitted."""
    window.resize(width, height)
    qtbot.waitUntil(lambda: window.width() == width)
    tab = window.runs_tab
    tab.show_me()
    qtbot.waitUntil(lambda: tab.runs.row_of(run_id) is not None)
    assert tab.select_runs([run_id])
    qtbot.waitUntil(lambda: tab.timeline.rowCount() > 0)
    tab.timeline_view.viewport().repaint()  # the cells say their words; the columns are fitted after the paint
    qtbot.wait(50)
    QApplication.processEvents()
    return tab


@pytest.mark.parametrize(("language", "points", "width"), CASES, indirect=["points"],
                         ids=[f"{language}-{points or 'usual'}pt-{width}" for language, points, width in CASES])
def test_the_timeline_never_scrolls_sideways(qtbot, make_window, timed_out_run, language, points, width) -> None:
    window = make_window(wait_tools=False)
    switch_language(language)
    try:
        tab = timeline_shown(qtbot, window, timed_out_run, width, 768)
        view = tab.timeline_view
        header = view.horizontalHeader()
        assert header.length() <= view.viewport().width(), (header.length(), view.viewport().width())
        assert view.horizontalScrollBar().maximum() == 0
        floor = view.fontMetrics().averageCharWidth() * DETAILS_FLOOR_CHARS
        assert header.sectionSize(DETAILS) >= floor, header.sectionSize(DETAILS)
        for row in range(tab.timeline.rowCount()):
            details = tab.timeline.index(row, DETAILS)
            shown, whole = painted(view, row, DETAILS)
            # A title cut short says so and is whole in its tooltip (the cell's text may be cut already: long).
            tip = html.unescape(details.data(Qt.ItemDataRole.ToolTipRole)).replace("\xa0", " ")
            assert whole or details.data().removesuffix("…") in tip, (shown, details.data(), tip)
            _outcome, outcome_whole = painted(view, row, OUTCOME_COLUMN)
            assert outcome_whole, _outcome  # its words whole, or its kind of failure alone
        hidden = [column for column in (WATERFALL_COLUMN, ROUND) if view.isColumnHidden(column)]
        if points is None or width == 1280:
            assert hidden == []  # where there is room, the waterfall and the round show
        for column in hidden:  # hidden only where the details would have less than their floor beside it
            wanted = tab.timeline_pane.columns.details_room.wanted(column)
            assert header.sectionSize(DETAILS) - wanted < floor + 1, (column, wanted)
        save(window, f"timeline-{language}-{points or 'usual'}pt-{width}")
        # Wider, what was hidden shows again, and nothing scrolls sideways.
        window.resize(1500, 768)
        qtbot.waitUntil(lambda: all(not view.isColumnHidden(column) for column in (WATERFALL_COLUMN, ROUND)))
        assert header.length() <= view.viewport().width()
    finally:
        switch_language("en")


@pytest.mark.parametrize("points", [16], indirect=True)
def test_a_waterfall_widened_by_hand_stays_in_view(qtbot, make_window, timed_out_run, points) -> None:
    """Dragging the waterfall's edge to see its bars better (16 pt at 1,280 px, where it shows) hid it at once: the
    details had less than their floor beside it, and a hidden column has no edge to drag back. It stops where the
    details keep their floor, as wide as it may be there."""
    view = timeline_shown(qtbot, make_window(wait_tools=False), timed_out_run, 1280, 800).timeline_view
    header = view.horizontalHeader()
    assert not view.isColumnHidden(WATERFALL_COLUMN)
    before = header.sectionSize(WATERFALL_COLUMN)
    header.resizeSection(WATERFALL_COLUMN, before + 300)  # as the user's drag of its edge does
    QApplication.processEvents()
    assert not view.isColumnHidden(WATERFALL_COLUMN)
    assert header.sectionSize(WATERFALL_COLUMN) > before
    floor = view.fontMetrics().averageCharWidth() * DETAILS_FLOOR_CHARS
    assert header.sectionSize(DETAILS) >= floor
    assert header.length() <= view.viewport().width()
    header.resizeSection(WATERFALL_COLUMN, before)  # and back
    QApplication.processEvents()
    assert header.sectionSize(WATERFALL_COLUMN) == before and not view.isColumnHidden(WATERFALL_COLUMN)


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("points", [16], indirect=True)
def test_the_details_heading_says_what_gave_it_room(qtbot, make_window, timed_out_run, points, language) -> None:
    """Hidden for want of room (16 pt at 1,024 px), the waterfall left no trace on screen: nothing said it was there
    to be seen in a wider window. The Details heading's tip says what is hidden and how to see it; with room, it
    says nothing."""
    window = make_window(wait_tools=False)
    switch_language(language)
    try:
        view = timeline_shown(qtbot, window, timed_out_run, 1024, 768).timeline_view
        model = view.model()
        hidden = {column for column in (WATERFALL_COLUMN, ROUND) if view.isColumnHidden(column)}
        assert WATERFALL_COLUMN in hidden  # the case this is about
        tip = model.headerData(DETAILS, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
        waterfall = {"en": "waterfall", "de": "Wasserfall"}[language]
        round_column = {"en": "Round column", "de": "Spalte Runde"}[language]
        assert tip and waterfall in tip and (round_column in tip) == (ROUND in hidden), tip
        # A long tip wraps: on one line the German was 1,597 px wide, wider than the window.
        assert "pre-wrap" in tip or len(html.unescape(tip)) < TOOLTIP_LINE_CHARS + 40, tip
        window.resize(1500, 768)
        qtbot.waitUntil(lambda: not view.isColumnHidden(WATERFALL_COLUMN))
        assert model.headerData(DETAILS, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) is None
    finally:
        switch_language("en")
