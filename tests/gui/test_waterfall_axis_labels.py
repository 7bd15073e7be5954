"""The waterfall's time axis in front of an audience: a played run shown in the Runs tab has a scale,
never a lone "0". The last tick often stands at the column's very end; its label ("2 s", "50 ms") was
left out where it ran past the column, and an axis of two ticks read "0" alone (seen at 1280 and 1920
pixels, in English and German, after Play → Show in Runs)."""

from __future__ import annotations

import pytest

from inspector.gui.runs.time_axis import CELL_MARGIN_PX, axis_ticks
from inspector.gui.runs.timeline_model import WATERFALL_COLUMN
from tests.gui.test_play_audience import played_in, shown_in_runs


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_played_runs_time_axis_always_has_a_scale(qtbot, make_window, language) -> None:
    # user-cancels: about 2 s long, it cancels itself after 2 s.
    with played_in(qtbot, make_window, "user-cancels", language, (1280, 800)) as (window, _room, run):
        assert run.status == "cancelled", run.error
        tab = shown_in_runs(qtbot, window, run)
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
