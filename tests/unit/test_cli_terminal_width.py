"""Widths on a terminal (a wide character takes two columns) and ``runs list``'s cut to one."""

from __future__ import annotations

from inspector.cli.list_fit import LEAST_TITLE, fit_list
from inspector.cli.terminal_width import display_width, fit, pad
from inspector.i18n.run_cells import cut_reasons
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


def test_a_list_that_fits_is_left_as_it_is() -> None:
    fitted = fit_list(100, 40, ["ok", "failed (the tool call failed)"], 29, 6, ["Agent Workflow"])
    assert fitted.statuses == ["ok", "failed (the tool call failed)"] and fitted.status_width == 29
    assert fitted.titles == ["Agent Workflow"]


def test_the_title_gives_way_first_then_the_statuss_reason_never_its_word() -> None:
    statuses = ["ok", "fehlgeschlagen (2 von 4 Tool-Aufrufen schlugen fehl)"]
    titles = ["東京の天気を調べるエージェント", "invoke_agent support-agent"]
    # Room for the statuses and a cut title.
    fitted = fit_list(110, 46, statuses, 52, 14, titles)
    assert fitted.statuses == statuses and fitted.status_width == 52
    assert all(display_width(title) <= 110 - 46 - 52 for title in fitted.titles)
    assert fitted.titles[1] == "invoke_agen…" and fitted.titles[0].endswith("…")
    # Too narrow for that: the title keeps its least width, the reasons are cut.
    fitted = fit_list(79, 46, statuses, 52, 14, titles)
    # Too little room for two whole words of the reason ("(2 von…"): the status word, the column as wide as it.
    assert fitted.statuses[0] == "ok" and fitted.statuses[1] == "fehlgeschlagen…"
    assert fitted.status_width == len("fehlgeschlagen…") < 79 - 46 - LEAST_TITLE
    fitted = fit_list(90, 46, statuses, 52, 14, titles)
    assert fitted.statuses[1] == "fehlgeschlagen (2 von 4 Tool-…"  # the counts, a compound's start after them
    assert all(display_width(title) <= LEAST_TITLE for title in fitted.titles)
    # Narrower still: no status word is cut (the row wraps, as before).
    fitted = fit_list(50, 46, statuses, 52, 14, titles)
    assert fitted.status_width == 15 and fitted.statuses[1] == "fehlgeschlagen…"


def test_a_reason_is_cut_after_two_whole_words_at_least_as_the_window_cuts_it() -> None:
    def cut(status: str, room: int) -> str:
        return fit_list(8 + room + LEAST_TITLE, 8, ["ok", status], 60, 6, ["t" * 20] * 2).statuses[1]

    assert cut("failed (the tool call failed)", 21) == "failed (the tool…"  # not "failed (the tool cal…"
    assert cut("failed (the tool call failed)", 17) == "failed (the tool…"  # already at a word's end
    assert cut("fehlgeschlagen (2 von 4 Tool-Aufrufen schlugen fehl)", 31) == "fehlgeschlagen (2 von 4 Tool-…"
    # Never in a word: "Tool-Aufrufe…" of "Tool-Aufrufen" gives way to the compound's start.
    assert cut("fehlgeschlagen (2 von 4 Tool-Aufrufen schlugen fehl)", 37) == "fehlgeschlagen (2 von 4 Tool-…"
    assert cut("failed (the tool call failed)", 9) == "failed…"  # not "failed (…"
    assert cut("failed (2 of 4 tool calls failed)", 12) == "failed…"  # not "failed (2…": one word says no more
    assert cut("failed (2 of 4 tool calls failed)", 13) == "failed (2 of…"
    # "der Tool-" is one whole word and the start of a compound: the status word alone says as much.
    whole = "fehlgeschlagen (der Tool-Aufruf schlug fehl)"
    said = {cut(whole, room) for room in range(15, 44)}
    assert said == {"fehlgeschlagen…", "fehlgeschlagen (der Tool-Aufruf…", "fehlgeschlagen (der Tool-Aufruf schlug…"}
    assert said - {"fehlgeschlagen…"} <= set(cut_reasons(whole, "fehlgeschlagen"))  # the window's cuts


def test_step_details_are_shortened_at_the_limit_asked_for() -> None:
    payload = {"kind": "tool", "toolName": "slow", "toolResult": "x" * 300}
    assert len(step_details(payload)) == 120  # as ever
    assert step_details(payload, limit=400) == "slow: " + "x" * 300
    assert step_details(payload, limit=200).endswith("…") and len(step_details(payload, limit=200)) == 200
    cancelled = {"kind": "tool", "toolName": "t" * 300, "toolIsError": True,
                 "toolOutcome": "cancelled", "cancelledInFlight": True}
    # A long tool name gives way, at any limit, so the note is never cut short.
    assert step_details(cancelled, limit=200).endswith("is unknown)") and len(step_details(cancelled, limit=200)) == 200


def test_format_characters_take_no_column_but_the_soft_hyphen_a_terminal_shows() -> None:
    assert display_width("zero\u200b\u200bwidth") == 9  # zero-width spaces
    assert display_width("t\u200dx") == 2  # a zero-width joiner
    assert display_width("soft\u00adhyphen") == 11  # shown as "-", as C's wcwidth counts it
