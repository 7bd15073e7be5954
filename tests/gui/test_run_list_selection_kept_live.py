"""The runs selected stay selected, every one, when a run is written above them: the list read again (a live
read, or a read after a note, a delete, an import) read as many rows as it had (and a page past the current
run), so the last rows read moved below them and were selected no more; Export or Delete of the selected
runs then left them out. A real database written by another connection, the real window's live reads."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from inspector.gui.runs.row_selection import select_rows
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_run_list_many_selected import shown_pane
from tests.gui.test_runs_models import many_runs
from tests.support.sample_runs import T0

RUNS = 1_200  # more than the rows read: a page (500), or two once scrolled down


def _newer_run(path: Path | str) -> int:
    with RunStore.open(path) as other:
        run = other.start_run("newer", "live", None, started_at=T0 + timedelta(days=1))
        other.finish_run(run, "ok")
        return run


def test_a_read_again_keeps_the_last_rows_selected(qtbot, tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    store = RunStore.open(path)
    many_runs(store, RUNS)
    pane = shown_pane(qtbot, store)
    rows = pane.model.rowCount()
    assert rows < RUNS
    # A click on the last row read, a shift-click five rows up: that one current.
    select_rows(pane.view, pane.model, range(rows - 5, rows), rows - 5)
    selected = pane.selected_run_ids()
    _newer_run(path)
    pane.reload()  # as after a note written, a delete, an import
    assert len(selected) == 5 and sorted(pane.selected_run_ids()) == sorted(selected)
    store.close()


def test_a_live_read_keeps_every_run_selected(qtbot, make_window) -> None:
    with RunStore.open(resolve_db_path()) as store:
        many_runs(store, RUNS)
    window = make_window()
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: tab.runs.rowCount() > 0, timeout=10_000)
    tab.runs.fetchMore()  # scrolled down: two pages read
    assert tab.runs.rowCount() < RUNS
    tab.run_view.setFocus()
    qtbot.keyClick(tab.run_view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    selected = tab.selected_run_ids()
    assert len(selected) == tab.runs.rowCount()
    newer = _newer_run(resolve_db_path())
    qtbot.waitUntil(lambda: tab.runs.row_of(newer) == 0, timeout=10_000)  # the live read laid out
    assert sorted(tab.selected_run_ids()) == sorted(selected)


def test_select_all_selects_every_run_listed(qtbot, tmp_path: Path) -> None:
    """Ctrl+A in a list of more runs than it read selects them all (it selected the rows read: 500 of
    1,200), in the list as filtered; Delete… then names them all."""
    store = RunStore.open(tmp_path / "runs.db")
    ids = many_runs(store, RUNS)
    with store.transaction():
        failed = ids[::2]
        store.db.conn.executemany("UPDATE runs SET status = 'failed' WHERE id = ?", [(run_id,) for run_id in failed])
    pane = shown_pane(qtbot, store)
    pane.view.setFocus()
    qtbot.keyClick(pane.view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    assert sorted(pane.selected_run_ids()) == ids and pane.delete_button.isEnabled()
    assert pane.model.rowCount() == RUNS
    pane.outcome_filter.setCurrentIndex(pane.outcome_filter.findData("failed"))
    pane.view.clearSelection()
    qtbot.keyClick(pane.view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    assert sorted(pane.selected_run_ids()) == failed
    QApplication.processEvents()  # painted before the database closes
    store.close()
