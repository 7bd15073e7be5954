"""A trace a customer sends may hold several runs: the run shown when it opens is the one that went wrong,
not the first of the file. The OpenAI Agents traces (Traceloop, OpenInference) begin with a one-step
`server/discover` run that ended ok; the runs after it failed, and the window shows the first failed one."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.store import RunStore, resolve_db_path
from inspector.store.shown_first import shown_first
from tests.gui.test_runs_screenshots import runs_window

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"


@pytest.mark.parametrize("name", ["openai_agents_traceloop.jsonl", "openai_agents_openinference.jsonl"])
def test_opening_a_trace_shows_its_first_failed_run(qtbot, make_window, name: str) -> None:
    window = runs_window(make_window)
    tab = window.runs_tab
    with qtbot.waitSignal(tab.transfer_ended, timeout=20000) as ended:
        tab.open_trace(FIXTURES / name)
    assert ended.args[:2] == ["import", "ok"]
    selected = tab.selected_run_ids()
    assert len(selected) == 5  # every run of the file stays selected (to export, compare, delete)
    run = tab.current_run()
    assert run is not None and run.status == "failed", run
    assert run.id == min(run_id for run_id in selected if tab.runs.run(tab.runs.row_of(run_id)).status == "failed")
    assert "failed" in tab.run_heading.text() and tab.timeline.rowCount() > 1


def test_without_a_failure_the_first_cancelled_then_the_first_run_is_shown(tmp_path) -> None:
    with RunStore.open(resolve_db_path(tmp_path / "runs.db")) as store:
        ids = []
        for status in ("ok", "cancelled", "ok", "cancelled"):
            run_id = store.start_run(f"run {status}", "imported")
            store.finish_run(run_id, status)
            ids.append(run_id)
        assert shown_first(store, ids) == [ids[1], ids[0], ids[2], ids[3]]
        assert shown_first(store, [ids[0], ids[2]]) == [ids[0], ids[2]]
        assert shown_first(store, []) == []
