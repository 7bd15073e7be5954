"""A run chosen after the run database was damaged (since the window read the list) could not be counted: the
timeline shows no rows and the status line says why, but its heading said "… — failed, 0 steps", a count it did not
know. It says that its steps could not be counted (German too), and its tooltip says the same whole.

Real parts: the window on a real database whose steps' pages are scrambled on disk after the list was read."""

from __future__ import annotations

from inspector.gui.language import switch_language
from inspector.store import resolve_db_path
from tests.gui.test_runs_reads_refused import WAIT_MS, _damage, _two_small_runs
from tests.gui.test_screenshots import save


def test_a_run_that_could_not_be_counted_says_so_not_0_steps(qtbot, make_window, runs_tab_showing) -> None:
    tab, second = _two_small_runs(runs_tab_showing, make_window)
    _damage(resolve_db_path(), "steps")
    assert tab.select_runs([second])
    qtbot.waitUntil(lambda: tab.status.text().startswith("The timeline could not read this run's steps."),
                    timeout=WAIT_MS)
    heading = tab.run_heading
    assert heading.text() == f"Run {second}: second — failed; its steps could not be counted", heading.text()
    assert "0 steps" not in heading.toolTip()
    save(tab.timeline_pane, "heading-uncounted-en")
    switch_language("de")
    try:
        assert heading.text() == f"Lauf {second}: second — fehlgeschlagen; seine Schritte konnten nicht gezählt " \
                                 "werden", heading.text()
        save(tab.timeline_pane, "heading-uncounted-de")
    finally:
        switch_language("en")
