"""A timeline column the user widened keeps its width: the Kind, Duration, Time and Outcome columns are fitted to
the words of the run shown, and a column widened by hand went back to its words' width at the next run shown (and
at a change of language). Real parts: two scenario runs played by ``run-inspector scenario`` into the test's
database, the window on them offscreen."""

from __future__ import annotations

import json

from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.gui.runs.timeline_model import COLUMNS, OUTCOME_COLUMN
from inspector.store import resolve_db_path
from tests.gui.test_timeline_large_font import timed_out_run, timeline_shown  # noqa: F401 - a fixture
from tests.support.cli_process import cli_here

KIND, DURATION = COLUMNS.index("kind"), COLUMNS.index("duration")


def test_a_column_widened_by_hand_keeps_its_width(qtbot, make_window, timed_out_run) -> None:  # noqa: F811
    done = cli_here("--lang", "en", "scenario", "flaky-server", "--json", "--db", str(resolve_db_path()))
    assert done.returncode in (0, 1), done.stderr
    flaky_run = json.loads(done.stdout)["run_id"]
    window = make_window(wait_tools=False)
    tab = timeline_shown(qtbot, window, timed_out_run, 1600, 900)
    header = tab.timeline_view.horizontalHeader()
    widened = {KIND: header.sectionSize(KIND) + 60, DURATION: header.sectionSize(DURATION) + 40,
               OUTCOME_COLUMN: header.sectionSize(OUTCOME_COLUMN) + 50}
    for column, width in widened.items():
        header.resizeSection(column, width)  # as the user's drag of its edge does
    QApplication.processEvents()
    try:
        for run_id in (flaky_run, timed_out_run):  # another run shown, then this one again
            assert tab.select_runs([run_id])
            qtbot.waitUntil(lambda run_id=run_id: tab.timeline_pane.run.id == run_id and tab.timeline.rowCount() > 0)
            tab.timeline_view.viewport().repaint()  # the cells say their words; the columns are fitted after
            QApplication.processEvents()
            assert {column: header.sectionSize(column) for column in widened} == widened
        switch_language("de")  # longer words may widen a column; none is narrower than the user made it
        QApplication.processEvents()
        assert all(header.sectionSize(column) >= width for column, width in widened.items())
    finally:
        switch_language("en")
