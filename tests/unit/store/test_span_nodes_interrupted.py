"""A span tree's read broken off (the window closing during a long run's layout: ``Connection.interrupt``) ends
at once: it was taken for a payload SQLite could not parse and read again from the start, every payload checked
first, so the window's close waited for a whole second read (200,000 spans: 2.6-3.8 s). A real database; the
interrupt is SQLite's own, asked while the statement runs (from its progress handler)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from inspector.store import RunStore
from inspector.store.browse import span_nodes
from inspector.store.failure_kinds import failure_kinds
from inspector.store.recovery import failed_calls
from tests.support.long_trace import nested_run
from tests.support.sample_runs import mixed_run


def test_a_span_tree_read_interrupted_ends(tmp_path: Path) -> None:
    with RunStore.open(tmp_path / "runs.db") as store:
        run_id = nested_run(store, tmp_path, 2_000)
        assert len(span_nodes(store, run_id)) == 2_000
        conn, statements = store.db.conn, []
        conn.set_trace_callback(statements.append)
        conn.set_progress_handler(lambda: conn.interrupt(), 10_000)  # once it runs: as the window's close does
        try:
            with pytest.raises(sqlite3.OperationalError, match="interrupted"):
                span_nodes(store, run_id)
        finally:
            conn.set_progress_handler(None, 0)
            conn.set_trace_callback(None)
        assert len(statements) == 1  # not read again


@pytest.mark.parametrize("count", [failed_calls, failure_kinds], ids=["failed calls", "failure kinds"])
def test_a_run_reason_read_interrupted_ends(tmp_path: Path, count) -> None:
    """The reads of why runs failed (the Runs list says it beside a failed run) had span_nodes' catch: an interrupt
    was read again, every payload checked first (no reader of the window breaks them off yet; they share one read
    now, :mod:`inspector.store.checked_payloads`)."""
    with RunStore.open(tmp_path / "runs.db") as store:
        run_id = mixed_run(store)
        conn, statements = store.db.conn, []
        conn.set_trace_callback(statements.append)
        conn.set_progress_handler(lambda: conn.interrupt(), 1)
        try:
            with pytest.raises(sqlite3.OperationalError, match="interrupted"):
                count(store, [run_id])
        finally:
            conn.set_progress_handler(None, 0)
            conn.set_trace_callback(None)
        assert len(statements) == 1  # not read again
