"""The waterfall's time axis in front of an audience: a played run shown in the Runs tab has a scale,
never a lone "0". The last tick often stands at the column's very end; its label ("2 s", "50 ms") was
left out where it ran past the column, and an axis of two ticks read "0" alone (seen at 1280 and 1920
pixels, in English and German, after Play → Show in Runs)."""

from __future__ import annotations

import pytest

from inspector.gui.runs.time_axis import CELL_MARGIN_PX, axis_ticks, label_places
from inspector.gui.runs.timeline_model import WATERFALL_COLUMN
from tests.gui.test_play_audience import played_in, shown_in_runs
from tests.gui.test_screenshots import save


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


@pytest.mark.parametrize("char_px", [7, 11])  # the window's font, and at a zoom of 150 %
def test_every_span_gets_a_scale_in_the_waterfalls_least_width(char_px) -> None:
    """The axis of any run, in the waterfall's least width at that font (100 px at 100 %, grown with a
    zoom) or wider, names a time besides "0". A run of 0.049 s at 150 % read "0" alone: the step that
    fitted its labels (0.05 s) rounded past the span, and the one tick left was "0"."""
    from inspector.gui.runs.timeline_pane import TIMELINE_WIDTHS

    least = round(TIMELINE_WIDTHS[WATERFALL_COLUMN] * char_px / 7) - 2 * CELL_MARGIN_PX
    spans = [0.003 * 1.05 ** power for power in range(150)] + [0.049, 0.099, 0.199, 0.499, 0.999, 1.99, 4.99]
    lone = []
    for span in spans:
        for width in range(least, least + 161, 8):
            ticks = axis_ticks(span, width, lambda label: char_px * len(label))
            places = label_places(ticks, 0, width + CELL_MARGIN_PX, lambda label: char_px * len(label))
            if len(places) < 2:
                lone.append((round(span, 4), width, [label for _x, _s, label in ticks]))
    assert lone == []


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_axis_labels_keep_a_gap_wider_than_a_word_space(qtbot, make_window, language) -> None:
    """In a narrow column the end's label, placed left of its tick, stood 6 px after "0": hardly more
    than the space inside "0.2 s", the axis read "0 0.2 s" (flaky-server, a column of 80 px). A label
    without room for a clear gap (a digit and a space) is left out."""
    with played_in(qtbot, make_window, "flaky-server", language, (1280, 800)) as (window, _room, run):
        tab = shown_in_runs(qtbot, window, run)
        view = tab.timeline_view
        header = view.horizontalHeader()
        advance = header.fontMetrics().horizontalAdvance
        least = advance("0 ")
        assert least > 2 * advance(" ")
        for width in range(56, 241, 2):
            view.setColumnWidth(WATERFALL_COLUMN, width)
            left = header.sectionViewportPosition(WATERFALL_COLUMN) + CELL_MARGIN_PX
            axis = width - 2 * CELL_MARGIN_PX
            places = label_places(axis_ticks(header.span_s(), axis, advance), left, left + axis + CELL_MARGIN_PX,
                                  advance)
            assert [label for _left, label in places] == header.labels_shown()
            gaps = [after - (start + advance(label))
                    for (start, label), (after, _next) in zip(places, places[1:], strict=False)]
            assert all(gap >= least for gap in gaps), (width, places, gaps)
        view.setColumnWidth(WATERFALL_COLUMN, 100)  # its least width: still a scale, the gap kept
        assert len(header.labels_shown()) >= 2
        assert save(header, f"waterfall-axis-gap-{language}").exists()


def test_every_span_up_to_ten_minutes_gets_a_scale_at_the_headers_own_font(qtbot) -> None:
    """With the header's real font (not a font of equal widths) a run of 0.0155 s, 0.031 s or 0.078 s read
    "0" alone in the waterfall's least width (100 px): the axis' two ticks were "0" and "10 ms", and "10 ms"
    fitted neither right of its tick (past the column's end) nor left of it (against "0"). More ticks give
    a scale ("0", "5 ms"); the full suite's played run met such a span once."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QHeaderView

    header = QHeaderView(Qt.Orientation.Horizontal)
    qtbot.addWidget(header)
    advance = header.fontMetrics().horizontalAdvance
    lone = []
    for column in (100, 120, 160, 240):
        width = column - 2 * CELL_MARGIN_PX
        span = 0.001
        while span < 600:
            ticks = axis_ticks(span, width, advance)
            if len(label_places(ticks, 0, width + CELL_MARGIN_PX, advance)) < 2:
                lone.append((column, round(span, 4), [label for _x, _s, label in ticks]))
            span *= 1.003
    assert lone == []
