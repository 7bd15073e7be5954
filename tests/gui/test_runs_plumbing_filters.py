"""Filters beside hidden plumbing: the heading counts the plumbing the filter matches but hides, and
a filter that matches only hidden plumbing says so (not "no step matches"). Real files (Traceloop's
trace in tests/fixtures/otel/, and one written as Traceloop writes its spans) in the test's SQLite file."""

from __future__ import annotations

import json

import pytest

from inspector.gui.language import switch_language
from inspector.store import RunStore, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_span_detail import imported_agent_run, open_run

TRACE = "5b8efff798038103d269b633813fc60c"
SCOPE = "opentelemetry.instrumentation.mcp.instrumentation"


def _span(span_id: str, name: str, parent: str, start_ms: int, attributes: list) -> dict:
    span = {"traceId": TRACE, "spanId": span_id, "name": name, "kind": 1, "attributes": attributes,
            "startTimeUnixNano": str(1_700_000_000_000_000_000 + start_ms * 1_000_000),
            "endTimeUnixNano": str(1_700_000_000_000_000_000 + (start_ms + 5) * 1_000_000), "status": {"code": 1}}
    if parent:
        span["parentSpanId"] = parent
    return span


def tool_with_plumbing(path):
    """A Traceloop tool span with two of its stream writers under it: its only requests are plumbing."""
    text = [{"key": "traceloop.span.kind", "value": {"stringValue": "tool"}},
            {"key": "traceloop.entity.name", "value": {"stringValue": "lookup"}},
            {"key": "traceloop.entity.output", "value": {"stringValue": json.dumps({"result": {"content": []}})}}]
    spans = [_span("a1" * 8, "lookup.tool", "", 0, text), _span("b2" * 8, "ResponseStreamWriter", "a1" * 8, 1, []),
             _span("c3" * 8, "ResponseStreamWriter", "a1" * 8, 2, [])]
    path.write_text(json.dumps({"resourceSpans": [{
        "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "agent"}}]},
        "scopeSpans": [{"scope": {"name": SCOPE}, "spans": spans}]}]}))
    return path


def empty_note_in(tab, language: str) -> str:
    """The note over the (empty) timeline, said in ``language``."""
    switch_language(language)
    pane = tab.timeline_pane
    assert tab.timeline.rowCount() == 0 and pane.empty_note.isVisibleTo(pane)
    return pane.empty_note.text()


def test_a_filter_counts_the_plumbing_it_matches_and_hides(qtbot, make_window) -> None:
    run_id = imported_agent_run("traceloop.jsonl")
    _window, tab = open_run(qtbot, make_window, run_id)
    tab.step_outcome_filter.setCurrentIndex(tab.step_outcome_filter.findData(""))  # no outcome
    assert tab.timeline.rowCount() == 4
    assert tab.run_heading.text().endswith("4 of 14 steps shown (filtered; 7 plumbing hidden)")
    tab.timeline_pane.plumbing_toggle.setChecked(True)
    assert tab.run_heading.text().endswith("11 of 14 steps shown (filtered)")


def test_a_filter_matching_only_hidden_plumbing_says_so(qtbot, make_window, tmp_path) -> None:
    with RunStore.open(resolve_db_path()) as store:
        (run_id,) = import_trace(store, tool_with_plumbing(tmp_path / "trace.json")).run_ids
    _window, tab = open_run(qtbot, make_window, run_id)
    pane = tab.timeline_pane
    tab.kind_filter.setCurrentIndex(tab.kind_filter.findData("request"))
    try:
        for language, said in (("en", "tick “Show plumbing” to see 2 steps"),
                               ("de", "„Infrastruktur anzeigen“")):
            note = empty_note_in(tab, language)
            assert said in note and "matches the filters" not in note
        switch_language("en")
        pane.plumbing_toggle.setChecked(True)
        assert tab.timeline.rowCount() == 2 and not pane.empty_note.isVisibleTo(pane)
    finally:
        switch_language("en")


def test_no_match_counts_the_steps_the_unfiltered_timeline_shows_with_its_plumbing_hidden(qtbot,
                                                                                          make_window) -> None:
    """The note said "to see all 14" where choosing every outcome and kind shows 7 (the other 7 are
    hidden plumbing): it counts what the reader will see, and says the plumbing stays hidden."""
    run_id = imported_agent_run("traceloop.jsonl")
    _window, tab = open_run(qtbot, make_window, run_id)
    pane = tab.timeline_pane
    tab.step_outcome_filter.setCurrentIndex(tab.step_outcome_filter.findData("cancelled"))
    try:
        for language, said in (("en", "Choose “Every outcome” and “Every kind” to see 7 steps (7 plumbing hidden)."),
                               ("de", "um 7 Schritte zu sehen (7 Infrastruktur-Spans ausgeblendet).")):
            note = empty_note_in(tab, language)
            assert note.endswith(said), note
        switch_language("en")
        pane.plumbing_toggle.setChecked(True)  # nothing hidden: every step of the run
        assert pane.empty_note.text().endswith("to see all 14.")
        tab.step_outcome_filter.setCurrentIndex(0)
        pane.plumbing_toggle.setChecked(False)
        assert tab.timeline.rowCount() == 7  # as the note said
    finally:
        switch_language("en")


@pytest.mark.parametrize(("language", "counts", "filtered", "why"), [
    ("en", ("; 7 of 14 steps shown (7 plumbing hidden)", "; 7 of 14 steps shown"),
     ("; 3 of 14 steps shown (filtered; 7 plumbing hidden)", "; 3 of 14 steps shown (filtered)"),
     "2 of 4 tool calls failed, 1 not recorded"),
    ("de", ("; 7 von 14 Schritten (7 Infrastruktur-Spans ausgeblendet)", "; 7 von 14 Schritten"),
     ("; 3 von 14 Schritten (gefiltert; 7 Infrastruktur-Spans ausgeblendet)",
      "; 3 von 14 Schritten (gefiltert)"),
     "2 von 4 Tool-Aufrufen schlugen fehl, 1 nicht erfasst")])
def test_the_heading_keeps_the_run_and_why_at_1024_by_768(qtbot, make_window, language, counts, filtered,
                                                          why) -> None:
    """At 1024×768 the run's heading is narrower than its German sentence: the plumbing it hides gives way
    first ("(7 … hidden)", left to the tip), then the steps shown, then why the run failed is shortened; the
    run's number, title and status are read whole, and the tip has the whole sentence (the title had given
    way first: "Lauf 1: … — fehlgeschlagen")."""
    from PySide6.QtWidgets import QApplication

    from tests.gui.test_screenshots import save
    from tests.gui.test_timeline_heading_fit import WORDS, said_in_order

    run_id = imported_agent_run("traceloop.jsonl")
    window, tab = open_run(qtbot, make_window, run_id)
    window.resize(1024, 768)
    QApplication.processEvents()
    heading = tab.timeline_pane.heading
    switch_language(language)
    try:
        for kind, (whole, ending) in ((None, counts), ("request", filtered)):
            filter_ = tab.timeline_pane.kind_filter
            filter_.setCurrentIndex(filter_.findData(kind))
            QApplication.processEvents()
            assert heading.text().endswith(whole)
            hidden = {"en": "hidden", "de": "ausgeblendet"}[language]
            shown = said_in_order(heading, WORDS[language][0], why, ending.split(" (")[0], hidden)
            # All of it, or without the plumbing, or without the counts: never cut inside a clause but why.
            assert shown.endswith((whole, ending, f"({why})")) or f"({why})" not in shown, shown
            if language == "de":  # the German sentence is longer than the room (the English one fits)
                assert heading.is_cut() and hidden not in shown
            save(window, f"runs-heading-1024-{kind or 'all'}-{language}")
    finally:
        switch_language("en")


@pytest.mark.parametrize(("language", "short", "said"), [
    ("en", "7 hidden", "Find: 7 steps of the hidden plumbing hold the text; tick “Show plumbing” to see them."),
    ("de", "7 ausgeblendet", "Suchen: 7 ausgeblendete Infrastruktur-Spans enthalten den Text; kreuzen Sie "
                             "„Infrastruktur anzeigen“ an, um sie zu sehen.")])
def test_find_says_when_only_hidden_plumbing_holds_the_text(qtbot, make_window, language, short, said) -> None:
    """Traceloop's real trace: Find for its stream writers' name said "no match" while Show plumbing
    was off, though the heading counts 7 of them hidden; it says how many are hidden (the status line
    says where), and finds them once they show. A text in no step at all is still "no match"."""
    run_id = imported_agent_run("traceloop.jsonl")
    _window, tab = open_run(qtbot, make_window, run_id)
    switch_language(language)
    try:
        pane = tab.timeline_pane
        pane.find_edit.setText("ResponseStreamWriter")
        assert tab.find() == [] and pane.find_status.text() == short and tab.status.text() == said
        pane.find_edit.setText("no step holds this text")
        assert tab.find() == [] and pane.find_status.text() == ("no match" if language == "en" else "kein Treffer")
        tab.timeline.set_show_plumbing(True)
        pane.find_edit.setText("ResponseStreamWriter")
        assert len(tab.find()) == 7 and pane.find_status.text() == ("1 of 7" if language == "en" else "1 von 7")
    finally:
        switch_language("en")


def test_the_hidden_count_beside_find_is_said_again_in_the_new_language(qtbot, make_window) -> None:
    """A switch of language said "no match" ("kein Treffer") where Find had said "7 hidden": the
    plumbing still holds the text, and the count is said in the new language."""
    run_id = imported_agent_run("traceloop.jsonl")
    _window, tab = open_run(qtbot, make_window, run_id)
    pane = tab.timeline_pane
    pane.find_edit.setText("ResponseStreamWriter")
    assert tab.find() == [] and pane.find_status.text() == "7 hidden"
    try:
        switch_language("de")
        assert pane.find_status.text() == "7 ausgeblendet"
    finally:
        switch_language("en")
    assert pane.find_status.text() == "7 hidden"
