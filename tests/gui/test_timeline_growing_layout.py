"""A long running run of ours that a server's spans joined grows while the window shows it: its span tree is
laid out anew on the reader thread at each growth. Its rows, the step selected and its detail, the rows in view
and Find's position stay until the new rows arrive, which then take the old ones' place (each growth blanked the
rows to "Laying out…", cleared the detail and sent Find back to its first match). Real parts: the store's writer
adds the steps as a live run's does, the window's live reads find them."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest

from inspector.gui.language import switch_language
from inspector.gui.runs.timeline_model import StepIdRole
from inspector.gui.runs.tree_layout import AT_ONCE_STEPS
from inspector.i18n.formatting import format_number
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_runs_live_reads import _front
from tests.gui.test_screenshots import save
from tests.support.long_trace import joined_steps, server_span
from tests.support.sample_runs import T0

WAIT_MS = 20_000


def _step_at(tab, row: int) -> int:
    return tab.timeline.index(row, 0).data(StepIdRole)


def _long_run_shown(qtbot, make_window, steps: int, plumbing: bool = False):
    """The window with a running run of ours of ``steps`` steps (and a server's spans, ``plumbing``: its
    instrumentation's own, hidden) shown in the Runs tab, its span tree laid out on the reader thread: the tab, the
    run's id, its uid and its step count."""
    _window, tab = _front(qtbot, make_window)
    with RunStore.open(resolve_db_path()) as writer:
        run_id = writer.start_run("a long agent run", "live", "http://127.0.0.1:9/mcp", started_at=T0)
        uid = writer.get_run(run_id).uid
        writer.append_steps(run_id, joined_steps(uid, 1, steps, T0, plumbing=plumbing))
        counted = writer.count_steps(run_id)
    qtbot.waitUntil(lambda: tab.runs.row_of(run_id) is not None, timeout=WAIT_MS)
    assert tab.select_runs([run_id]) and tab.timeline.laying_out == counted
    shown = steps if plumbing else counted
    qtbot.waitUntil(lambda: not tab.timeline.laying_out and tab.timeline.rowCount() == shown, timeout=WAIT_MS)
    return tab, run_id, uid, counted


def test_a_growing_long_run_keeps_its_rows_selection_and_find_until_its_new_layout_swaps_in(qtbot, make_window) -> None:
    tab, run_id, uid, steps = _long_run_shown(qtbot, make_window, AT_ONCE_STEPS + 500)
    pane = tab.timeline_pane
    # Find "step 400": steps 400 and 4000-4099 (not 401, a server's span after every 50th); the third match.
    pane.find_edit.setText("step 400")
    qtbot.waitUntil(lambda: pane.find_status.text() == "1 of 11" and not pane.finder.searching, timeout=WAIT_MS)
    tab.find_next()
    tab.find_next()
    assert pane.find_status.text() == "3 of 11"
    selected = _step_at(tab, tab.timeline_view.currentIndex().row())
    assert tab.detail.step is not None and tab.detail.step.row.id == selected
    top = tab.timeline_view.rowAt(0)
    top_step, into = _step_at(tab, top), -tab.timeline_view.rowViewportPosition(top)
    assert top > 100  # scrolled well down: the rows a growth adds above it move it
    said_steps, resets = [], []
    pane.step_changed.connect(said_steps.append)
    tab.timeline.modelReset.connect(lambda: resets.append((pane.model.laying_out, pane.empty_note.isVisible())))
    # The new layout's read is held until the rows meanwhile are looked at: read at once, its rows could arrive
    # within one of waitUntil's turns, before "relaying" was seen (the full run failed so, 1 in 10 here).
    held = threading.Event()
    reads = pane.model._layouts._asked.reads._store.db.conn  # the layout reader's connection
    reads.set_progress_handler(lambda: held.wait(WAIT_MS / 1000) and 0, 1_000)
    with RunStore.open(resolve_db_path()) as writer:  # the run's writer goes on: its new steps, and a server's
        added = joined_steps(uid, steps + 1, 300, T0 + timedelta(seconds=10))  # span joined under an early step
        writer.append_steps(run_id, [*added, (server_span(uid, 10, 9_000), T0 + timedelta(milliseconds=10))])
        grown = writer.count_steps(run_id)
    try:
        qtbot.waitUntil(lambda: pane.model.relaying, timeout=WAIT_MS)  # laid out anew on the reader thread
        assert tab.timeline.rowCount() == steps and not pane.empty_note.isVisible()  # the old rows meanwhile
        assert _step_at(tab, tab.timeline_view.currentIndex().row()) == selected
    finally:
        held.set()
    qtbot.waitUntil(lambda: tab.timeline.rowCount() == grown, timeout=WAIT_MS)
    assert not pane.model.relaying and not pane.model.laying_out
    assert resets == [(0, False)]  # swapped once, never blank
    assert said_steps == []  # the detail was neither cleared nor shown again
    row = tab.timeline_view.currentIndex().row()
    assert _step_at(tab, row) == selected and tab.detail.step.row.id == selected
    assert tab.timeline_view.selectionModel().isRowSelected(row)
    top = tab.timeline_view.rowAt(0)  # the rows in view stay in view, one row further down
    assert (_step_at(tab, top), -tab.timeline_view.rowViewportPosition(top)) == (top_step, into)
    assert pane.find_status.text() == "3 of 11" and pane.finder.match_step() == selected
    qtbot.waitUntil(lambda: not pane.finder.searching, timeout=WAIT_MS)  # (its words said to the end: found again)
    assert pane.find_status.text() == "3 of 11"
    tab.find_next()  # Find goes on from where it was
    assert pane.find_status.text() == "4 of 11"
    assert tab.timeline.index(tab.timeline_view.currentIndex().row(), 0).data(StepIdRole) != selected


def test_a_run_that_grows_while_it_is_laid_out_shows_its_rows_and_then_its_newest(qtbot, make_window) -> None:
    """The run grew again while its span tree was laid out anew: the tree that arrived was thrown away for the run
    as counted then and laid out again, the rows blanked to "Laying out…" (a run growing faster than it is laid
    out never showed its rows again), and once laid out the rows lacked the last growth until the run was written
    to again. The reader's layout is held (SQLite's progress handler) until the writer has added more steps."""
    tab, run_id, uid, steps = _long_run_shown(qtbot, make_window, AT_ONCE_STEPS + 100)
    pane = tab.timeline_pane
    held, holding = threading.Event(), threading.Event()

    def hold() -> int:
        holding.set()
        held.wait(WAIT_MS / 1000)  # once, until the writer has added more steps
        return 0

    pane.model._layouts._asked.reads._store.db.conn.set_progress_handler(hold, 1_000)  # the layout reader's
    resets = []
    tab.timeline.modelReset.connect(lambda: resets.append(pane.model.laying_out))
    with RunStore.open(resolve_db_path()) as writer:
        writer.append_steps(run_id, joined_steps(uid, steps + 1, 100, T0 + timedelta(seconds=10)))
        qtbot.waitUntil(holding.is_set, timeout=WAIT_MS)  # laid out anew, held
        *_, last = writer.append_steps(run_id, joined_steps(uid, writer.count_steps(run_id) + 1, 100,
                                                            T0 + timedelta(seconds=20)))
        grown = writer.count_steps(run_id)
    qtbot.wait(500)  # the window's live read of the second growth
    assert tab.timeline.rowCount() == steps and pane.model.relaying
    held.set()  # (the handler stays: it holds nothing from now on)
    qtbot.waitUntil(lambda: tab.timeline.rowCount() == grown, timeout=WAIT_MS)  # no write since
    assert resets and not any(resets)  # never blank
    assert _step_at(tab, grown - 1) == last  # the second growth's last step (a server's span under its last one)


def test_find_while_a_growing_run_is_laid_out_finds_its_new_steps_once_they_show(qtbot, make_window) -> None:
    """Find asked while the run's tree is laid out anew finds steps newer than the rows shown: it said "1 hidden"
    and that the hidden plumbing held the text (there is none), and kept saying so once the step showed."""
    tab, run_id, uid, steps = _long_run_shown(qtbot, make_window, AT_ONCE_STEPS + 100)
    pane = tab.timeline_pane
    held = threading.Event()
    pane.model._layouts._asked.reads._store.db.conn.set_progress_handler(lambda: held.wait(WAIT_MS / 1000) and 0,
                                                                        1_000)  # the layout reader's, held
    with RunStore.open(resolve_db_path()) as writer:
        added = writer.append_steps(run_id, joined_steps(uid, steps + 1, 100, T0 + timedelta(seconds=10)))
        grown = writer.count_steps(run_id)
    qtbot.waitUntil(lambda: pane.model.relaying, timeout=WAIT_MS)
    pane.find_edit.setText(f"step {steps + 7}")  # one of the new steps
    qtbot.waitUntil(lambda: pane.find_status.text() != "" and not pane.finder.searching, timeout=WAIT_MS)
    assert pane.find_status.text() == "no match" and "plumbing" not in tab.status.text()
    held.set()
    qtbot.waitUntil(lambda: tab.timeline.rowCount() == grown, timeout=WAIT_MS)
    # (a Find asked again meanwhile, by a live read of the grown run, answers on its reader thread)
    qtbot.waitUntil(lambda: pane.find_status.text() == "1 of 1", timeout=WAIT_MS)
    assert _step_at(tab, tab.timeline_view.currentIndex().row()) == added[6]


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_heading_of_a_growing_long_run_counts_the_rows_it_shows_until_they_are_laid_out_anew(
        qtbot, make_window, language) -> None:
    """While the grown run was laid out anew, the heading put the old rows beside the new count of its steps:
    "5,100 of 6,222 steps shown (102 plumbing hidden)" (102 of them hidden, not 1,122). It says the rows shown and
    the count they were laid out from until the new rows arrive, then theirs."""
    tab, run_id, uid, steps = _long_run_shown(qtbot, make_window, AT_ONCE_STEPS + 100, plumbing=True)
    pane = tab.timeline_pane
    heading = {"en": "Run {id}: a long agent run — running; {shown} of {count} steps shown ({hidden} plumbing hidden)",
               "de": "Lauf {id}: a long agent run — läuft; {shown} von {count} Schritten ({hidden} Infrastruktur-Spans "
                     "ausgeblendet)"}[language]

    def said(shown: int, count: int, hidden: int) -> str:
        return heading.format(id=run_id, shown=format_number(shown), count=format_number(count),
                              hidden=format_number(hidden))

    held = threading.Event()
    pane.model._layouts._asked.reads._store.db.conn.set_progress_handler(lambda: held.wait(WAIT_MS / 1000) and 0,
                                                                        1_000)  # the layout reader's, held
    switch_language(language)
    try:
        before = said(AT_ONCE_STEPS + 100, steps, steps - AT_ONCE_STEPS - 100)
        assert pane.heading.text() == before
        with RunStore.open(resolve_db_path()) as writer:  # another connection: the run's writer goes on
            writer.append_steps(run_id, joined_steps(uid, steps + 1, 1_000, T0 + timedelta(seconds=10),
                                                     plumbing=True))
            grown = writer.count_steps(run_id)
        qtbot.waitUntil(lambda: pane.model.relaying, timeout=WAIT_MS)  # the window read the growth: laid out anew
        qtbot.wait(200)  # (and any read of the run after it)
        assert tab.timeline.rowCount() == AT_ONCE_STEPS + 100  # the old rows meanwhile
        assert pane.heading.text() == before  # was "5,100 of 6,222 steps shown (102 plumbing hidden)"
        save(pane, f"timeline-relaid-heading-{language}")
        held.set()
        qtbot.waitUntil(lambda: tab.timeline.rowCount() == AT_ONCE_STEPS + 1_100, timeout=WAIT_MS)
        assert pane.heading.text() == said(AT_ONCE_STEPS + 1_100, grown, grown - AT_ONCE_STEPS - 1_100)
    finally:
        held.set()
        switch_language("en")
