"""The run list and timeline models: qtmodeltester, outcome words/icons/colours, paging, filters."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from inspector.gui.runs.runs_model import RunIdRole, RunListModel
from inspector.gui.runs.timeline_model import (
    COLUMNS,
    OUTCOME_COLUMN,
    WATERFALL_COLUMN,
    OutcomeRole,
    TimelineModel,
    WaterfallRole,
)
from inspector.gui.widgets.outcomes import text_colour
from inspector.store import RunStore
from inspector.store.browse import RunFilter, StepFilter
from tests.support.sample_runs import big_run, mixed_run


@pytest.fixture
def store(tmp_path: Path, qapp) -> RunStore:
    opened = RunStore.open(tmp_path / "runs.db")
    yield opened
    opened.close()


def test_the_run_list_passes_the_model_tester_and_sorts(qtmodeltester, store: RunStore) -> None:
    first = mixed_run(store, "first")
    second = big_run(store, 50, "second")
    model = RunListModel(store)
    model.refresh()
    qtmodeltester.check(model)
    assert [model.index(row, 0).data(RunIdRole) for row in range(2)] == [second, first]
    model.sort(2, Qt.SortOrder.AscendingOrder)  # by title
    assert [model.index(row, 2).data() for row in range(2)] == ["first", "second"]
    model.set_filter(RunFilter(statuses=("cancelled",)))
    assert model.rowCount() == 1 and model.index(0, 3).data() == "cancelled"
    assert model.index(0, 3).data(Qt.ItemDataRole.ForegroundRole) == text_colour("cancelled")
    assert not model.index(0, 3).data(Qt.ItemDataRole.DecorationRole).isNull()
    qtmodeltester.check(model)


def test_each_outcome_has_its_word_icon_and_colour_and_none_has_none(qtmodeltester, store: RunStore) -> None:
    run_id = mixed_run(store)
    model = TimelineModel(store)
    model.set_run(store.get_run(run_id))
    qtmodeltester.check(model)
    expected = ["", "ok", "failed", "", "cancelled", ""]
    icons = []
    for row, outcome in enumerate(expected):
        cell = model.index(row, OUTCOME_COLUMN)
        assert cell.data(OutcomeRole) == outcome
        assert cell.data() == outcome  # the word (English)
        assert cell.data(Qt.ItemDataRole.AccessibleTextRole) == outcome
        if outcome:
            assert cell.data(Qt.ItemDataRole.ForegroundRole) == text_colour(outcome)
            icon = cell.data(Qt.ItemDataRole.DecorationRole)
            assert not icon.isNull()
            icons.append(icon.pixmap(16, 16).toImage())
        else:
            assert cell.data(Qt.ItemDataRole.ForegroundRole) is None
            assert cell.data(Qt.ItemDataRole.DecorationRole) is None
    assert len({image.cacheKey() for image in icons}) == 3 and icons[0] != icons[1] != icons[2] != icons[0]
    hang = model.index(4, COLUMNS.index("details")).data()
    assert hang.startswith("hang: cancelled in flight")
    offset, duration, outcome, span = model.index(4, WATERFALL_COLUMN).data(WaterfallRole)
    assert (offset, duration, outcome, span) == (1.2, 4.143, "cancelled", 5.7)


def test_cancelled_is_never_in_the_failed_filter_nor_the_reverse(store: RunStore) -> None:
    run_id = mixed_run(store)
    model = TimelineModel(store)
    model.set_run(store.get_run(run_id), StepFilter(outcomes=("failed",)))
    assert [model.index(row, OUTCOME_COLUMN).data(OutcomeRole) for row in range(model.rowCount())] == ["failed"]
    model.set_filter(StepFilter(outcomes=("cancelled",)))
    assert [model.index(row, OUTCOME_COLUMN).data(OutcomeRole) for row in range(model.rowCount())] == ["cancelled"]
    model.set_filter(StepFilter(outcomes=("",)))
    assert model.rowCount() == 3


def test_the_timeline_model_passes_the_tester_while_pages_are_read(qtmodeltester, store: RunStore) -> None:
    from datetime import timedelta

    from inspector.runs import RunStep, StepKind
    from tests.support.sample_runs import T0

    run_id = big_run(store, 2_000)
    model = TimelineModel(store, page_size=50, cached_pages=4)
    model.set_run(store.get_run(run_id))
    assert model.rowCount() == 2_000 and model.pages_read == 0
    qtmodeltester.check(model)  # the tester stays attached and checks every signal from now on
    details = COLUMNS.index("details")
    for row in (1_999, 0, 1_000, 733, 1_949):  # pages read and evicted while it watches (no cancels)
        assert model.index(row, details).data().endswith(f" {row}")
    assert model.pages_read >= 5 and model.cached_rows <= 4 * 50
    # The run grows (a live run): new steps arrive as inserted rows, the tester checks the signals.
    store.append_steps(run_id, [(RunStep(kind=StepKind.LLM, round=9, duration_ms=1.0, content=f"late {n}"),
                                 T0 + timedelta(seconds=30 + n)) for n in range(3)])
    with_inserts = []
    model.rowsInserted.connect(lambda parent, first, last: with_inserts.append((first, last)))
    model.refresh(store.get_run(run_id))
    assert with_inserts == [(2_000, 2_002)]
    assert model.index(2_002, details).data() == "late 2"
    qtmodeltester.check(model)


def test_an_unfinished_step_is_not_stretched(store: RunStore) -> None:
    from datetime import timedelta

    from inspector.runs import RunStep, StepKind
    from tests.support.sample_runs import T0

    run_id = store.start_run("otlp", "imported", None, started_at=T0)
    store.append_step(run_id, RunStep(kind=StepKind.TOOL, round=0, duration_ms=0, tool_name="slow",
                                      tool_result="unfinished: the span has no end time",
                                      raw={"otlp": {"unfinished": True}}), T0 + timedelta(seconds=1))
    store.finish_run(run_id, "interrupted", T0 + timedelta(seconds=2))
    model = TimelineModel(store)
    model.set_run(store.get_run(run_id))
    assert model.index(0, COLUMNS.index("duration")).data() == "unfinished"
    assert model.index(0, WATERFALL_COLUMN).data(WaterfallRole)[1] is None
    assert model.index(0, OUTCOME_COLUMN).data() == "not recorded"  # a call the span never ended: never blank


def test_the_waterfall_cell_speaks_what_it_draws(store: RunStore) -> None:
    run_id = mixed_run(store)
    model = TimelineModel(store)
    model.set_run(store.get_run(run_id))
    assert model.index(4, WATERFALL_COLUMN).data() is None  # a picture, no text drawn over it
    assert model.index(4, WATERFALL_COLUMN).data(Qt.ItemDataRole.AccessibleTextRole) == \
        "starts at 1.2 s of 5.7 s, lasts 4.1 s"


def many_runs(store: RunStore, count: int) -> list[int]:
    """``count`` small runs, one a minute apart (written in one transaction)."""
    from datetime import timedelta

    from tests.support.sample_runs import T0

    with store.transaction():
        return [store.insert_run(f"run {n}", "imported", None, T0 + timedelta(minutes=n), None, "ok", None,
                                 finished_at=T0 + timedelta(minutes=n, seconds=1)) for n in range(count)]


def test_the_run_list_reads_runs_in_pages_and_finds_one_far_down(qtmodeltester, store: RunStore) -> None:
    ids = many_runs(store, 1_234)
    model = RunListModel(store, page_size=100)
    model.refresh(reset=True)
    assert model.rowCount() == 100 and model.canFetchMore()
    model.fetchMore()
    assert model.rowCount() == 200 and model.run(0).id == ids[-1]  # newest first
    qtmodeltester.check(model)  # fetches more itself; attached from here on: the loads below are checked too
    assert model.canFetchMore()
    oldest = model.ensure_loaded(ids[0])
    assert oldest == 1_233 and model.run(oldest).id == ids[0] and not model.canFetchMore()
    assert len(model.run_ids()) == 1_234  # the listed runs, loaded or not (for an export)
    model.sort(0, Qt.SortOrder.AscendingOrder)
    assert model.rowCount() < 1_234 and model.run(0).id == ids[0]  # read anew in the new order
    model.set_filter(RunFilter(text="run 12"))  # run 12 and run 120..129 and run 1200..1233
    assert model.rowCount() == 1 + 10 + 34
    assert model.ensure_loaded(ids[5]) is None
