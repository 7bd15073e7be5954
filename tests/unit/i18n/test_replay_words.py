"""How a replayed step names its replays: each run with its outcome, and no empty brackets for a
replay whose step recorded no outcome (seen as "replayed as run 9 ()")."""

from __future__ import annotations

from inspector.i18n import set_language
from inspector.i18n.replays import replayed_as_text


def test_replays_are_named_with_their_outcome_and_without_empty_brackets() -> None:
    set_language("en")
    assert replayed_as_text([(3, "ok"), (9, "")]) == "replayed as run 3 (ok), run 9"
    set_language("de")
    try:
        assert replayed_as_text([(3, "cancelled"), (9, "")]) == "wiederholt als Lauf 3 (abgebrochen), Lauf 9"
    finally:
        set_language("en")


def test_a_replays_verdict_says_its_outcome_and_its_result_in_the_house_words() -> None:
    """German said "derselbe Ausgang, dasselbe Ergebnis": the outcome is an "Ergebnis", the result a
    "Resultat"."""
    from inspector.i18n.replays import replay_verdict

    assert replay_verdict("ok", "ok", True, 10, 10) == "Replay: the same outcome, the same result, about as fast."
    set_language("de")
    try:
        assert replay_verdict("ok", "ok", True, 10, 10) == (
            "Wiederholung: dasselbe Ergebnis, dasselbe Resultat, etwa gleich schnell.")
        assert replay_verdict("ok", "failed", False, 10, 10) == (
            "Wiederholung: vorher ok, jetzt fehlgeschlagen, ein anderes Resultat.")
    finally:
        set_language("en")


def test_a_replay_that_ended_otherwise_is_not_compared_for_speed() -> None:
    """A replay whose server was unreachable failed in 3 ms; the call it replays took 1.2 s and
    worked: "faster by 1.2 s" would praise a failure."""
    from inspector.i18n.replays import replay_verdict

    assert replay_verdict("ok", "failed", False, 1200, 3) == "Replay: ok before, failed now, a different result."
    assert replay_verdict("cancelled", "ok", False, 300, 2500) == (
        "Replay: cancelled before, ok now, a different result.")
    # Ended alike, the speed is said.
    assert replay_verdict("failed", "failed", True, 1200, 3) == (
        "Replay: the same outcome, the same result, faster by 1.2 s.")
