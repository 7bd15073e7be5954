"""How a failed run's calls failed, named beside its status where every failed call ended the same way its
stored steps tell (timed out, not sent), else the counts alone; in English and German; a page of runs
asked for in a few statements, not one per run (real SQLite)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from inspector.i18n import set_language
from inspector.i18n.recovery import status_with_recovery
from inspector.i18n.words import outcome_word
from inspector.runs import Leg, RunTrace, ToolResult
from inspector.store import RunStore
from inspector.store.recovery import page_reasons
from inspector.transfer import import_trace
from tests.support.sample_runs import T0

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "otel"

TIMED_OUT = Leg("tools/call", 2, 2000.0, None, "failed")
NOT_SENT = Leg("tools/call", None, None, None, "not_sent")
TOOL_ERROR = Leg("tools/call", 20, 12.0, 200, "ok")
ANSWERED = Leg("tools/call", 20, 12.0, 200, "ok")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RunStore]:
    opened = RunStore.open(tmp_path / "runs.db")
    yield opened
    opened.close()


def _run(store: RunStore, calls: list[tuple[bool, Leg]]) -> int:
    """A failed live run of these calls (each failed or not, with its one leg)."""
    trace = RunTrace()
    steps = [trace.record_tool_result(1, "tool", {}, ToolResult.error("no") if failed else ToolResult.text("yes"),
                                      10.0, legs=(leg,)) for failed, leg in calls]
    run_id = store.start_run("tools/call tool", "live", "http://127.0.0.1:8765/mcp", started_at=T0)
    store.append_steps(run_id, [(step, T0 + timedelta(seconds=number)) for number, step in enumerate(steps)])
    store.finish_run(run_id, "failed")
    return run_id


@pytest.mark.parametrize(("language", "said"), [
    ("en", ["failed (2 of 3 tool calls timed out)", "failed (all 2 tool calls failed)",
            "failed (all 2 tool calls were not sent)", "failed (1 of 2 tool calls was not sent)",
            "failed (the tool call failed)"]),
    ("de", ["fehlgeschlagen (Zeitüberschreitung bei 2 von 3 Tool-Aufrufen)",
            "fehlgeschlagen (alle 2 Tool-Aufrufe schlugen fehl)",
            "fehlgeschlagen (alle 2 Tool-Aufrufe wurden nicht gesendet)",
            "fehlgeschlagen (1 von 2 Tool-Aufrufen wurde nicht gesendet)",
            "fehlgeschlagen (der Tool-Aufruf schlug fehl)"]),
])
def test_the_reason_names_how_the_calls_failed_where_they_all_failed_alike(store: RunStore, language: str,
                                                                           said: list[str]) -> None:
    run_ids = [_run(store, [(True, TIMED_OUT), (False, ANSWERED), (True, TIMED_OUT)]),
               _run(store, [(True, TIMED_OUT), (True, TOOL_ERROR)]),  # two ways: the counts alone
               _run(store, [(True, NOT_SENT), (True, NOT_SENT)]),
               _run(store, [(True, NOT_SENT), (False, ANSWERED)]),
               _run(store, [(True, TOOL_ERROR)])]
    runs = [store.get_run(run_id) for run_id in run_ids]
    asked: list[str] = []
    store.db.conn.set_trace_callback(asked.append)
    try:
        reasons = page_reasons(store, runs)
    finally:
        store.db.conn.set_trace_callback(None)
    assert len(asked) <= 3, asked  # the page at once: answered runs, failed calls, how they ended
    set_language(language)
    try:
        assert [status_with_recovery(outcome_word("failed"), reasons[run_id].said()) for run_id in run_ids] == said
    finally:
        set_language("en")


def test_a_payload_sqlite_cannot_read_names_no_kind_and_breaks_nothing(store: RunStore) -> None:
    run_id = _run(store, [(True, TOOL_ERROR), (True, TIMED_OUT)])
    store.db.conn.execute("UPDATE steps SET payload = '{\"raw\": ' WHERE run_id = ? AND sequence = 1", (run_id,))
    [reason] = page_reasons(store, [store.get_run(run_id)]).values()
    assert reason.said() == (2, 2, False, None, 0, 0)


@pytest.mark.parametrize("fixture", ["openai_agents_openinference.jsonl", "openai_agents_traceloop.jsonl"])
@pytest.mark.parametrize(("language", "timed_out", "failed"), [
    ("en", "failed (the tool call timed out)", "failed (the tool call failed)"),
    ("de", "fehlgeschlagen (Zeitüberschreitung beim Tool-Aufruf)", "fehlgeschlagen (der Tool-Aufruf schlug fehl)"),
])
def test_a_wrapping_tool_span_that_failed_over_a_call_that_timed_out_reads_timed_out(
        store: RunStore, fixture: str, language: str, timed_out: str, failed: str) -> None:
    """Recorded traces of an agent whose tool span wraps the SDK's call of the same tool: ``slow``'s call
    timed out (its step "failed: timed out"), the agent's span over it failed with words of its own ("Error
    running tool"); that is one call, and it timed out. ``fail``'s call failed, and says only that."""
    import_trace(store, FIXTURES / fixture)
    runs = [run for run in store.list_runs(limit=None) if run.status == "failed"]
    reasons = page_reasons(store, runs)
    said: dict[str, str] = {}
    set_language(language)
    try:
        for run in runs:
            tools = {step.payload.get("toolName") for step in store.iter_steps(run.id)
                     if step.outcome == "failed" and step.payload.get("kind") == "tool"}
            (tool,) = tools
            said[tool] = status_with_recovery(outcome_word("failed"), reasons[run.id].said())
    finally:
        set_language("en")
    assert said == {"slow": timed_out, "fail": failed}


def test_a_span_of_another_tool_over_a_call_that_timed_out_is_a_call_of_its_own(store: RunStore) -> None:
    """An agent's tool ``plan`` that failed over an MCP call ``slow`` that timed out: two calls, and only
    one of them timed out, so the reason names no kind (as the counts say two failed calls)."""
    run_id = _run(store, [(True, TOOL_ERROR), (True, TIMED_OUT)])
    outer, inner = [step.id for step in store.iter_steps(run_id)]
    for step_id, marks in ((outer, {"spanId": "a" * 16, "parentSpanId": "c" * 16}),
                           (inner, {"spanId": "b" * 16, "parentSpanId": "a" * 16})):
        store.db.conn.execute("UPDATE steps SET payload = json_set(payload, '$.raw', json(?), '$.toolName', ?) "
                              "WHERE id = ?", (json.dumps({"otlp": marks}), "plan" if step_id == outer else "slow",
                                               step_id))
    [reason] = page_reasons(store, [store.get_run(run_id)]).values()
    assert reason.said() == (2, 2, False, None, 0, 0)
    store.db.conn.execute("UPDATE steps SET payload = json_set(payload, '$.toolName', 'slow') WHERE id = ?", (outer,))
    [reason] = page_reasons(store, [store.get_run(run_id)]).values()
    assert reason.said()[3] == "timed_out"  # the same tool: one call, and it timed out
