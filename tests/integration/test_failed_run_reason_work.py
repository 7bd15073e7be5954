"""How much a failed run's reason costs ``runs list`` (``inspector.store.recovery.failed_calls``): the
calls whose spans cannot change the count are counted in SQLite, so a run of thousands of tool calls
under an agent's span sends Python one row, not one per call (a run of 60,000 calls took 0.3 to 0.5 s
a listing); calls under another tool span (a wrapper, a cycle) are still read one by one and counted
as before. A real SQLite file, traces imported into it, the rows the store's connection hands back counted."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from inspector.store import RunStore
from inspector.store.browse import list_runs
from inspector.store.recovery import failed_calls
from inspector.transfer import import_trace
from tests.support.cli_process import cli_here

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"
CALLS = 3_000


def _agent_calls(path: Path, calls: int, wrapped: int = 0) -> Path:
    """One trace: an agent's span with ``calls`` MCP tool calls under it, every hundredth failed; the first
    ``wrapped`` of them each under a tool span of its own tool (FastMCP's shape: one call, counted once)."""
    trace, root = "6" * 32, "a" * 16
    spans: list[dict[str, Any]] = [{
        "traceId": trace, "spanId": root, "name": "invoke_agent support-agent", "kind": 1,
        "startTimeUnixNano": "1700000000000000000", "endTimeUnixNano": str(1_700_000_000_000_000_000 + calls * 2_000),
        "attributes": [{"key": "gen_ai.operation.name", "value": {"stringValue": "invoke_agent"}}], "status": {}}]
    for number in range(calls):
        start = 1_700_000_000_000_000_000 + number * 2_000
        parent = root
        if number < wrapped:
            parent = f"{number + 1:08x}ffffffff"
            spans.append({"traceId": trace, "spanId": parent, "parentSpanId": root, "name": "tools/call lookup",
                          "kind": 3, "startTimeUnixNano": str(start), "endTimeUnixNano": str(start + 1_500),
                          "attributes": [{"key": "mcp.method.name", "value": {"stringValue": "tools/call"}},
                                         {"key": "gen_ai.tool.name", "value": {"stringValue": "lookup"}}],
                          "status": {}})
        spans.append({"traceId": trace, "spanId": f"{number + 1:016x}", "parentSpanId": parent,
                      "name": "MCP send tools/call lookup", "kind": 3, "startTimeUnixNano": str(start + 100),
                      "endTimeUnixNano": str(start + 1_000),
                      "attributes": [{"key": "mcp.method.name", "value": {"stringValue": "tools/call"}}],
                      "status": {"code": 2, "message": "boom"} if number % 100 == 7 else {}})
    path.write_text(json.dumps({"resourceSpans": [{"resource": {"attributes": [
        {"key": "service.name", "value": {"stringValue": "agent"}}]}, "scopeSpans": [{"spans": spans}]}]}) + "\n")
    return path


class _CountedRows:
    """The store's real connection, counting the rows its statements hand back to Python."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn, self.rows = conn, 0

    def execute(self, sql: str, parameters: Any = ()) -> _Rows:
        rows = _Rows(self.conn.execute(sql, parameters).fetchall())
        self.rows += len(rows)
        return rows


class _Rows(list):
    """Rows read whole, handed back as a cursor hands them."""

    def fetchall(self) -> list[Any]:
        return list(self)

    def fetchone(self) -> Any:
        return self[0] if self else None


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Run 1: 3,000 calls under an agent's span; run 2: the same with 50 of them wrapped; then FastMCP's
    recorded trace (every call wrapped) and the mcp SDK's."""
    folder = tmp_path_factory.mktemp("reasons")
    db = folder / "runs.db"
    with RunStore.open(db) as store:
        import_trace(store, _agent_calls(folder / "calls.jsonl", CALLS))
        path = _agent_calls(folder / "wrapped.jsonl", CALLS, wrapped=50)
        path.write_text(path.read_text().replace("6" * 32, "5" * 32))  # a trace of its own
        import_trace(store, path)
        for fixture in ("fastmcp", "mcp_sdk"):
            import_trace(store, FIXTURES / f"{fixture}.jsonl")
    return db


def test_a_run_of_thousands_of_calls_under_an_agent_hands_python_one_row(database: Path) -> None:
    with RunStore.open(database) as store:
        counted = _CountedRows(store.db.conn)
        store.db.conn = counted  # type: ignore[assignment]
        [found] = failed_calls(store, [1]).values()
        assert found.said() == (CALLS // 100, CALLS, False, None, 0, 0)
        assert counted.rows <= 2, counted.rows  # was one row per call: 3,000


def test_wrapped_calls_are_read_and_counted_once_as_before(database: Path) -> None:
    with RunStore.open(database) as store:
        counted = _CountedRows(store.db.conn)
        store.db.conn = counted  # type: ignore[assignment]
        [found] = failed_calls(store, [2]).values()
        # 50 wrappers of the same tool: 50 calls, not 100; the wrapped ones (and their wrappers) are read.
        assert found.said() == (CALLS // 100, CALLS, False, None, 0, 0)
        assert counted.rows <= 1 + 2 * 50, counted.rows


def test_runs_list_says_each_runs_reason_as_before(database: Path) -> None:
    with RunStore.open(database) as store:
        failed = {run.id for run in list_runs(store) if run.status == "failed"}
    listed = cli_here("--lang", "en", "--db", str(database), "runs", "list", "--all", env={"COLUMNS": "250"}).stdout
    assert f"failed ({CALLS // 100} of {CALLS:,} tool calls failed)" in listed.splitlines()[-1]
    assert listed.count(f"failed ({CALLS // 100} of {CALLS:,} tool calls failed)") == 2
    assert listed.count("failed (2 of 4 tool calls failed, 1 not recorded)") == 2  # FastMCP's, the SDK's
    assert len(failed) == 4
