"""A search on a reader thread whose read fails ends, and the Runs tab's status line says why: the run database
was damaged while the window had it open (its pages scrambled). The Runs search and Find in a long run stayed
pending for good (Find's Enter and Previous then did nothing until the text changed) and nothing said why.
Real parts: the window on a real database, its pages scrambled on disk after the reader's first answer (a
checkpoint first, so that every reader reads the file again: SQLite then meets the damage; for Find, the steps'
rows alone, which the reader reads, not the index the window counts them by)."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from inspector.gui.language import switch_language
from inspector.store import RunStore, resolve_db_path
from inspector.store.plumbing_traces import without_plumbing_traces
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_find_aside import STEPS
from tests.gui.test_runs_screenshots import runs_window
from tests.integration.test_damaged_database import PAGE, scramble_pages
from tests.support.sample_runs import big_run

TRACE = Path(__file__).resolve().parents[1] / "fixtures" / "otel" / "mcp_sdk.jsonl"
WAIT_MS = 15_000


def _damage(path: Path, table: str | None = None, kinds: tuple[str, ...] = ("leaf", "overflow")) -> None:
    """Everything written moved into the database file (the log emptied: each connection reads anew), then its
    pages from the second on scrambled (``table``: only the pages holding that table's rows, of those ``kinds``:
    ``("overflow",)``, the long texts' pages alone)."""
    conn = sqlite3.connect(path, timeout=10)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        pages = [page for (page,) in conn.execute(
            f"SELECT pageno FROM dbstat WHERE name = ? AND pagetype IN ({', '.join('?' * len(kinds))})",
            (table, *kinds))]
    finally:
        conn.close()
    if table is None:
        scramble_pages(path)
        return
    assert len(pages) > 10
    noise = random.Random(23)
    with path.open("r+b") as file:
        for page in pages:
            file.seek((page - 1) * PAGE)
            file.write(noise.randbytes(PAGE))


def test_a_search_whose_read_fails_ends_and_is_said(qtbot, make_window) -> None:
    window = runs_window(make_window)  # open first: what is stored next stays in the log until the checkpoint
    tab = window.runs_tab
    with RunStore.open(resolve_db_path()) as store:
        runs = without_plumbing_traces(store.db.conn, import_trace(store, TRACE).run_ids)[0]  # those listed
    qtbot.waitUntil(lambda: tab.runs.rowCount() == len(runs), timeout=WAIT_MS)
    tab.search.setText("TimeoutError")
    qtbot.waitUntil(lambda: tab.runs.filter.text == "TimeoutError" and tab.runs.rowCount() == 1, timeout=WAIT_MS)
    _damage(resolve_db_path())
    try:
        tab.search.setText("Timeout")
        qtbot.waitUntil(lambda: tab.status.text().startswith("The search of the runs was not done."), timeout=WAIT_MS)
        assert tab.run_list._search_reads.pending is None  # ended: the next change of the search asks again
        said = tab.status.text().replace("\u200b", "")
        assert said.startswith(f"The search of the runs was not done. The run database {resolve_db_path()} is "
                               "damaged (")
        assert tab.runs.rowCount() == 1  # the list as it was
        switch_language("de")
        assert tab.status.text().replace("\u200b", "").startswith(
            f"Die Suche in den Läufen wurde nicht ausgeführt. Die Laufdatenbank {resolve_db_path()} ist beschädigt")
    finally:
        switch_language("en")


@pytest.mark.parametrize("language", ["en", "de"])
def test_find_whose_read_fails_ends_and_enter_searches_again(qtbot, make_window, runs_tab_showing, language) -> None:
    window = runs_window(make_window)
    with RunStore.open(resolve_db_path()) as store:
        run_id = big_run(store, STEPS)
    tab = runs_tab_showing(run_id, window=window, steps=STEPS, language=language).tab
    finder = tab.timeline_pane.finder
    finder.edit.setText("result 77")
    finder.find()
    qtbot.waitUntil(lambda: not finder.searching and finder.status.text() != "", timeout=WAIT_MS)
    # The steps' words said to the end (on the window's connection, in pages) and Find's answer for them.
    qtbot.waitUntil(lambda: tab.timeline.shown_words.complete and not finder.searching, timeout=WAIT_MS)
    assert finder.status.text() == {"en": "1 of 8", "de": "1 von 8"}[language]
    # The steps' rows scrambled, not the index the window reads their count by on its own connection.
    _damage(resolve_db_path(), "steps")
    finder.edit.setText("result 1234")
    finder.find()
    assert finder.searching
    qtbot.waitUntil(lambda: not finder.searching, timeout=WAIT_MS)
    not_searched = {"en": "not searched", "de": "nicht durchsucht"}[language]
    assert finder.matches == [] and finder.status.text() == not_searched
    assert tab.timeline._matches == set()  # the rows of "result 77" no longer highlighted
    said = tab.status.text().replace("\u200b", "")
    assert said.startswith({
        "en": f"Find in this run was not done. The run database {resolve_db_path()} is damaged (",
        "de": f"Die Suche in diesem Lauf wurde nicht ausgeführt. Die Laufdatenbank {resolve_db_path()} ist beschädigt",
    }[language]), said
    finder.find_next()  # Enter: searched again (and refused again), not ignored
    assert finder.searching
    qtbot.waitUntil(lambda: not finder.searching, timeout=WAIT_MS)
    finder.find_previous()
    assert finder.status.text() == not_searched


def test_rows_whose_records_cannot_be_read_stay_empty_and_are_said(qtbot, make_window) -> None:
    """The Runs list reads a row's record when the row is first shown (a page at a time): a database damaged
    since the list was read raised in the model's ``data`` at every paint (an exception in Qt's event loop)."""
    from tests.gui.test_runs_models import many_runs

    with RunStore.open(resolve_db_path()) as store:
        many_runs(store, 400)
    window = runs_window(make_window)
    tab = window.runs_tab
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 400, timeout=WAIT_MS)
    model = tab.run_list.model
    assert model.records.read < 400  # the rows far down not read yet
    _damage(resolve_db_path(), "runs")
    tab.run_list.view.scrollToBottom()
    qtbot.waitUntil(lambda: tab.status.text().startswith("The runs list could not read its rows."), timeout=WAIT_MS)
    assert f"The run database {resolve_db_path()} is damaged" in tab.status.text().replace("\u200b", "")
    assert model.run(399) is None  # empty, not asked again at every paint
    switch_language("de")
    try:
        assert tab.status.text().startswith("Die Laufliste konnte ihre Zeilen nicht lesen.")
    finally:
        switch_language("en")


SMALL_STEPS = 600  # found on the window's own thread (at most ASIDE_STEPS), and more than ten pages of rows


def _two_small_runs(runs_tab_showing, make_window):
    """A window showing the first of two small runs (its rows and Find's words read), the second listed."""
    window = runs_window(make_window)
    with RunStore.open(resolve_db_path()) as store:
        first, second = big_run(store, SMALL_STEPS, "first"), big_run(store, SMALL_STEPS, "second")
    shown = runs_tab_showing(first, window=window, steps=SMALL_STEPS, listed=2)
    return shown.tab, second


def test_a_run_chosen_after_damage_shows_no_steps_and_is_said(qtbot, make_window, runs_tab_showing) -> None:
    """Choosing a run reads its count, span and rows on the window's thread: a database damaged since the list
    was read raised there and at every paint of its rows (an exception in Qt's event loop)."""
    tab, second = _two_small_runs(runs_tab_showing, make_window)
    _damage(resolve_db_path(), "steps")
    assert tab.select_runs([second])
    qtbot.waitUntil(lambda: tab.status.text().startswith("The timeline could not read this run's steps."),
                    timeout=WAIT_MS)
    assert f"The run database {resolve_db_path()} is damaged" in tab.status.text().replace("\u200b", "")
    assert tab.timeline_pane.empty_note.text() == "This run's steps could not be read."  # not "no steps"
    tab.timeline_view.viewport().repaint()  # painted again: not read (nor said) again
    assert all(tab.timeline.row(row) is None for row in range(tab.timeline.rowCount()))
    switch_language("de")
    try:
        assert tab.status.text().startswith("Der Verlauf konnte die Schritte dieses Laufs nicht lesen.")
        assert tab.timeline_pane.empty_note.text() == "Die Schritte dieses Laufs konnten nicht gelesen werden."
    finally:
        switch_language("en")


def test_find_in_a_small_run_after_damage_is_not_done_and_said(qtbot, make_window, runs_tab_showing) -> None:
    """Find in a short run reads its words and its matches on the window's thread: they raised there."""
    tab, _second = _two_small_runs(runs_tab_showing, make_window)
    finder = tab.timeline_pane.finder
    _damage(resolve_db_path(), "steps")
    finder.edit.setText("result 77")
    finder.find()
    assert finder.matches == [] and finder.status.text() == "not searched"
    said = tab.status.text().replace("\u200b", "")
    assert said.startswith(f"Find in this run was not done. The run database {resolve_db_path()} is damaged ("), said


def test_a_language_switch_with_find_text_after_damage_is_said(qtbot, make_window, runs_tab_showing) -> None:
    """Another language finds the text again in the new words (read on the window's thread): it raised there."""
    tab, _second = _two_small_runs(runs_tab_showing, make_window)
    finder = tab.timeline_pane.finder
    finder.edit.setText("result 77")
    finder.find()
    assert finder.status.text() == "1 of 1"
    _damage(resolve_db_path(), "steps")
    try:
        switch_language("de")
        assert finder.status.text() == "nicht durchsucht"
        said = tab.status.text().replace("\u200b", "")
        assert said.startswith("Die Suche in diesem Lauf wurde nicht ausgeführt. Die Laufdatenbank "
                               f"{resolve_db_path()} ist beschädigt"), said
    finally:
        switch_language("en")


#: More steps than are said at once (AT_ONCE_ROWS) when Find first asks.
LONG_STEPS = 10_000


def test_words_of_a_long_run_said_page_by_page_after_damage_stop_and_are_said(qtbot, make_window,
                                                                              runs_tab_showing) -> None:
    """A long run's words are said page by page between the window's events (a timer): a page whose read failed
    raised in Qt's event loop and the timer's next pages never came; now the words are dropped (said anew when
    Find asks again) and the status line says why."""
    window = runs_window(make_window)
    with RunStore.open(resolve_db_path()) as store:
        run_id = big_run(store, LONG_STEPS)
    tab = runs_tab_showing(run_id, window=window, steps=LONG_STEPS).tab
    finder, words = tab.timeline_pane.finder, tab.timeline.shown_words
    finder.edit.setText("result 77")
    finder.find()  # the first pages said now, the rest by the timer
    assert not words.complete
    _damage(resolve_db_path(), "steps")
    qtbot.waitUntil(lambda: not finder.searching and finder.status.text() == "not searched", timeout=WAIT_MS)
    qtbot.waitUntil(lambda: not words._timer.isActive(), timeout=WAIT_MS)
    assert not words.complete  # dropped, not kept half said
    assert tab.status.text().startswith("Find in this run was not done.")
