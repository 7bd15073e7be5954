"""A text pasted into the Runs list's search that SQLite could not look for (a LIKE pattern of over 50,000 bytes:
30,000 "%" or "_", each escaped, or thousands of characters of three and four bytes) is cut to the longest a search
looks for (``MAX_SEARCH_CHARS``): the list answers, with no run found, and lists every run again once the search is
cleared (the search failed in its reader and the list stayed as it was). A real window on a real database."""

from __future__ import annotations

from inspector.store.find_text import MAX_SEARCH_CHARS
from tests.gui.test_runs_find_said import traceloop_run_shown


def test_a_search_too_long_for_sqlite_is_cut_and_lists_no_run(qtbot, make_window) -> None:
    tab = traceloop_run_shown(qtbot, make_window)
    listed = tab.runs.rowCount()
    assert listed >= 1
    for pasted in ("%" * 30_000, "_" * 30_000, "漢" * 20_000, "\U0001d538" * 16_000):
        tab.search.setText(pasted)
        assert 0 < len(tab.search.text()) <= MAX_SEARCH_CHARS  # (Qt counts UTF-16 units: 5,000 of the last)
        qtbot.waitUntil(lambda: tab.runs.rowCount() == 0, timeout=20_000)
        tab.search.setText("")
        qtbot.waitUntil(lambda: tab.runs.rowCount() == listed, timeout=20_000)
