"""The waterfall's time axis in front of an audience: a played run shown in the Runs tab has a scale,
never a lone "0". The last tick often stands at the column's very end; its label ("2 s", "50 ms") was
left out where it ran past the column, and an axis of two ticks read "0" alone (seen at 1280 and 1920
pixels, in English and German, after Play → Show in Runs)."""

from __future__ import annotations

import pytest

from inspector.gui.language import switch_language
from inspector.gui.runs.time_axis import CELL_MARGIN_PX, axis_ticks
from inspector.gui.runs.timeline_model import WATERFALL_COLUMN


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_played_runs_time_axis_always_has_a_scale(qtbot, make_window, language) -> None:
    window = make_window()
    window.resize(1280, 800)
    switch_language(language)
    try:
        room = window.play.room
        window.tabs.setCurrentWidget(room)
        assert room.choices.choose("user-cancels")  # about 2 s long: it cancels itself after 2 s
        run = room.play()
        assert run is not None
        qtbot.waitUntil(lambda: not run.running, timeout=30000)
        assert run.status == "cancelled", run.error
        room.runs_button.click()
        tab = window.runs_tab
        qtbot.waitUntil(lambda: window.tabs.currentWidget() is tab and tab.timeline.rowCount() == len(run.rows))
        view = tab.timeline_view
        header = view.horizontalHeader()
        advance = header.fontMetrics().horizontalAdvance
        two_ticks = []
        for width in range(56, 161, 4):  # the column as the window leaves it, or as a reader drags it
            view.setColumnWidth(WATERFALL_COLUMN, width)
            ticks = axis_ticks(header.span_s(), width - 2 * CELL_MARGIN_PX, advance)
            shown = header.labels_shown()
            assert shown[0] == "0" and len(shown) >= 2, (width, ticks, shown)
            if len(ticks) == 2:  # "0" and the end: the end's label stands left of its tick
                two_ticks.append(width)
                assert shown == [ticks[0][2], ticks[1][2]], (width, shown)
        assert two_ticks  # the case the axis read "0" alone in was met
    finally:
        switch_language("en")
