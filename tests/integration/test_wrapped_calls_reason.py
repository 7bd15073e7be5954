"""A failed run's reason (``runs list``, the window's Runs list: ``failed_calls``) over runs whose tool calls
are wrapped in an agent's tool spans: the same counts as every tool step read one by one and counted by the
one rule (a call under a tool span of its own tool is that span's call), and work that grows with the calls,
not with their square (20,000 wrapped calls took 93 s a listing: each call asked SQLite for the value of a
row ``IN`` a table that may hold a NULL, which SQLite answers by scanning the table). Real SQLite files,
traces imported into them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.store import RunStore
from inspector.store.recovery import UNRECORDED, _bridged, _counted, failed_calls, page_reasons
from inspector.transfer import import_trace
from tests.support.wrapped_calls import AgentTrace, wrapped_calls, write_traces

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"


def _varied() -> list[AgentTrace]:
    """Seven runs: wrappers of the same tool and of others, nested, failed inside or outside, hostile parents."""
    mixed = AgentTrace(1)
    mixed.wrapped(["lookup", "lookup"], failed={1})  # one call, failed inside: 1 of 1
    mixed.wrapped(["lookup", "lookup"], failed={0})  # failed outside: 1 of 1
    mixed.wrapped(["lookup", "lookup"])  # 0 of 1
    mixed.wrapped(["weather", "lookup"], failed={1})  # two calls: 1 of 2
    mixed.wrapped(["weather", "lookup", "lookup"], failed={2})  # two calls: 1 of 2
    mixed.wrapped(["lookup"], failed={0})  # 1 of 1
    mixed.call("lookup", span_id="00000000000c0001", parent="00000000000c0002", failed=True)  # a cycle: 1 of 1
    mixed.call("lookup", span_id="00000000000c0002", parent="00000000000c0001")
    mixed.call("lookup", span_id="00000000000c0003", parent="00000000000c0003", failed=True)  # its own parent
    same = AgentTrace(2)
    for number in range(60):
        same.wrapped(["lookup", "lookup"], failed={1} if number % 7 == 3 else {0} if number % 11 == 5 else set())
    nested = AgentTrace(3)
    for number in range(30):  # every fourth failed: outside, innermost (under other tools), inside
        tools, level = [(["search", "search", "search"], 0), (["plan", "search", "fetch"], 2),
                        (["fetch", "fetch"], 1)][number % 3]
        nested.wrapped(tools, failed={level} if number % 4 == 0 else set())
    clean = AgentTrace(4)
    for _number in range(20):
        clean.wrapped(["lookup", "lookup"])
    plain = AgentTrace(5)
    for number in range(25):
        plain.wrapped(["echo"], failed={0} if number % 5 == 0 else set())
    others = AgentTrace(6)
    for number in range(12):
        others.wrapped(["agent_tool", "echo"], failed={number % 3} if number % 3 < 2 else set())
    deep = AgentTrace(7)  # counted as the importer left them (the outermost of three keeps its own ok)
    for number in range(16):
        deep.wrapped(["lookup"] * (2 + number % 3), failed={1 + number % 3} if number % 2 else {number % 2})
    return [mixed, same, nested, clean, plain, others, deep]


#: Each run's reason, counted by hand (the clean run has none).
EXPECTED = {1: (7, 10), 2: (13, 60), 3: (8, 50), 5: (5, 25), 6: (8, 24)}


def _one_by_one(store: RunStore, outcome: str = "failed") -> dict[int, tuple[int, int]]:
    """Every tool step of every run read into Python, in order, and counted by the rule itself: the calls
    that failed (or, ``outcome`` :data:`UNRECORDED`, recorded no outcome) and all the calls."""
    runs: dict[int, list[tuple[str, str | None, str | None, str | None, str | None, str | None]]] = {}
    plumbing: dict[int, dict[str, str]] = {}
    rows = store.db.conn.execute("SELECT run_id, kind, outcome, payload FROM steps WHERE kind IN ('tool', 'request') "
                                 "ORDER BY run_id, sequence").fetchall()
    for run_id, kind, ended, payload in rows:
        read = json.loads(payload)
        otlp = (read.get("raw") or {}).get("otlp") or {}
        if kind == "request":  # a plumbing span a call may be under (OpenLIT's between its call and the SDK's)
            if otlp.get("plumbing") is True and isinstance(otlp.get("parentSpanId"), str):
                plumbing.setdefault(run_id, {}).setdefault(otlp["spanId"], otlp["parentSpanId"])
            continue
        marks = (otlp.get("spanId"), otlp.get("parentSpanId"), read.get("toolName"),
                 (otlp.get("server") or {}).get("spanId"), otlp.get("side"))
        runs.setdefault(run_id, []).append((ended, *(mark if isinstance(mark, str) else None for mark in marks)))
    counted = {run_id: _counted(_bridged(steps, plumbing.get(run_id, {})), outcome) for run_id, steps in runs.items()}
    return {run_id: (failed, calls) for run_id, (failed, calls) in counted.items() if failed}


@pytest.fixture(scope="module")
def varied(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seven runs, then every recorded trace of tests/fixtures/otel (FastMCP's wrapped calls among them)."""
    folder = tmp_path_factory.mktemp("wrapped")
    with RunStore.open(folder / "runs.db") as store:
        import_trace(store, write_traces(folder / "varied.jsonl", _varied()))
        for fixture in sorted(FIXTURES.glob("*.jsonl")):
            import_trace(store, fixture)
    return folder / "runs.db"


def test_the_reasons_of_varied_runs_are_the_counts_of_every_call_read_one_by_one(varied: Path) -> None:
    with RunStore.open(varied) as store:
        runs = store.list_runs(limit=None)
        reasons = failed_calls(store, [run.id for run in runs])
        found = {run_id: recovery.said()[:2] for run_id, recovery in reasons.items()}
        assert {run_id: found.get(run_id) for run_id in EXPECTED} == EXPECTED
        assert 4 not in found
        assert found == _one_by_one(store)
        assert len(found) > len(EXPECTED)  # the fixtures' failed runs are counted too
        unrecorded = {run_id: recovery.said()[:2] for run_id, recovery in
                      failed_calls(store, [run.id for run in runs], UNRECORDED).items()}
        assert unrecorded == _one_by_one(store, UNRECORDED) and unrecorded  # the fixtures' calls with none
        # The page the window and runs list ask for says the same counts where the model did not answer.
        reasons = page_reasons(store, runs)
        assert {run_id: reasons[run_id].said()[:2] for run_id in EXPECTED} == EXPECTED


def _work(folder: Path, calls: int) -> int:
    """Thousands of SQLite's virtual machine steps ``failed_calls`` takes for a run of ``calls`` wrapped calls."""
    with RunStore.open(folder / f"wrapped-{calls}.db") as store:
        import_trace(store, wrapped_calls(folder / f"wrapped-{calls}.jsonl", calls))
        thousands = [0]

        def counted() -> int:
            thousands[0] += 1
            return 0

        store.db.conn.set_progress_handler(counted, 1000)
        [found] = failed_calls(store, [1]).values()
        assert found.said()[:2] == (calls // 100, calls)
        return thousands[0]


def test_the_reason_s_work_grows_as_the_wrapped_calls_do(tmp_path: Path) -> None:
    """Four times the calls: about four times the work (it was fifteen: 689 and 10,257 thousand steps)."""
    small, large = _work(tmp_path, 250), _work(tmp_path, 1000)
    assert large <= 5 * small, (small, large)
