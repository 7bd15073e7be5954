"""The budget bar widget: animates at the display rate while running, stops when done, explains itself."""

from __future__ import annotations

import time

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


def test_hover_names_the_leg_and_the_description_speaks(qtbot) -> None:
    bar = BudgetBar()
    qtbot.addWidget(bar)
    bar.resize(700, 44)
    bar.show_legs([Leg("initialize", 20, 2000.0, 200, "ok"), Leg("tools/call", 18, 4000.0, None, "cancelled")],
                  20, "cancelled")
    bar.show()
    qtbot.waitExposed(bar)
    bar.repaint()
    geometry = bar.current_geometry()
    call = geometry.segments[1]
    tip = bar.tooltip_at(call.x + call.width / 2 + 1, 30)
    assert "tools/call" in tip and "cancelled" in tip and "grant 18 s" in tip
    assert "cancelled" in bar.accessibleDescription()
    assert bar.accessibleName()
    assert not bar.animating


def test_a_progress_message_with_markup_is_shown_as_its_characters(qtbot) -> None:
    from inspector.gui.plain_text import plain_tooltip
    from inspector.gui.widgets.budget_state import ProgressMark

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
