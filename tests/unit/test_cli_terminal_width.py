"""Widths on a terminal (a wide character takes two columns), and details as wide as a terminal allows."""

from __future__ import annotations

from inspector.cli.terminal_width import display_width, fit, pad
from inspector.runs import step_details


def test_wide_characters_take_two_columns_and_combining_marks_none() -> None:
    assert display_width("abc") == 3
    assert display_width("東京の天気") == 10
    assert display_width("Ｆｕｌｌ") == 8  # full-width Latin
    assert display_width("e\u0301") == 1  # e and a combining acute accent
    assert display_width("fehlgeschlagen: Zeitüberschreitung") == 34


def test_fit_cuts_by_columns_and_never_splits_a_wide_character() -> None:
    assert fit("東京の天気", 10) == "東京の天気"
    cut = fit("東京の天気", 6)
    assert cut == "東京…" and display_width(cut) == 5  # a wide character does not fit in the one column left
    assert fit("invoke_agent support-agent", 12) == "invoke_agen…"
    assert display_width(fit("a" * 50, 20)) == 20
    assert pad("東京", 6) == "東京  " and pad("abc", 2) == "abc"


def test_step_details_are_shortened_at_the_limit_asked_for() -> None:
    payload = {"kind": "tool", "toolName": "slow", "toolResult": "x" * 300}
    assert len(step_details(payload)) == 120  # as ever
    assert step_details(payload, limit=400) == "slow: " + "x" * 300
    assert step_details(payload, limit=200).endswith("…") and len(step_details(payload, limit=200)) == 200
    cancelled = {"kind": "tool", "toolName": "t" * 300, "toolIsError": True,
                 "toolOutcome": "cancelled", "cancelledInFlight": True}
    # A long tool name gives way, at any limit, so the note is never cut short.
    assert step_details(cancelled, limit=200).endswith("is unknown)") and len(step_details(cancelled, limit=200)) == 200
