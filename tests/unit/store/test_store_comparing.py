"""Two stored runs compared, on a real SQLite file: runs of ours, and runs imported from OTLP."""

from __future__ import annotations

import tracemalloc
from datetime import timedelta
from pathlib import Path

import pytest

from inspector.runs import Leg, RunStep, RunTrace, StepKind, ToolResult
from inspector.runs.comparing import Difference
from inspector.store import RunStore, UnknownRunError
from inspector.store.comparing import compare_stored_runs, run_step_facts
from inspector.transfer.exporting import export
from inspector.transfer.importing import import_trace
from tests.support.sample_runs import T0, mixed_run

OTEL = Path(__file__).resolve().parents[2] / "fixtures" / "otel"


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    opened = RunStore.open(tmp_path / "runs.db")
    yield opened
    opened.close()


def played_again(store: RunStore) -> int:
    """The run of sample_runs.mixed_run played again: the hang answered this time (ok, after 6.3 s),
    `fail` was retried and then worked, and the model's last step is not there."""
    trace = RunTrace()
    steps = [
        (RunStep(kind=StepKind.LLM, round=1, duration_ms=380.0, content="plan: write a note, then call hang"), 0.0),
        (trace.record_tool_result(1, "write_note", {"text": "draft"}, ToolResult.text("saved note 1"), 14.0,
                                  legs=(Leg("tools/call", 20, 14.0, 200, "ok"),)), 0.5),
        (trace.record_tool_result(1, "fail", {}, ToolResult.error("the tool failed on purpose"), 2_130.0,
                                  legs=(Leg("tools/call", 19, 2_130.0, 200, "ok"),)), 0.6),
        (trace.record_tool_result(1, "fail", {"again": True}, ToolResult.text("it worked"), 31.0), 2.8),
        (RunStep(kind=StepKind.LLM, round=2, duration_ms=300.0, content="now the service that never answers"), 2.9),
        (trace.record_tool_result(2, "hang", {"seconds": 60}, ToolResult.text("answered at last"), 6_300.0), 3.0),
    ]
    run_id = store.start_run("user-cancels", "scenario", "http://127.0.0.1:8765/mcp", started_at=T0)
    store.append_steps(run_id, [(step, T0 + timedelta(seconds=offset)) for step, offset in steps])
    store.finish_run(run_id, "ok", T0 + timedelta(seconds=9.3))
    return run_id


def test_two_stored_runs_are_aligned_and_their_differences_marked(store: RunStore) -> None:
    first, second = mixed_run(store), played_again(store)
    comparison = compare_stored_runs(store, first, second)
    rows = [(row.first and (row.first.round, row.first.name or row.first.kind),
             row.second and (row.second.round, row.second.name or row.second.kind), sorted(row.differences))
            for row in comparison.rows]
    assert rows == [
        ((1, "llm"), (1, "llm"), []),
        ((1, "write_note"), (1, "write_note"), []),
        ((1, "fail"), (1, "fail"), ["slower"]),
        (None, (1, "fail"), ["only_second"]),
        ((2, "llm"), (2, "llm"), []),
        ((2, "hang"), (2, "hang"), ["outcome"]),  # cancelled → ok: not "slower" too, nor "another result"
        ((3, "llm"), None, ["only_first"]),
    ]
    summary = comparison.summary
    assert (summary.alike, summary.slower, summary.slower_ms) == (3, 1, 2_100.0)
    assert summary.outcome_changes == {("cancelled", "ok"): 1}
    assert (summary.only_first, summary.only_second, summary.arguments, summary.results) == (1, 1, 0, 0)
    # The rows point back at the stored steps (the window reads them whole).
    assert [row.first.sequence for row in comparison.rows if row.first] == [1, 2, 3, 4, 5, 6]
    assert all(row.first.step_id > 0 for row in comparison.rows if row.first)


def test_a_run_compared_with_itself_is_alike(store: RunStore) -> None:
    run_id = mixed_run(store)
    comparison = compare_stored_runs(store, run_id, run_id)
    assert comparison.summary.alike == 6 and all(row.alike for row in comparison.rows)


def test_an_unknown_run_is_refused(store: RunStore) -> None:
    run_id = mixed_run(store)
    with pytest.raises(UnknownRunError):
        compare_stored_runs(store, run_id, 99)


def test_a_run_exported_as_otlp_and_imported_compares_alike_with_its_original(store: RunStore,
                                                                             tmp_path: Path) -> None:
    original = mixed_run(store)
    export(store, [original], None, tmp_path / "run.otlp.json", format="otlp")
    with RunStore.open(tmp_path / "other.db") as other:
        (imported,) = import_trace(other, tmp_path / "run.otlp.json").run_ids
        back = run_step_facts(other, imported)
    mine = run_step_facts(store, original)
    assert [(step.kind, step.round, step.name, step.outcome) for step in back] == [
        (step.kind, step.round, step.name, step.outcome) for step in mine]


def test_imported_traces_without_rounds_align_by_order_and_span_name(store: RunStore) -> None:
    (sdk, *_rest) = import_trace(store, OTEL / "mcp_sdk.jsonl").run_ids
    (traceloop,) = import_trace(store, OTEL / "traceloop.jsonl").run_ids
    assert not store.has_rounds(sdk) and not store.has_rounds(traceloop)
    comparison = compare_stored_runs(store, sdk, traceloop)
    paired = [(row.first.kind, row.first.name, row.first.outcome, row.second.outcome)
              for row in comparison.rows if row.first and row.second]
    assert paired == [("request", "invoke_agent support-agent", "", ""), ("tool", "lookup", "ok", "ok"),
                      ("tool", "fail", "failed", "failed"), ("tool", "slow", "failed", "failed"),
                      ("tool", "slow", "", "")]
    assert all(step.round is None for row in comparison.rows for step in (row.first, row.second) if step)
    # The SDK's own spans (initialize, tools/list) and Traceloop's (initialize.mcp, tools/list.mcp) are rows
    # of their own; Traceloop's stream writers are plumbing, left out as `runs show` leaves them out, and counted.
    assert comparison.summary.only_first == 2 and comparison.summary.only_second == 2
    assert comparison.hidden_plumbing == (0, 7)
    assert "ResponseStreamWriter" not in {step.name for row in comparison.rows for step in (row.first, row.second)
                                          if step}
    assert Difference.FASTER in comparison.rows[0].differences
    # Asked for, they are compared too (each a row only the Traceloop run has), and nothing is hidden.
    whole = compare_stored_runs(store, sdk, traceloop, show_plumbing=True)
    assert (whole.summary.only_first, whole.summary.only_second, whole.hidden_plumbing) == (2, 9, (0, 0))
    swapped = compare_stored_runs(store, traceloop, sdk)
    assert swapped.hidden_plumbing == (7, 0) and swapped.summary.only_first == 2


def test_a_run_of_large_steps_is_read_a_few_megabytes_at_a_time(store: RunStore) -> None:
    """A scenario's model step holds the conversation so far: a 1,500-round run's are 700 kB each, and
    reading them 1,000 rows at a time took 2.3 GB to compare two such runs. Now the text read at once
    is bounded by its bytes; here 100 steps of 400 kB (a 40 MB run) peaked at 77 MB, now at 11."""
    steps = [(RunStep(kind=StepKind.LLM, round=index, duration_ms=1.0, content=f"{index} " + "x" * 400_000),
              T0 + timedelta(seconds=index)) for index in range(1, 101)]
    run_id = store.start_run("long", "scenario", None, started_at=T0)
    store.append_steps(run_id, steps)
    tracemalloc.start()
    try:
        facts = run_step_facts(store, run_id)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [fact.round for fact in facts] == list(range(1, 101))
    assert len({fact.result_digest for fact in facts}) == 100
    assert peak < 15 * 1024 * 1024, peak
