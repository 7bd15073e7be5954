"""Whether a run is a plumbing trace is asked of every run `runs list` and the window's Runs list list or count
(inspector/store/plumbing_traces.py). Read from the payloads, the count took 0.3 s for 25,000 runs, at each read of
the window's list; the index ``steps_plumbing`` (schema version 13) holds the plumbing steps by run, and the
question is answered from it: its condition is the rule's word for word, or SQLite would not use it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.store import RunStore
from inspector.store.plumbing_traces import NOT_PLUMBING_TRACE, PLUMBING_STEP, PLUMBING_TRACE
from tests.support.older_schema import older_database

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "otel"


@pytest.fixture
def empty_store(tmp_path: Path) -> Iterator[RunStore]:
    with RunStore.open(tmp_path / "runs.db") as store:
        yield store


def _words(sql: str) -> str:
    return re.sub(r"\s+", " ", sql).strip()


def test_the_index_holds_the_plumbing_steps_by_the_rules_words(empty_store: RunStore) -> None:
    (sql,) = empty_store.db.conn.execute("SELECT sql FROM sqlite_master WHERE name = 'steps_plumbing'").fetchone()
    assert _words(sql).endswith(f"WHERE {_words(PLUMBING_STEP)}")


def test_the_question_is_answered_from_the_index(empty_store: RunStore) -> None:
    conn = empty_store.db.conn
    for condition in (PLUMBING_TRACE, NOT_PLUMBING_TRACE):
        plan = " ".join(row[-1] for row in conn.execute(f"EXPLAIN QUERY PLAN SELECT COUNT(*) FROM runs WHERE "
                                                        f"{condition}"))
        assert "USING INDEX steps_plumbing" in plan, plan


def test_a_database_of_version_12_gets_the_index_and_counts_as_before(tmp_path: Path) -> None:
    path = older_database(tmp_path / "runs.db", FIXTURES / "openlit_mcp2.jsonl", 12, ["steps_plumbing"])
    with RunStore.open(path) as store:
        assert store.db.conn.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 'steps_plumbing'").fetchone() \
            == (1,)
        assert store.count_runs(plumbing_traces=True) == 12
        assert [run.title for run in store.list_runs(plumbing_traces=False)] == ["invoke_agent support-agent"]
