"""Reading the run database for the window: run lists, timeline pages, find, delete."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from inspector.runs import RunStep, StepKind
from inspector.store import RunStore, UnknownRunError
from inspector.store.browse import (
    RunFilter,
    StepFilter,
    count_timeline,
    delete_runs,
    find_in_timeline,
    list_runs,
    run_span,
    step_in_full,
    timeline_page,
    timeline_position,
)
from tests.support.sample_runs import T0, big_run, mixed_run


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    opened = RunStore.open(tmp_path / "runs.db")
    yield opened
    opened.close()


def test_run_list_filters_by_status_source_server_and_text(store: RunStore) -> None:
    mixed = mixed_run(store)
    live = store.start_run("tools/call echo", "live", "http://other/mcp", started_at=T0 + timedelta(minutes=1))
    store.finish_run(live, "ok")
    assert [run.id for run in list_runs(store)] == [live, mixed]  # newest first
    assert [run.id for run in list_runs(store, RunFilter(statuses=("cancelled",)))] == [mixed]
    assert [run.id for run in list_runs(store, RunFilter(statuses=("failed",)))] == []
    assert [run.id for run in list_runs(store, RunFilter(source="live"))] == [live]
    assert [run.id for run in list_runs(store, RunFilter(server="http://other/mcp"))] == [live]
    assert [run.id for run in list_runs(store, RunFilter(text="ECHO"))] == [live]
    assert [run.id for run in list_runs(store, RunFilter(text="%"))] == []  # a literal percent sign
    assert [run.id for run in list_runs(store, order="steps")] == [mixed, live]
    assert list_runs(store)[1].step_count == 6


def test_timeline_pages_and_outcome_filters_never_mix_cancelled_and_failed(store: RunStore) -> None:
    run_id = mixed_run(store)
    rows = timeline_page(store, run_id, 0, 100)
    assert [row.outcome for row in rows] == ["", "ok", "failed", "", "cancelled", ""]
    assert rows[4].cancelled_in_flight is True and rows[4].legs == 3
    assert "cancelled in flight" in rows[4].details
    assert [row.outcome for row in timeline_page(store, run_id, 0, 100, StepFilter(outcomes=("failed",)))] == [
        "failed"]
    assert [row.outcome for row in timeline_page(store, run_id, 0, 100, StepFilter(outcomes=("cancelled",)))] == [
        "cancelled"]
    assert count_timeline(store, run_id, StepFilter(kinds=("llm",))) == 3
    assert [row.sequence for row in timeline_page(store, run_id, 2, 2)] == [3, 4]


def test_a_steps_row_in_the_timeline_follows_the_filter(store: RunStore) -> None:
    run_id = mixed_run(store)
    rows = timeline_page(store, run_id, 0, 100)
    assert [timeline_position(store, run_id, row.id) for row in rows] == list(range(len(rows)))
    cancelled = rows[4].id
    assert timeline_position(store, run_id, cancelled, StepFilter(outcomes=("failed", "cancelled"))) == 1
    assert timeline_position(store, run_id, cancelled, StepFilter(outcomes=("failed",))) is None  # filtered out
    other = store.start_run("tools/call echo", "live", "http://other/mcp")
    assert timeline_position(store, other, cancelled) is None  # another run's step


def test_the_span_comes_from_the_run_and_its_last_steps(store: RunStore) -> None:
    run_id = mixed_run(store)
    start, end = run_span(store, store.get_run(run_id))
    assert start == T0
    assert end == T0 + timedelta(seconds=5.7)


def test_find_matches_results_arguments_and_details(store: RunStore) -> None:
    run_id = mixed_run(store)
    assert find_in_timeline(store, run_id, "DRAFT") == [1]  # the arguments of write_note
    assert find_in_timeline(store, run_id, "on purpose") == [2]
    assert find_in_timeline(store, run_id, "hang") == [0, 4]
    assert find_in_timeline(store, run_id, "hang", StepFilter(kinds=("tool",))) == [2]


def test_a_hostile_payload_is_clipped_in_its_row(store: RunStore) -> None:
    run_id = store.start_run("hostile", "imported", None, started_at=T0)
    huge = "<b>x</b>\x1b[31m" + "A" * 2_000_000
    store.append_step(run_id, RunStep(kind=StepKind.LLM, round=0, duration_ms=1.0, content=huge), T0)
    (row,) = timeline_page(store, run_id, 0, 10)
    assert len(row.details) <= 120
    full = step_in_full(store, row.id)
    assert len(full.payload_text) > 2_000_000
    assert full.result_text.startswith("<b>x</b>") and len(full.result_text) == 200_000
    assert full.result_length == len(huge) and full.arguments_json is None


def test_a_step_that_is_gone_is_unknown(store: RunStore) -> None:
    with pytest.raises(UnknownRunError):
        step_in_full(store, 12345)


def test_delete_runs_removes_steps_and_legs_and_keeps_a_running_run(store: RunStore) -> None:
    mixed = mixed_run(store)
    big = big_run(store, 1000)
    running = store.start_run("still going", "live", None)
    assert delete_runs(store, [mixed, big, running, 999]) == 2
    assert [run.id for run in list_runs(store)] == [running]
    assert store.db.conn.execute("SELECT COUNT(*) FROM steps").fetchone()[0] == 0
    assert store.db.conn.execute("SELECT COUNT(*) FROM legs").fetchone()[0] == 0


def position(store: RunStore, run_id: int, where: RunFilter | None = None, **order) -> int | None:
    """Where a run stands in a list (0 first): the ids read down to it, less one."""
    from inspector.store.browse import listed_ids_through

    ids, _more = listed_ids_through(store, [run_id], where or RunFilter(), **order)
    return ids.index(run_id) if run_id in ids else None


def test_a_runs_position_in_the_list_follows_filter_and_order(store: RunStore) -> None:
    from inspector.store.browse import listed_ids, run_ids

    first = mixed_run(store, "alpha")
    second = big_run(store, 10, "beta")  # started at T0 as well: the id breaks the tie
    assert position(store, second) == 0 and position(store, first) == 1
    assert position(store, first, order="title", descending=False) == 0
    assert position(store, first, order="steps") == 1  # beta has 10 steps, alpha 6
    assert position(store, first, RunFilter(statuses=("ok",))) is None
    assert run_ids(store) == [second, first] == listed_ids(store)
    assert listed_ids(store, order="title", descending=False) == [first, second]
    assert [run.id for run in list_runs(store, limit=1, offset=1)] == [first]


def test_the_ids_of_a_list_are_read_down_to_the_runs_wanted_and_records_by_id(store: RunStore) -> None:
    from datetime import timedelta

    from inspector.store.browse import listed_ids_through, runs_by_id
    from tests.support.sample_runs import T0

    with store.transaction():  # newest first: ids[-1] is row 0
        ids = [store.insert_run(f"run {n}", "imported", None, T0 + timedelta(minutes=n), None,
                                "failed" if n % 2 else "ok", None) for n in range(5_000)]
    newest_first = ids[::-1]
    # Past the first chunk read, from an offset, with a page more and whether more follow.
    assert listed_ids_through(store, [ids[1_000], ids[2_500]], offset=10, more=3) == (newest_first[10:4_003], True)
    assert listed_ids_through(store, [ids[2]], more=5) == (newest_first[:4_998] + [ids[1], ids[0]], False)
    assert listed_ids_through(store, [ids[2]], RunFilter(statuses=("failed",))) == ([], True)  # run 2 is ok
    assert listed_ids_through(store, [ids[2]], RunFilter(statuses=("failed",)), least=2) == (newest_first[:4:2], True)
    assert listed_ids_through(store, [ids[4_990]], more=2, least=20) == (newest_first[:20], True)
    failed = listed_ids_through(store, [ids[11], ids[2]], RunFilter(statuses=("failed",)))  # of them, 11 is listed
    assert failed == ([run_id for run_id in newest_first if run_id % 2 == ids[1] % 2][:2_495], True)
    store.db.conn.execute("DELETE FROM runs WHERE id = ?", (ids[7],))
    found = runs_by_id(store, [ids[3], ids[7], ids[9]])
    assert sorted(found) == [ids[3], ids[9]] and found[ids[9]].title == "run 9" and found[ids[9]].step_count == 0


def test_a_steps_pictures_are_read_by_sql_and_a_too_long_one_is_not_fetched(store: RunStore,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import inspector.store.browse as browse

    run_id = store.start_run("pictures", "imported", None, started_at=T0)
    artifacts = [{"name": "a.png", "mediaType": "image/png", "data": "iVBORw0KGgo="},
                 {"name": "notes.txt", "mediaType": "text/plain", "data": "text"},
                 {"name": "b.gif", "mediaType": "IMAGE/GIF", "data": "R0lGODlh" * 10},
                 {"name": "c.png", "mediaType": "image/png", "data": 42},
                 "not an artifact"]
    store.db.conn.execute("INSERT INTO steps (run_id, sequence, kind, round, duration_ms, started_at, outcome,"
                          " payload) VALUES (?, 1, 'tool', 0, 1.0, '', 'ok', ?)",
                          (run_id, json.dumps({"kind": "tool", "toolArtifacts": artifacts})))
    store.db.conn.execute("INSERT INTO steps (run_id, sequence, kind, round, duration_ms, started_at, outcome,"
                          " payload) VALUES (?, 2, 'tool', 0, 1.0, '', 'ok', ?)",
                          (run_id, '{"kind": "tool", "toolArtifacts": {"a": 1}}'))
    store.db.conn.execute("INSERT INTO steps (run_id, sequence, kind, round, duration_ms, started_at, outcome,"
                          " payload) VALUES (?, 3, 'tool', 0, 1.0, '', 'ok', 'not json')", (run_id,))
    monkeypatch.setattr(browse, "DETAIL_IMAGE_CHARS", 20)
    first, second, third = (row.id for row in timeline_page(store, run_id, 0, 10))
    assert step_in_full(store, first).images == (
        browse.StoredImage("a.png", "image/png", "iVBORw0KGgo=", 12),
        browse.StoredImage("b.gif", "IMAGE/GIF", None, 80))
    assert step_in_full(store, second).images == () and step_in_full(store, third).images == ()
