"""Find's words belong to the run shown. Find keeps its text when another run is selected and searches
that run (as a browser's find bar keeps its text and searches the next page); what it said in the tab's
status line about the run before ("Find: 7 steps of the hidden plumbing hold the text; …") went on
standing under a run that has none. Real runs in the test's SQLite file: a played scenario's and the
Traceloop trace of tests/fixtures/otel/ imported."""

from __future__ import annotations

import pytest

from inspector.gui.language import switch_language
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_runs_screenshots import runs_window
from tests.gui.test_runs_span_detail import imported_agent_run
from tests.support.sample_runs import mixed_run

#: What Find says of the Traceloop run's 7 hidden stream writers: beside the field, in the status line.
SAID = {"en": ("7 hidden", "Find: 7 steps of the hidden plumbing hold the text; tick “Show plumbing” to see them."),
        "de": ("7 ausgeblendet", "Suchen: 7 ausgeblendete Infrastruktur-Spans enthalten den Text; kreuzen Sie "
                                 "„Infrastruktur anzeigen“ an, um sie zu sehen.")}
NO_MATCH = {"en": "no match", "de": "kein Treffer"}


def two_runs(qtbot, make_window):
    """The window on its Runs tab over the imported agent run and a played scenario's run."""
    traced = imported_agent_run("traceloop.jsonl")
    with RunStore.open(resolve_db_path()) as store:
        played = mixed_run(store, "scenario user-cancels")
    window = runs_window(make_window)
    tab = window.runs_tab
    qtbot.waitUntil(lambda: tab.runs.row_of(traced) is not None and tab.runs.row_of(played) is not None)
    return window, tab, traced, played


def find_in(qtbot, tab, text: str) -> None:
    """``text`` typed into Find, searched once typing paused."""
    pane = tab.timeline_pane
    pane.find_edit.setText(text)
    qtbot.waitUntil(lambda: not pane.finder._timer.isActive())


@pytest.mark.parametrize("language", ["en", "de"])
def test_another_run_selected_searches_it_and_drops_the_sentence_about_the_run_before(qtbot, make_window,
                                                                                       language) -> None:
    window, tab, traced, played = two_runs(qtbot, make_window)
    pane = tab.timeline_pane
    short, sentence = SAID[language]
    switch_language(language)
    try:
        tab.select_runs([traced])
        find_in(qtbot, tab, "ResponseStreamWriter")
        assert (pane.find_status.text(), tab.status.text()) == (short, sentence)
        tab.select_runs([played])  # no plumbing: nothing of it is hidden, nothing holds the text
        assert pane.find_edit.text() == "ResponseStreamWriter"  # kept, and searched in this run
        assert (pane.find_status.text(), tab.status.text()) == (NO_MATCH[language], "")
        tab.select_runs([traced])  # back: said again
        assert (pane.find_status.text(), tab.status.text()) == (short, sentence)
        find_in(qtbot, tab, "write_note")  # another text: the played run holds it, the traced run does not
        assert (pane.find_status.text(), tab.status.text()) == (NO_MATCH[language], "")
        tab.select_runs([played])  # the text kept is found in the run selected
        assert pane.find_status.text() == ("1 of 1" if language == "en" else "1 von 1")
        assert tab.status.text() == "" and tab.timeline_view.currentIndex().row() == 1
    finally:
        switch_language("en")


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_sentence_goes_when_find_is_cleared_or_the_plumbing_shown(qtbot, make_window, language) -> None:
    _window, tab, traced, _played = two_runs(qtbot, make_window)
    pane = tab.timeline_pane
    switch_language(language)
    try:
        tab.select_runs([traced])
        find_in(qtbot, tab, "ResponseStreamWriter")
        assert tab.status.text() == SAID[language][1]
        find_in(qtbot, tab, "")
        assert (pane.find_status.text(), tab.status.text()) == ("", "")
        find_in(qtbot, tab, "ResponseStreamWriter")
        assert tab.status.text() == SAID[language][1]
        pane.plumbing_toggle.setChecked(True)  # the 7 show now, found
        assert pane.find_status.text() == ("1 of 7" if language == "en" else "1 von 7")
        assert tab.status.text() == ""
    finally:
        switch_language("en")


def test_the_sentence_is_said_again_in_the_new_language_and_other_news_is_left_alone(qtbot, make_window) -> None:
    window, tab, traced, played = two_runs(qtbot, make_window)
    tab.select_runs([traced])
    find_in(qtbot, tab, "ResponseStreamWriter")
    try:
        window.settings.language = "de"
        window.apply_language()  # as Settings does
        assert tab.status.text() == SAID["de"][1]
        window.settings.language = "en"
        window.apply_language()
        assert tab.status.text() == SAID["en"][1]
        # Something said since (a copied uid) is not Find's to take back.
        copied = tab.timeline_pane.identity.copy_uid()
        tab.select_runs([played])
        assert tab.status.text() == copied
    finally:
        switch_language("en")
