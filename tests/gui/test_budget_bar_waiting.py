"""The budget bar's own kind of segment for a wait on input between rounds (multi round-trip requests)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from inspector.gui.language import switch_language
from inspector.gui.widgets.budget_bar import BudgetBar
from inspector.gui.widgets.budget_state import BarState
from inspector.gui.widgets.mini_bar import spans
from inspector.runs import Leg

#: What the client records for a question asked in rounds (the stateless era), 20 s budget.
MRTR_LEGS = [Leg("server/discover", 20, 40.0, 200, "ok"), Leg("tools/call", 20, 60.0, 200, "ok"),
             Leg("input: elicitation/create", 20, 6000.0, None, "ok"),
             Leg("tools/call (round 2)", 14, 2500.0, 200, "ok")]


@pytest.fixture
def german() -> Iterator[None]:
    switch_language("de")
    yield
    switch_language("en")


def _bar(qtbot, legs=MRTR_LEGS, status="ok") -> BudgetBar:
    bar = BudgetBar()
    qtbot.addWidget(bar)
    bar.resize(700, 44)
    bar.show_legs(legs, 20, status)
    bar.show()
    qtbot.waitExposed(bar)
    bar.grab()  # paints: labels_shown is what the paint showed
    return bar


def test_a_wait_on_the_person_is_a_segment_of_its_own_kind_and_says_so(qtbot) -> None:
    bar = _bar(qtbot)
    segments = bar.current_geometry().segments
    assert [segment.kind for segment in segments] == ["ok", "ok", "waiting", "ok"]
    wait = segments[2]
    assert "waiting on you 6.0 s / grant 20 s" in bar.labels_shown
    tip = bar.tooltip_at(bar._track_rect().left() + wait.x + wait.width / 2, 30)
    assert "waiting on you" in tip and "elicitation/create" in tip and "counts against the budget" in tip
    assert "HTTP" not in tip  # nothing travelled while it waited
    assert "waiting on you for 6.0 s" in bar.accessibleDescription()
    # A later round reads as the call it is.
    assert segments[3].label == "tools/call (round 2) 2.5 s / grant 14 s"
    assert segments[3].tooltip.startswith("tools/call (round 2): ok")


def test_the_wait_reads_in_greyscale_pale_and_dotted_beside_solid_legs(qtbot) -> None:
    bar = _bar(qtbot)
    image = bar.grab().toImage()
    track = bar._track_rect()
    segments = bar.current_geometry().segments

    def lightness(index: int) -> list[int]:
        segment = segments[index]
        left = int(track.left() + segment.x) + 3
        # A stretch without label glyphs: the right part of the leg, above and below the text's middle.
        right = int(track.left() + segment.x + segment.width) - 3
        rows = [*range(int(track.top()) + 2, int(track.top()) + 6), *range(int(track.bottom()) - 6,
                                                                             int(track.bottom()) - 2)]
        return [image.pixelColor(x, y).lightness() for x in range(max(left, right - 40), right) for y in rows]

    wait, answer = lightness(2), lightness(3)
    assert len(set(answer)) == 1  # a solid leg: one grey
    assert len(set(wait)) > 1 and sum(wait) / len(wait) > max(answer) + 40  # paler, with a pattern


def test_a_running_wait_is_waiting_too_in_the_full_and_the_mini_bar() -> None:
    state = BarState(20)
    state.leg_started("tools/call", 20, 0.0)
    state.leg_finished("tools/call", 20, 0.1, "ok", 200)
    state.leg_started("input: elicitation/create", 19, 0.1)
    _, drawn = spans(state, 3.0, 300)
    assert [span.kind for span in drawn] == ["ok", "waiting"]
    assert drawn[1].band_width > 0  # its grant shows, as a running leg's does


def test_a_short_wait_shows_its_time_rather_than_a_broken_word(qtbot) -> None:
    legs = [Leg("tools/call", 20, 60.0, 200, "ok"), Leg("input: elicitation/create", 20, 1700.0, None, "ok"),
            Leg("tools/call (round 2)", 20, 60.0, 200, "ok")]
    bar = _bar(qtbot, legs)
    assert "1.7 s" in bar.labels_shown and not any(label.endswith("…") for label in bar.labels_shown)


def test_the_roots_are_answered_not_waited_on_by_the_person(qtbot) -> None:
    legs = [Leg("tools/call", 20, 60.0, 200, "ok"), Leg("input: roots/list", 20, 5.0, None, "ok"),
            Leg("tools/call (round 2)", 20, 60.0, 200, "ok")]
    bar = _bar(qtbot, legs)
    wait = bar.current_geometry().segments[1]
    assert wait.kind == "waiting" and "answering the server" in wait.tooltip and "you" not in wait.tooltip


def test_the_wait_speaks_german(qtbot, german) -> None:
    bar = _bar(qtbot)
    wait = bar.current_geometry().segments[2]
    assert wait.label.startswith("wartet auf Sie")
    assert "zählt gegen das Budget" in wait.tooltip
