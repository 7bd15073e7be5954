"""The run list's Delete… button follows what is selected, also when a filter hides the selection."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.gui.runs.run_list import RunListPane
from inspector.store import RunStore


@pytest.fixture
def pane(qtbot, tmp_path: Path):
    store = RunStore.open(tmp_path / "runs.db")
    ids = {}
    for title, status in (("the good one", "ok"), ("the broken one", "failed")):
        run = store.start_run(title, "live", "http://127.0.0.1:1/mcp")
        store.finish_run(run, status)
        ids[status] = run
    pane = RunListPane(store)
    qtbot.addWidget(pane)
    pane.reload()
    pane.show()
    qtbot.waitExposed(pane)
    pane.ids = ids
    yield pane
    store.close()


def choose_outcome(pane: RunListPane, status: str) -> None:
    pane.outcome_filter.setCurrentIndex(pane.outcome_filter.findData(status))


def test_a_filter_that_hides_the_selected_run_leaves_delete_disabled(qtbot, pane) -> None:
    assert not pane.delete_button.isEnabled()
    assert pane.select_runs([pane.ids["failed"]])
    assert pane.delete_button.isEnabled()
    choose_outcome(pane, "ok")  # the selected failed run is no longer listed
    qtbot.waitUntil(lambda: pane.model.rowCount() == 1)
    assert pane.selected_run_ids() == []
    assert not pane.delete_button.isEnabled()  # a button that would do nothing is not offered


def test_a_filter_that_keeps_the_selected_run_keeps_delete_enabled(qtbot, pane) -> None:
    assert pane.select_runs([pane.ids["failed"]])
    choose_outcome(pane, "failed")
    qtbot.waitUntil(lambda: pane.model.rowCount() == 1)
    assert pane.selected_run_ids() == [pane.ids["failed"]]
    assert pane.delete_button.isEnabled()
