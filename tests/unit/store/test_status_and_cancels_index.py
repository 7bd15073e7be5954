"""`runs list --outcome cancelled` on 25,000 runs took 0.26 s against 0.10 s for `runs list`: SQLite read every
run's row to find those of the status (none found, the whole table read), and every step of the newest 10,000 runs
to find the line under the list's cancelled calls of runs of another status. The indexes of schema version 16,
``runs_by_status`` and ``steps_cancelled_calls`` (its condition the query's word for word, or SQLite would not use
it), answer both with a look-up."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.store import RunStore
from inspector.store.cancelled_calls import _RUNS, runs_with_cancelled_calls
from inspector.store.run_store import _RUN_COLUMNS, _run_filter
from tests.support.older_schema import older_database

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "otel"


@pytest.fixture
def empty_store(tmp_path: Path) -> Iterator[RunStore]:
    with RunStore.open(tmp_path / "runs.db") as store:
        yield store


def _plan(conn: sqlite3.Connection, sql: str, params: list | tuple) -> str:
    return " | ".join(row[-1] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}", params))


def test_the_runs_of_a_status_are_found_through_an_index(empty_store: RunStore) -> None:
    for plumbing in (None, False):
        where, params = _run_filter("cancelled", None, False, None, plumbing)
        # As list_runs and count_runs ask.
        for sql in (f"SELECT {_RUN_COLUMNS}, NULL FROM runs{where} ORDER BY started_at DESC, id DESC",
                    f"SELECT COUNT(*) FROM runs{where}"):
            plan = _plan(empty_store.db.conn, sql, params)
            assert re.search(r"SEARCH runs USING (COVERING )?INDEX runs_by_status \(status=\?\)", plan), plan
            assert "TEMP B-TREE" not in plan, plan  # newest first as the index keeps them


def test_the_cancelled_calls_are_found_through_an_index(empty_store: RunStore) -> None:
    plan = _plan(empty_store.db.conn, _RUNS, (10_000,))
    assert "SEARCH steps USING INDEX steps_cancelled_calls (run_id=?)" in plan, plan


def test_a_database_of_version_15_gets_the_indexes_and_finds_as_before(tmp_path: Path) -> None:
    """Logfire's trace of the support agent: a run failed, with a call cancelled by its deadline."""
    path = older_database(tmp_path / "runs.db", FIXTURES / "logfire.jsonl", 15,
                          ["runs_by_status", "steps_cancelled_calls"])
    with RunStore.open(path) as store:
        conn = store.db.conn
        assert conn.execute("SELECT COUNT(*) FROM sqlite_master WHERE name IN ('runs_by_status', "
                            "'steps_cancelled_calls')").fetchone() == (2,)
        found = runs_with_cancelled_calls(store)
        assert (found.count, found.newest) == (1, (1,))
        assert [run.id for run in store.list_runs(outcome="failed")] == [1]
        assert store.list_runs(outcome="cancelled") == []
