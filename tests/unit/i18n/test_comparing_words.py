"""A comparison in words: the summary line with its plural forms, in English and German; a row's
differences; the rule."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from inspector import i18n
from inspector.i18n.comparing import english_summary_line, row_differences, rule_sentence, summary_line
from inspector.runs.comparing import AlignedRow, ComparisonSummary, Difference, StepFacts


@pytest.fixture
def german() -> Iterator[None]:
    i18n.set_language("de")
    yield
    i18n.set_language("en")


SUMMARY = ComparisonSummary(alike=3, slower=1, slower_ms=2_100.0, faster=2, faster_ms=400.0, arguments=1,
                            results=2, only_first=1, only_second=2, outcome_changes={("cancelled", "ok"): 1})


def test_the_summary_line_in_english():
    assert summary_line(SUMMARY, 41, 42) == (
        "3 steps alike, 1 slower in run 42 by 2.1 s, 2 faster in run 42 by 0.4 s in all, 1 cancelled in run 41 "
        "and ok in run 42, 1 with other arguments, 2 with other results, 1 step only in run 41, and 2 steps only "
        "in run 42")
    assert summary_line(ComparisonSummary(alike=1), 1, 2) == "1 step alike"
    assert summary_line(ComparisonSummary(alike=2, outcome_changes={("ok", ""): 1}), 1, 2) == (
        "2 steps alike and 1 ok in run 1 and no outcome in run 2")
    assert summary_line(ComparisonSummary(), 1, 2) == "Neither run has any step."
    # With no step alike the count still leads: "1 failed in run 3 and cancelled in run 4" alone had no noun.
    assert summary_line(ComparisonSummary(outcome_changes={("failed", "cancelled"): 1}), 3, 4) == (
        "0 steps alike and 1 failed in run 3 and cancelled in run 4")


def test_the_summary_line_in_german(german):
    assert summary_line(SUMMARY, 41, 42) == (
        "3 Schritte gleich, 1 in Lauf 42 um 2,1 s langsamer, 2 in Lauf 42 um insgesamt 0,4 s schneller, "
        "1 in Lauf 41 abgebrochen und in Lauf 42 ok, 1 mit anderen Argumenten, 2 mit anderen Resultaten, "
        "1 Schritt nur in Lauf 41 und 2 Schritte nur in Lauf 42")
    assert "fehlgeschlagen" not in summary_line(SUMMARY, 41, 42)
    # The one for --json stays English, and the language stays German after it.
    assert english_summary_line(SUMMARY, 41, 42).startswith("3 steps alike, 1 slower in run 42 by 2.1 s, ")
    assert i18n.current_language() == "de" and summary_line(ComparisonSummary(alike=1), 1, 2) == "1 Schritt gleich"


def facts(outcome: str, ms: float) -> StepFacts:
    return StepFacts(1, "tool", 1, "hang", outcome, ms, "", None, None)


def test_a_rows_differences_in_words(german):
    row = AlignedRow(facts("ok", 100.0), facts("ok", 2_000.0), frozenset({Difference.SLOWER, Difference.RESULT}))
    assert row_differences(row, 1, 2) == ["1,9 s langsamer", "anderes Resultat"]
    assert row_differences(AlignedRow(None, facts("ok", 1.0), frozenset({Difference.ONLY_SECOND})), 1, 2) == [
        "nur in Lauf 2"]
    assert rule_sentence() == ("Ein Schritt gilt als langsamer oder schneller, wenn er wie im anderen Lauf endete und "
                               "seine Dauer um mehr als 20 % der "
                               "kürzeren und um mehr als 100 ms abweicht.")


@pytest.mark.parametrize(("language", "said"), [("en", "failed → cancelled"), ("de", "fehlgeschlagen → abgebrochen")])
def test_a_step_that_ended_otherwise_is_neither_slower_nor_faster(language, said):
    """A call that timed out after 1.51 s in one run and that the user cancelled after 0.80 s in the
    other: the cancelled one was stopped, not quick. The row says the outcome change alone (each
    run's cell says its own duration), never "faster by 0.71 s", even from a row whose differences
    still name a speed (an older caller's)."""
    i18n.set_language(language)
    try:
        for found in ({Difference.OUTCOME}, {Difference.OUTCOME, Difference.FASTER}):
            row = AlignedRow(facts("failed", 1_510.0), facts("cancelled", 800.0), frozenset(found))
            assert row_differences(row, 1, 2) == [said]
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("language, said", [
    ("en", "12,345 steps alike, 1,200 slower in run 2 by 1 min in all, 1,001 steps only in run 1, and 2,000 steps "
           "only in run 2"),
    ("de", "12.345 Schritte gleich, 1.200 in Lauf 2 um insgesamt 1 min langsamer, 1.001 Schritte nur in Lauf 1 und "
           "2.000 Schritte nur in Lauf 2")])
def test_large_counts_are_grouped_as_the_language_writes_them(language: str, said: str) -> None:
    """A run read from a trace has thousands of steps: "12345 steps alike" beside "12,345 steps were added"."""
    i18n.set_language(language)
    try:
        summary = ComparisonSummary(alike=12_345, slower=1_200, slower_ms=60_000.0, only_first=1_001,
                                    only_second=2_000)
        assert summary_line(summary, 1, 2) == said
    finally:
        i18n.set_language("en")



@pytest.mark.parametrize(("language", "cell", "summary", "change", "model_change"), [
    ("en", "not recorded", "2 steps alike and 1 not recorded in run 1 and cancelled in run 20",
     "not recorded → cancelled", "no outcome → failed"),
    ("de", "nicht erfasst", "2 Schritte gleich und 1 in Lauf 1 nicht erfasst und in Lauf 20 abgebrochen",
     "nicht erfasst → abgebrochen", "kein Ergebnis → fehlgeschlagen")])
def test_a_call_with_no_outcome_recorded_is_said_as_its_outcome_cell_says_it(language, cell, summary, change,
                                                                            model_change):
    """The mcp SDK's trace records nothing of a call its client stopped waiting for; the same call of a
    Logfire trace was cancelled. The comparison's cells said "not recorded" and its summary and the row's
    differences "no outcome" for the same step ("1 no outcome in run 1 and cancelled in run 20"). A
    model's step, which has no outcome by nature, still has "no outcome"."""
    from inspector.i18n.words import step_outcome_word as cell_word
    from inspector.runs.comparing import summarize

    i18n.set_language(language)
    try:
        model = StepFacts(1, "llm", 1, "", "", 5.0, "", None, None)
        stopped = AlignedRow(facts("", 200.0), facts("cancelled", 200.0), frozenset({Difference.OUTCOME}))
        alike = [AlignedRow(model, model, frozenset()), AlignedRow(facts("ok", 1.0), facts("ok", 1.0), frozenset())]
        assert cell_word("tool", "") == cell
        assert summary_line(summarize([alike[0], stopped, alike[1]]), 1, 20) == summary
        assert row_differences(stopped, 1, 20) == [change]
        failed_model = AlignedRow(model, StepFacts(1, "llm", 1, "", "failed", 5.0, "", None, None),
                                  frozenset({Difference.OUTCOME}))
        assert row_differences(failed_model, 1, 2) == [model_change]
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize(("language", "said"), [
    ("en", "1 step alike, 1 not recorded in run 1 and cancelled in run 20, 3 with other results and content blocks, "
           "1 with another result, 2 steps only in run 1, and 2 steps only in run 20"),
    ("de", "1 Schritt gleich, 1 in Lauf 1 nicht erfasst und in Lauf 20 abgebrochen, 3 mit anderen Resultaten und "
           "Inhaltsblöcken, 1 mit anderem Resultat, 2 Schritte nur in Lauf 1 und 2 Schritte nur in Lauf 20")])
def test_a_pair_with_another_result_and_other_blocks_is_counted_once(language, said):
    """The mcp SDK's trace of the support agent against Logfire's: 10 rows, and the summary said "3 with other
    results, 3 with other content blocks" of the same three calls (another text is another text block): its
    counts made 13. Each row counts once now; --json keeps the counts under each difference."""
    from inspector.runs.comparing import summarize

    other = frozenset({Difference.RESULT, Difference.CONTENT_BLOCKS})
    rows = [AlignedRow(facts("ok", 1.0), facts("ok", 1.0), frozenset()),
            AlignedRow(facts("", 200.0), facts("cancelled", 200.0), frozenset({Difference.OUTCOME, *other})),
            *[AlignedRow(facts("ok", 1.0), facts("ok", 1.0), other)] * 3,
            AlignedRow(facts("ok", 1.0), facts("ok", 1.0), frozenset({Difference.RESULT})),
            *[AlignedRow(facts("ok", 1.0), None, frozenset({Difference.ONLY_FIRST}))] * 2,
            *[AlignedRow(None, facts("ok", 1.0), frozenset({Difference.ONLY_SECOND}))] * 2]
    summary = summarize(rows)
    assert (summary.results, summary.content_blocks, summary.results_with_blocks) == (4, 3, 3)
    i18n.set_language(language)
    try:
        assert summary_line(summary, 1, 20) == said
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize(("language", "said"), [
    ("en", "1 step alike, 1 slower in run 9 by 2.0 s, 2 with other arguments, and 1 with another result"),
    ("de", "1 Schritt gleich, 1 in Lauf 9 um 2,0 s langsamer, 2 mit anderen Argumenten und 1 mit anderem Resultat")])
def test_a_call_slower_and_with_other_arguments_is_counted_once(language, said):
    """5 rows, and the summary said "2 slower …, 2 with other arguments, 2 with another result": 6 counts, one call
    slower with other arguments (and so another result) counted three times. Each row counts once now, under the
    first of its other arguments, its other answer and its duration; the row says them all."""
    from inspector.runs.comparing import summarize

    slower, arguments, result = Difference.SLOWER, Difference.ARGUMENTS, Difference.RESULT
    rows = [AlignedRow(facts("ok", 1.0), facts("ok", 1.0), frozenset()),
            AlignedRow(facts("ok", 100.0), facts("ok", 2_100.0), frozenset({slower})),
            AlignedRow(facts("ok", 100.0), facts("ok", 3_100.0), frozenset({slower, arguments, result})),
            AlignedRow(facts("ok", 1.0), facts("ok", 1.0), frozenset({arguments})),
            AlignedRow(facts("ok", 1.0), facts("ok", 1.0), frozenset({result}))]
    summary = summarize(rows)
    assert (summary.alike, summary.slower, summary.arguments, summary.results) == (1, 1, 2, 1)
    assert summary.slower_ms == 2_000.0
    i18n.set_language(language)
    try:
        assert summary_line(summary, 8, 9) == said
        assert row_differences(rows[2], 8, 9) == [i18n._("slower by {duration}").format(
            duration="3.0 s" if language == "en" else "3,0 s"), i18n._("other arguments"), i18n._("another result")]
    finally:
        i18n.set_language("en")
