"""Where the budget bar puts each part, on a fake clock (no Qt, no timer)."""

from __future__ import annotations

import re

import pytest

from inspector.gui.widgets.budget_bar_layout import AFTER_DEADLINE_SHARE, LEG_GAP_PX, MIN_LEG_PX, layout
from inspector.gui.widgets.budget_state import BarState, ending_for
from inspector.mcp import FakeClock, OperationDeadline
from inspector.runs import Leg

WIDTH = 1100.0  # 20 s budget + 10 % after the line: 50 px a second


def px(seconds: float) -> float:
    return seconds * WIDTH / (20 * (1 + AFTER_DEADLINE_SHARE))


def running_call(clock: FakeClock) -> BarState:
    """A tool call driven by the real deadline arithmetic on a fake clock."""
    deadline = OperationDeadline(20, clock)
    state = BarState(deadline.budget_s)
    for method, seconds in (("initialize", 0.6), ("notifications/initialized", 0.4)):
        state.leg_started(method, deadline.grant(), deadline.elapsed_s())
        clock.advance(seconds)
        state.leg_finished(method, None, seconds, "ok", 200)
    state.leg_started("tools/call", deadline.grant(), deadline.elapsed_s())
    return state


def test_segments_sit_where_their_legs_ran_with_a_gap_between() -> None:
    clock = FakeClock()
    state = running_call(clock)
    clock.advance(6.3)
    geometry = layout(state, 7.3, WIDTH)
    first, second, call = geometry.segments
    assert first.x == 0 and first.width == pytest.approx(px(0.6) - LEG_GAP_PX)
    assert second.x == pytest.approx(px(0.6))
    assert call.x == pytest.approx(px(1.0))
    assert call.width == pytest.approx(px(6.3))
    assert (first.shade, second.shade, call.shade) == (0, 1, 0)
    assert call.kind == "running"
    assert "grant 19 s" in call.label


def test_the_running_leg_grows_with_the_clock_and_its_grant_band_ends_at_its_grant() -> None:
    clock = FakeClock()
    state = running_call(clock)
    early = layout(state, 2.0, WIDTH).segments[-1]
    late = layout(state, 8.0, WIDTH).segments[-1]
    assert late.width > early.width
    assert late.width == pytest.approx(px(7.0))
    # The grant was 19 s from 1.0 s: the band ends at 20 s, the deadline.
    assert late.band_x + late.band_width == pytest.approx(px(20))
    assert early.band_x + early.band_width == pytest.approx(px(20))
    assert layout(state, 8.0, WIDTH).end_text == "12.0 s left"


def test_the_deadline_line_is_at_the_budget() -> None:
    geometry = layout(BarState(20), 0.0, WIDTH)
    assert geometry.deadline_x == pytest.approx(px(20))
    assert geometry.remaining_s == 20


def test_a_grant_rounded_up_past_the_deadline_shows_the_overrun() -> None:
    clock = FakeClock()
    deadline = OperationDeadline(20, clock)
    state = BarState(20)
    clock.advance(4.5)  # 15.5 s left: the grant is rounded up to 16 s, half a second past the line
    state.leg_started("tools/call", deadline.grant(), deadline.elapsed_s())
    assert state.legs[0].granted_s == 16
    clock.advance(16)
    state.leg_finished("tools/call", 16, 16.0, "failed", error_kind="timed_out")
    state.finish(20.5, ending_for("failed", state.legs, "timed_out"))
    geometry = layout(state, 20.5, WIDTH)
    [call] = geometry.segments
    assert call.kind == "timed_out"
    assert call.overrun_x == pytest.approx(geometry.deadline_x)
    assert call.overrun_width == pytest.approx(px(0.5), abs=0.01)
    assert geometry.end_text == "✗ failed: timed out"


def test_a_leg_never_sent_is_an_outline_after_the_deadline_line() -> None:
    state = BarState(5)
    state.leg_started("initialize", 5, 0.0)
    state.leg_finished("initialize", 5, 4.8, "ok", 200)
    state.leg_started("notifications/initialized", 1, 4.8)
    state.leg_finished("notifications/initialized", 1, 0.4, "ok", 202)
    state.leg_finished("tools/call", None, None, "not_sent", error_kind="exhausted_budget", now_s=5.2)
    state.finish(5.2, ending_for("failed", state.legs, "exhausted_budget"))
    geometry = layout(state, 5.2, WIDTH)
    refused = geometry.segments[-1]
    assert refused.kind == "not_sent"
    assert refused.x > geometry.deadline_x
    assert "not sent" in refused.label
    assert geometry.end_text == "✗ failed: not sent"


def test_cancelled_ok_and_failed_endings_are_named_differently() -> None:
    texts = set()
    for status, legs, kind in (("ok", [], None), ("cancelled", [], "cancelled"), ("failed", [], "rpc_error")):
        state = BarState(20)
        state.finish(1.0, ending_for(status, legs, kind))
        texts.add(layout(state, 1.0, WIDTH).end_text)
    assert texts == {"✓ ok", "⊘ cancelled", "✗ failed"}


def test_a_finished_bar_stops_at_its_end_whatever_the_clock_says() -> None:
    clock = FakeClock()
    state = running_call(clock)
    state.leg_finished("tools/call", 19, 2.0, "ok", 200)
    state.finish(3.0, "ok")
    assert layout(state, 3.0, WIDTH) == layout(state, 999.0, WIDTH)


def test_progress_marks_sit_where_they_arrived_with_the_message() -> None:
    from inspector.gui.widgets.budget_state import ProgressMark

    state = BarState(20)
    state.marks.append(ProgressMark(4.0, 1, 3, "working <b>hard</b>"))
    [tick] = layout(state, 5.0, WIDTH).ticks
    assert tick.x == pytest.approx(px(4.0))
    assert "working <b>hard</b>" in tick.tooltip and "1 of 3" in tick.tooltip


def test_a_long_calls_marks_stay_bounded_and_spread_over_its_time() -> None:
    """A call reporting progress for long: at most MAX_MARKS kept, the first and last ones whole, the
    middle thinned evenly (its ticks still spread over the bar)."""
    from inspector.gui.widgets.budget_state import MARKS_FIRST, MARKS_LAST, MAX_MARKS, ProgressMark

    state = BarState(20)
    for n in range(100_000):  # 5,000 a second
        state.add_mark(ProgressMark(n / 5000, n, 100_000, None))
    assert state.marks_heard == 100_000 and len(state.marks) <= MAX_MARKS
    assert [mark.progress for mark in state.marks[:MARKS_FIRST]] == list(range(MARKS_FIRST))
    assert [mark.progress for mark in state.marks[-MARKS_LAST:]] == list(range(100_000 - MARKS_LAST, 100_000))
    ticks = [tick.x for tick in layout(state, 20.0, WIDTH).ticks]
    assert len({int(x // px(2.0)) for x in ticks}) == 10, "a tick in every tenth of the 20 s"


def test_a_replay_of_stored_legs_draws_the_same_kinds() -> None:
    legs = [Leg("initialize", 5, 40.0, 200, "ok"), Leg("notifications/initialized", 5, 5.0, 202, "ok"),
            Leg("tools/call", 5, 3200.0, None, "cancelled")]
    state = BarState.replay(legs, 5, "cancelled")
    geometry = layout(state, 0.0, WIDTH)
    assert [s.kind for s in geometry.segments] == ["ok", "ok", "cancelled"]
    # 200 px a second: initialize ends at 8 px; the 5 ms leg is widened to the minimum and pushes
    # the cancelled leg on, so that every leg stays visible.
    assert geometry.segments[1].width == MIN_LEG_PX
    assert geometry.segments[2].x == pytest.approx(8 + MIN_LEG_PX + LEG_GAP_PX)
    assert state.ending == "cancelled"
    timed_out = BarState.replay([Leg("initialize", 3, 10.0, 200, "ok"), Leg("tools/call", 3, 2995.0, None, "failed")],
                                3, "failed")
    assert timed_out.ending == "timed_out"


def test_a_replay_spends_the_operations_whole_time_not_only_its_legs() -> None:
    """The deadline counts wall time from the operation's start: the time between the legs is spent
    too. A step of 4.2 ms whose legs took 3 ms has spent 0.004 s, as its header says and as the live
    bar said when it ended, not "0.003 s"."""
    legs = [Leg("initialize", 20, 1.0, 200, "ok"), Leg("notifications/initialized", 20, 0.5, 202, "ok"),
            Leg("tools/call", 20, 1.5, 200, "ok")]
    state = BarState.replay(legs, 20, "ok", 0.0042)
    geometry = layout(state, 0.0, WIDTH)
    assert state.ended_s == pytest.approx(0.0042)
    assert geometry.spent_text == "0.004 s of 20 s spent"
    assert geometry.description.startswith("ok after 0.004 s of a 20 s budget; ")
    assert [leg.start_s for leg in state.legs] == pytest.approx([0.0, 0.001, 0.0015])  # one after another
    # Never less than the legs spent (a step stored with a shorter duration), nor without a duration.
    assert BarState.replay(legs, 20, "ok", 0.001).ended_s == pytest.approx(0.003)
    assert layout(BarState.replay(legs, 20, "ok"), 0.0, WIDTH).spent_text == "0.003 s of 20 s spent"


def test_the_description_says_what_runs_and_what_is_left() -> None:
    clock = FakeClock()
    state = running_call(clock)
    text = layout(state, 7.3, WIDTH).description
    assert text == "tools/call: 6.3 s spent of a 19 s grant; 12.7 s of 20 s left"


def test_a_tool_error_colours_the_work_leg_failed() -> None:
    legs = [Leg("initialize", 20, 4.0, 200, "ok"), Leg("notifications/initialized", 20, 1.0, 202, "ok"),
            Leg("tools/call", 20, 9.0, 200, "ok")]
    state = BarState.replay(legs, 20, "failed")
    assert [s.kind for s in layout(state, 0.0, WIDTH).segments] == ["ok", "ok", "failed"]


@pytest.mark.parametrize(("outcome", "status", "kind", "mark"), [
    ("failed", "failed", "failed", "cross"),
    ("cancelled", "cancelled", "cancelled", "bar"),
])
def test_a_short_ending_leg_is_wide_enough_to_see_and_carries_an_end_mark(outcome, status, kind, mark) -> None:
    from inspector.gui.widgets.budget_bar_layout import MIN_ENDING_LEG_PX

    # 55 ms of a 20 s budget is under 3 px at this width: it must still be seen, with its mark.
    legs = [Leg("initialize", 20, 40.0, 200, "ok"), Leg("tools/call", 20, 55.0, None, outcome)]
    geometry = layout(BarState.replay(legs, 20, status), 0.0, WIDTH)
    ok, ending = geometry.segments
    assert px(0.055) < MIN_LEG_PX
    assert ending.kind == kind and ending.end_mark == mark
    assert ending.width >= MIN_ENDING_LEG_PX >= 10
    assert ok.end_mark == "" and ok.width == MIN_LEG_PX  # an ok leg is not widened


def test_a_short_timed_out_leg_is_widened_and_marked_too() -> None:
    legs = [Leg("tools/call", 1, 995.0, None, "failed")]
    geometry = layout(BarState.replay(legs, 20, "failed"), 0.0, WIDTH)
    [leg] = geometry.segments
    assert leg.kind == "timed_out" and leg.end_mark == "cross" and leg.width >= 10


def test_the_header_says_what_is_spent_and_a_narrow_leg_has_a_short_label() -> None:
    clock = FakeClock()
    state = running_call(clock)
    geometry = layout(state, 7.3, WIDTH)
    assert geometry.spent_text == "7.3 s of 20 s spent"
    call = geometry.segments[-1]
    assert call.label == "tools/call 6.3 s / grant 19 s"
    assert call.short_label == "6.3 s / grant 19 s"


def test_the_mini_bar_places_legs_band_and_deadline_on_the_same_scale() -> None:
    from inspector.gui.widgets.mini_bar import spans

    clock = FakeClock()
    state = running_call(clock)
    deadline_x, legs = spans(state, 7.3, 110.0)  # 20 s + 10 %: 5 px a second
    assert deadline_x == pytest.approx(100.0)
    assert [leg.kind for leg in legs] == ["ok", "ok", "running"]
    call = legs[-1]
    assert call.x == pytest.approx(5.0) and call.width == pytest.approx(6.3 * 5)
    assert call.x + call.width + call.band_width == pytest.approx(100.0)  # the grant ends at the deadline
    refused = BarState.replay([Leg("initialize", 1, 1900.0, 200, "ok"), Leg("tools/call", 1, None, None, "not_sent")],
                              1, "failed")
    deadline_x, legs = spans(refused, 0.0, 110.0)
    assert legs[-1].kind == "not_sent" and legs[-1].x > deadline_x
    assert legs[-1].x > legs[0].x + legs[0].width  # after what the handshake spent past the line


@pytest.mark.parametrize(("language", "left", "over", "past"), [
    ("en", "0.1 s left", "0.1 s over", "past the 20 s budget"),
    ("de", "noch 0,1 s", "0,1 s überzogen", "über dem Budget von 20 s"),
])
def test_the_countdown_never_says_nothing_left_while_the_call_runs(language: str, left: str, over: str,
                                                                   past: str) -> None:
    """Within a twentieth of a second of the deadline the countdown rounded to "0.0 s left" (before and
    after it). A call with time left shows at least a tenth left, one at or past the deadline at least a
    tenth over; the bar's words, the Workbench row's countdown and the screen reader's sentence alike."""
    from inspector.gui.widgets.budget_bar_words import remaining_text, shown_tenths
    from inspector.gui.workbench.operations_model import countdown_text
    from inspector.i18n import set_language

    clock = FakeClock()
    state = running_call(clock)  # tools/call granted 19 s from 1 s: its grant ends with the budget
    set_language(language)
    try:
        for at, said in ((19.9, left), (19.96, left), (19.9999, left), (20.0, over), (20.03, over), (20.1, over)):
            geometry = layout(state, at, WIDTH)
            assert geometry.end_text == said == remaining_text(20 - at), (at, geometry.end_text)
            assert countdown_text(shown_tenths(20 - at), compact=True) == said
            assert not re.search(r"(?<![\d.,])0[.,]0 s", geometry.description), geometry.description
            assert (past in geometry.description) == (at >= 20), geometry.description
        assert layout(state, 19.96, WIDTH).description.endswith(
            "0.1 s of 20 s left" if language == "en" else "noch 0,1 s von 20 s")
        assert layout(state, 19.94, WIDTH).end_text == ("0.1 s left" if language == "en" else "noch 0,1 s")
        assert layout(state, 19.84, WIDTH).end_text == ("0.2 s left" if language == "en" else "noch 0,2 s")
    finally:
        set_language("en")


def test_a_step_recording_its_budget_had_a_deadline_though_no_leg_was_granted_time() -> None:
    """A live operation cancelled before its first leg was sent grants nothing; its step still records the
    budget it had, so the bar may not say "no deadline: the agent's own call, passed through" (review63)."""
    from inspector.gui.widgets.budget_state import PASSED_THROUGH, RECORDED_ELSEWHERE, why_no_deadline

    never_sent = [Leg("initialize", None, 0.0, None, "not_sent")]
    assert why_no_deadline(never_sent, "live", 20.0) is None
    assert why_no_deadline(never_sent, "live") == PASSED_THROUGH  # the proxy's: no budget recorded
    assert why_no_deadline(never_sent, "imported") == RECORDED_ELSEWHERE
    assert why_no_deadline([Leg("tools/call", 5, 12.0, 200, "ok")], "imported") is None


def test_legs_with_no_deadline_never_overrun_one() -> None:
    """Legs granted no time (the agent's own call, passed through) on the step's own time: the last reaching
    the track's end is not past a deadline, though its least width (short legs widened) carries it a little
    beyond the end (a full run once drew an overrun there)."""
    from inspector.gui.widgets.budget_state import PASSED_THROUGH

    legs = [Leg("initialize", None, 0.05, 200, "ok"), Leg("notifications/initialized", None, 0.02, 202, "ok"),
            Leg("tools/call", None, 30.0, 200, "ok")]
    state = BarState.replay(legs, 0.03007, "ok", 0.0301, "http", no_deadline=PASSED_THROUGH)
    geometry = layout(state, 0.0301, 300)
    assert geometry.segments[0].width == MIN_LEG_PX  # widened: the legs after it are carried on
    assert not any(segment.overrun_width for segment in geometry.segments), geometry.segments
