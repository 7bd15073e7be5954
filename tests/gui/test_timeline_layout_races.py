"""A long run's span tree laid out on the reader thread, as a user meets it. Real parts: a nested trace imported
into the test's database (tests/support/long_trace.py) and the real window."""

from __future__ import annotations

import pytest

from inspector.gui.language import switch_language
from inspector.gui.runs.timeline_model import StepIdRole
from inspector.gui.runs.tree_layout import AT_ONCE_STEPS
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_runs_reads_refused import _damage
from tests.gui.test_runs_screenshots import runs_window
from tests.support.long_trace import nested_run

STEPS = AT_ONCE_STEPS + 1_000
WAIT_MS = 20_000


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_layout_whose_read_fails_ends_and_is_said(qtbot, tmp_path, make_window, language) -> None:
    """The reader's read of the spans failed: the timeline said "Laying out 6,000 steps…" for good, nothing else."""
    window = runs_window(make_window)
    tab, pane = window.runs_tab, window.runs_tab.timeline_pane
    with RunStore.open(resolve_db_path()) as store:
        run_id = nested_run(store, tmp_path, STEPS, padded=50)
    qtbot.waitUntil(lambda: tab.runs.row_of(run_id) is not None, timeout=WAIT_MS)
    assert tab.runs.run(tab.runs.row_of(run_id)) is not None  # its row read, as the list shows it
    _damage(resolve_db_path(), "steps", ("overflow",))  # the long payloads' pages: not the rows' count or times
    try:
        switch_language(language)
        assert tab.select_runs([run_id]) and pane.model.laying_out == STEPS
        said = {"en": "The timeline could not read this run's steps. The run database",
                "de": "Der Verlauf konnte die Schritte dieses Laufs nicht lesen. Die Laufdatenbank"}[language]
        qtbot.waitUntil(lambda: tab.status.text().replace("\u200b", "").startswith(said), timeout=WAIT_MS)
        assert not pane.model.laying_out and pane.model.rowCount() == 0
        assert pane.empty_note.text() == {"en": "This run's steps could not be read.",
                                          "de": "Die Schritte dieses Laufs konnten nicht gelesen werden."}[language]
        assert pane.heading.text() == {  # as a short run's whose read failed: not "0 steps"
            "en": f"Run {run_id}: root — ok; its steps could not be counted",
            "de": f"Lauf {run_id}: root — ok; seine Schritte konnten nicht gezählt werden"}[language]
    finally:
        switch_language("en")


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_filtered_heading_during_a_layout_claims_no_rows_shown(qtbot, tmp_path, make_window, language) -> None:
    """While a long run is laid out no row shows and its filtered count is not known yet: the heading said
    "6,000 of 6,000 steps shown (filtered)" with a filter that matches none of them."""
    window = runs_window(make_window)
    tab, pane = window.runs_tab, window.runs_tab.timeline_pane
    with RunStore.open(resolve_db_path()) as store:
        run_id = nested_run(store, tmp_path, STEPS)
    qtbot.waitUntil(lambda: tab.runs.row_of(run_id) is not None, timeout=WAIT_MS)
    try:
        switch_language(language)
        pane.outcome_filter.setCurrentIndex(pane.outcome_filter.findData("failed"))
        assert tab.select_runs([run_id]) and pane.model.laying_out
        assert pane.heading.text() == {"en": f"Run {run_id}: root — ok, 6,000 steps",
                                       "de": f"Lauf {run_id}: root — ok, 6.000 Schritte"}[language]
        qtbot.waitUntil(lambda: not pane.model.laying_out, timeout=WAIT_MS)
        assert pane.heading.text() == {
            "en": f"Run {run_id}: root — ok; 0 of 6,000 steps shown (filtered)",
            "de": f"Lauf {run_id}: root — ok; 0 von 6.000 Schritten (gefiltert)"}[language]
    finally:
        switch_language("en")


def test_show_in_runs_selects_a_long_runs_step_once_its_span_tree_is_laid_out(qtbot, tmp_path, make_window) -> None:
    """The Play tab's "Show in Runs" for a run whose span tree is laid out on the reader thread: the step's row was
    asked for while none showed (its place in time order was taken, and selected nothing), and nothing was selected
    when the rows came."""
    from tests.gui.test_play_tab import play_tab

    window = runs_window(make_window)
    tab, pane = window.runs_tab, window.runs_tab.timeline_pane
    with RunStore.open(resolve_db_path()) as store:
        run_id = nested_run(store, tmp_path, STEPS)
        (wanted,) = store.db.conn.execute("SELECT id FROM steps WHERE run_id = ? AND sequence = ?",
                                                (run_id, 4_321)).fetchone()
    qtbot.waitUntil(lambda: tab.runs.row_of(run_id) is not None, timeout=WAIT_MS)
    room = play_tab(window).room
    room.show_run_requested.emit(run_id, wanted)  # as its "Show in Runs" button does
    assert window.tabs.currentWidget() is tab and pane.model.laying_out == STEPS
    assert not tab.timeline_view.currentIndex().isValid() and tab.detail.step is None
    qtbot.waitUntil(lambda: not pane.model.laying_out, timeout=WAIT_MS)
    row = tab.timeline_view.currentIndex().row()
    assert row >= 0 and tab.timeline.index(row, 0).data(StepIdRole) == wanted
    assert tab.detail.step is not None and tab.detail.step.row.id == wanted
    assert 0 <= tab.timeline_view.rowViewportPosition(row) < tab.timeline_view.viewport().height()  # in view
