"""The budget bar widget: animates at the display rate while running, stops when done, explains itself."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import QEvent, QPoint
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

from inspector.gui.widgets.budget_bar import BudgetBar
from inspector.gui.widgets.budget_state import BarState
from inspector.runs import Leg


def test_a_running_bar_repaints_at_least_20_times_a_second(qtbot) -> None:
    bar = BudgetBar()
    qtbot.addWidget(bar)
    bar.resize(700, 44)
    bar.show()
    qtbot.waitExposed(bar)
    state = BarState(20)
    state.leg_started("tools/call", 20, 0.0)
    bar.show_live(state, time.monotonic())
    assert bar.animating
    start_frames, began = bar.frames, time.monotonic()
    qtbot.waitUntil(lambda: time.monotonic() - began >= 0.5, timeout=2000)
    rate = (bar.frames - start_frames) / (time.monotonic() - began)
    assert rate >= 20, f"{rate:.1f} repaints a second"
    state.leg_finished("tools/call", 20, 0.5, "ok", 200)
    state.finish(0.5, "ok")
    bar.refresh()
    assert not bar.animating


def _cancelled_call_bar(qtbot) -> BudgetBar:
    """A bar shown with a handshake leg and a cancelled tools/call leg."""
    bar = BudgetBar()
    qtbot.addWidget(bar)
    bar.resize(700, 44)
    bar.show_legs([Leg("initialize", 20, 2000.0, 200, "ok"), Leg("tools/call", 18, 4000.0, None, "cancelled")],
                  20, "cancelled")
    bar.show()
    qtbot.waitExposed(bar)
    return bar


def test_hover_names_the_leg_and_the_description_speaks(qtbot) -> None:
    bar = _cancelled_call_bar(qtbot)
    bar.repaint()
    geometry = bar.current_geometry()
    call = geometry.segments[1]
    tip = bar.tooltip_at(call.x + call.width / 2 + 1, 30)
    assert "tools/call" in tip and "cancelled" in tip and "grant 18 s" in tip
    assert "cancelled" in bar.accessibleDescription()
    assert bar.accessibleName()
    assert not bar.animating


@pytest.mark.qt_log_ignore("This plugin does not support raise")  # the tooltip, offscreen
def test_a_hover_event_shows_the_legs_tooltip(qtbot) -> None:
    """The real hover path (a help event, as Qt sends it): before, the bar asked the event for a
    position() a help event does not have, and no tooltip ever showed."""
    bar = _cancelled_call_bar(qtbot)
    call = bar.current_geometry().segments[1]
    at = QPoint(int(bar._track_rect().left() + call.x + call.width / 2), int(bar._track_rect().center().y()))
    QApplication.sendEvent(bar, QHelpEvent(QEvent.Type.ToolTip, at, bar.mapToGlobal(at)))
    assert "tools/call: cancelled" in QToolTip.text() and "grant 18 s" in QToolTip.text()
    QToolTip.hideText()


def test_a_progress_message_with_markup_is_shown_as_its_characters(qtbot) -> None:
    from inspector.gui.widgets.budget_state import ProgressMark
    from inspector.gui.widgets.plain_text import plain_tooltip

    bar = BudgetBar()
    qtbot.addWidget(bar)
    bar.resize(700, 44)
    state = BarState(20)
    state.marks.append(ProgressMark(1.0, 1, 2, "<img src=x>"))
    state.finish(2.0, "ok")
    bar.show_live(state, None)
    tick = bar.current_geometry().ticks[0]
    raw = bar.tooltip_at(tick.x + 1, 5)
    assert "<img src=x>" in raw
    shown = plain_tooltip(raw)
    assert "&lt;img src=x&gt;" in shown and "<img" not in shown


def _painted(qtbot, legs: list[Leg], status: str):
    """The bar's pixels and geometry for stored legs, at a fixed size."""
    bar = BudgetBar()
    qtbot.addWidget(bar)
    bar.resize(700, 44)
    bar.show_legs(legs, 20, status)
    bar.show()
    qtbot.waitExposed(bar)
    image = bar.grab().toImage()
    return image, bar.current_geometry(), bar._track_rect()


def test_the_label_of_a_cancelled_leg_sits_on_solid_colour_not_on_the_hatching(qtbot) -> None:
    from inspector.gui.widgets.budget_bar_paint import CANCELLED

    legs = [Leg("initialize", 20, 2000.0, 200, "ok"), Leg("tools/call", 18, 8000.0, None, "cancelled")]
    image, geometry, track = _painted(qtbot, legs, "cancelled")
    call = geometry.segments[1]
    left = int(track.left() + call.x)
    row = int(track.top() + 2)  # above the glyphs: only the fill (or the hatching) is here
    # Where the label "tools/call" is drawn (its first 40 px), the row is solid blue...
    label_row = {image.pixelColor(x, row).name() for x in range(left + 1, left + 40)}
    assert label_row == {CANCELLED.name()}
    # ...and the hatching still marks the rest of the leg.
    rest = {image.pixelColor(x, row).name() for x in range(left + 90, int(left + call.width) - 20)}
    assert len(rest) > 1


def test_a_short_cancelled_leg_stays_hatched_rather_than_carry_a_cut_label(qtbot) -> None:
    """A call cancelled after 2 s of 20 (the user-cancels scenario, a hang cancelled in the Workbench): its leg
    is ~70 px wide. Its label took the solid colour under it, "tools/call" (or "tool…" a little narrower),
    and left ~12 px of hatching: solid blue, a grey like the failed orange's in print, read as failed."""
    from inspector.gui.widgets.budget_bar_paint import CANCELLED

    image, geometry, track = _painted(qtbot, [Leg("tools/call", 20, 2000.0, None, "cancelled")], "cancelled")
    call = geometry.segments[0]
    left, right = int(track.left() + call.x), int(track.left() + call.x + call.width)
    assert 60 <= right - left <= 80
    row = int(track.top() + 2)  # above the glyphs: only the fill (or the hatching) is here
    striped = [x for x in range(left + 1, right) if image.pixelColor(x, row).name() != CANCELLED.name()]
    # The hatching starts at the leg's start (its first stripe within a stripe's spacing), no label before it.
    assert striped and striped[0] - left <= 12, f"solid for {striped[0] - left if striped else right - left} px"


def test_a_short_failed_leg_carries_a_dark_cross_that_survives_greyscale(qtbot) -> None:
    legs = [Leg("initialize", 20, 40.0, 200, "ok"), Leg("tools/call", 20, 55.0, None, "failed")]
    image, geometry, track = _painted(qtbot, legs, "failed")
    failed = geometry.segments[1]
    left, right = int(track.left() + failed.x), int(track.left() + failed.x + failed.width)
    grey = [image.pixelColor(x, y).lightness() for x in range(left, right)
            for y in range(int(track.top()) + 2, int(track.bottom()) - 2)]
    assert right - left >= 10
    # The leg's orange is mid-grey; the cross is near black next to a white halo.
    assert min(grey) < 60 and max(grey) > 200


def _running_bar(qtbot, spent_s: float):
    """A bar 700 px wide following a tool call that has run ``spent_s`` of its 20 s grant (a fixed clock)."""
    bar = BudgetBar(clock=lambda: 100.0 + spent_s)
    qtbot.addWidget(bar)
    bar.resize(700, 44)
    state = BarState(20)
    state.leg_started("tools/call", 20, 0.0)
    bar.show_live(state, 100.0)
    bar.show()
    qtbot.waitExposed(bar)
    return bar


def test_the_running_leg_says_spent_and_grant_even_while_it_is_narrow(qtbot) -> None:
    # One second into 20: the leg is ~30 px wide, too narrow for its label; the label runs on over the band.
    bar = _running_bar(qtbot, 1.0)
    image = bar.grab().toImage()
    call = bar.current_geometry().segments[0]
    track = bar._track_rect()
    band_left = int(track.left() + call.band_x) + 4
    dark = [x for x in range(band_left, band_left + 100) for y in range(int(track.top()) + 4, int(track.bottom()) - 4)
            if image.pixelColor(x, y).lightness() < 90]
    assert dark, "no dark label glyphs over the grant band"
    assert "tools/call 1.0 s / grant 20 s" in bar.labels_shown


def test_the_running_bar_has_a_header_of_the_budget_spent_and_uses_the_whole_width(qtbot) -> None:
    bar = _running_bar(qtbot, 6.3)
    track = bar._track_rect()
    assert track.left() <= 2 and track.right() >= bar.width() - 2, "the track leaves room at its end"
    bar.set_title("tools/call hang")
    geometry = bar.current_geometry()
    assert geometry.spent_text == "6.3 s of 20 s spent"
    assert geometry.end_text == "13.7 s left"
    # The header sits above the deadline label and the track: its words are painted there.
    image = bar.grab().toImage()
    header_px = bar.fontMetrics().height()
    dark = {x for x in range(0, 300) for y in range(0, header_px) if image.pixelColor(x, y).lightness() < 90}
    assert len(dark) > 50
    assert header_px < track.top()


def test_the_ending_is_said_whole_while_the_title_gives_way(qtbot) -> None:
    """The selected operation's bar at 1024 px in German (about 475 px): the ending was cut at half
    the line, "✗ fehlgeschlagen: Zeit überschri…", while the title still took room beside the
    numbers. The ending now takes what the numbers leave; the title gives way first."""
    from inspector.gui.language import switch_language

    switch_language("de")
    try:
        bar = BudgetBar()
        qtbot.addWidget(bar)
        bar.resize(475, 44)
        bar.set_title("tools/call slow_task @ Demo server")
        bar.show_legs([Leg("tools/call", 4, 4000.0, None, "failed")], 4, "failed")  # its whole grant: timed out
        bar.show()
        qtbot.waitExposed(bar)
        bar.grab()  # paints: header_shown is what the paint showed
        left, end = bar.header_shown
        assert end == bar.current_geometry().end_text == "✗ fehlgeschlagen: Zeitüberschreitung"
        assert left.endswith("4,0 s von 4 s verbraucht")  # the numbers stay whole too
        # Wide enough, the title is whole as before.
        bar.resize(900, 44)
        bar.grab()
        assert bar.header_shown == ("tools/call slow_task @ Demo server — 4,0 s von 4 s verbraucht", end)
    finally:
        switch_language("en")


def test_a_leg_s_bytes_are_a_number_of_the_reader_s_language(qtbot) -> None:
    """The hover of a leg said "HTTP 200, 4970 Bytes empfangen" in German (and "4970 bytes" in
    English) beside durations formatted for the reader: the count is formatted too."""
    from inspector.gui.language import switch_language

    bar = BudgetBar()
    qtbot.addWidget(bar)
    bar.resize(700, 44)
    state = BarState(20)
    state.leg_started("tools/call", 20, 0.0)
    state.leg_finished("tools/call", 20, 1.0, "ok", 200, 4970)
    state.finish(1.0, "ok")
    bar.show_live(state, None)
    bar.show()
    qtbot.waitExposed(bar)
    call = bar.current_geometry().segments[0]
    assert "HTTP 200, 4,970 bytes received" in bar.tooltip_at(call.x + call.width / 2, 40)
    switch_language("de")
    try:
        assert "HTTP 200, 4.970 Bytes empfangen" in bar.tooltip_at(call.x + call.width / 2, 40)
    finally:
        switch_language("en")


def test_progress_marks_near_the_deadline_do_not_write_over_its_label(qtbot) -> None:
    """A tool reporting progress every 0.1 s until its grant ran out: the marks were painted through
    the deadline's label ("Frist 3 s" under a row of triangles). The label now sits on the window's
    colour over them: its pixels are those of the same bar without marks."""
    from PySide6.QtCore import QRect

    from inspector.gui.widgets.budget_state import ProgressMark

    def bar_with(marks: int):
        bar = BudgetBar()
        qtbot.addWidget(bar)
        bar.resize(475, 44)
        state = BarState(3)
        state.leg_started("tools/call", 3, 0.0)
        state.marks.extend(ProgressMark(0.1 * step, step, None, "working") for step in range(1, marks + 1))
        state.leg_finished("tools/call", 3, 3.0, "failed", 200, error_kind="timed_out")
        state.finish(3.0, "timed_out")
        bar.show_live(state, None)
        bar.show()
        qtbot.waitExposed(bar)
        return bar

    marked, plain = bar_with(29), bar_with(0)
    assert len(marked.current_geometry().ticks) > 20
    marked_image, plain_image = marked.grab().toImage(), plain.grab().toImage()
    label = marked._painter._deadline[3].toAlignedRect() & QRect(0, 0, marked.width(), marked.height())
    assert label.width() > 20
    assert marked_image.copy(label) == plain_image.copy(label), "marks drawn over the deadline's label"
