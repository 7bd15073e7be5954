"""A run shown in the Runs tab opens with its timeline's top row whole. Play → Show in Runs with a
failed step chosen (flaky-server, a 1024 × 768 window) centred that step, and scrolling by pixels left
the timeline 10 px down: its first row was cut in half at the top."""

from __future__ import annotations

import pytest

from tests.gui.test_play_audience import played_in, shown_in_runs
from tests.gui.test_screenshots import save


def whole(view, row: int) -> bool:
    top = view.rowViewportPosition(row)
    return top >= 0 and top + view.rowHeight(row) <= view.viewport().height()


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_run_shown_at_a_step_has_its_top_row_whole(qtbot, make_window, language) -> None:
    with played_in(qtbot, make_window, "flaky-server", language, (1024, 768)) as (window, _room, run):
        tab = shown_in_runs(qtbot, window, run)
        view = tab.timeline_view
        bar, height = view.verticalScrollBar(), view.rowHeight(0)
        chosen = view.currentIndex().row()
        assert chosen > 0 and bar.maximum() > 0  # a step below the first, in a timeline that scrolls
        qtbot.wait(50)  # the first paint, and the layout settled
        save(window, f"runs-top-row-whole-{language}")
        assert bar.value() % height == 0, (bar.value(), height)
        assert whole(view, chosen)
        # Any step chosen (Find, a span's parent, Play's choice) shows whole under a whole top row.
        for row in range(tab.timeline.rowCount()):
            tab.timeline_pane.select_step(row)
            assert bar.value() % height == 0 or bar.value() == bar.maximum(), (row, bar.value())
            assert whole(view, row), (row, bar.value())
        # The timeline made lower under a step at its bottom (a dock growing, the splitter dragged): the
        # step stays whole, and so does the top row (scrolled up to the step's bottom, the top row was cut).
        tab.timeline_pane.select_step(3)
        tall = view.height()
        for lower in range(3, 60, 7):
            view.resize(view.width(), tall)
            bar.setValue(4 * height - view.viewport().height())  # step 4's bottom at the timeline's
            before = view.viewport().height()
            view.resize(view.width(), tall - lower)  # as the pane's splitter or a dock does
            assert view.viewport().height() < before
            assert whole(view, 3) and bar.value() % height == 0, (lower, bar.value())
