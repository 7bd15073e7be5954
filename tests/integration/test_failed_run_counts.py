"""A failed run's reason ("failed (1,001 of 1,200 tool calls failed)") says its counts with the
language's thousands separators, as every number of the window and the command line is said: a
scenario's run the model got over and a run read from a trace, in ``runs show`` (and ``runs list``,
which says a trace's), English and German."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from inspector.runs import RunStep, RunTrace, StepKind, ToolResult
from inspector.store import RunStore
from tests.support.cli_process import cli_here
from tests.support.sample_runs import T0


def many_calls_run(store: RunStore, calls: int, failed: int) -> int:
    """A scenario's run of ``calls`` tool calls, ``failed`` of them failed, then the model's answer."""
    trace = RunTrace()
    steps = [trace.record_tool_result(1, "flaky", {"n": number},
                                      ToolResult.error("no") if number < failed else ToolResult.text("yes"), 1.0)
             for number in range(calls)]
    steps.append(RunStep(kind=StepKind.LLM, round=2, duration_ms=5.0, content="the answer", finish_reason="stop"))
    run_id = store.start_run("many calls", "scenario", "http://127.0.0.1:8765/mcp", started_at=T0)
    store.append_steps(run_id, [(step, T0 + timedelta(milliseconds=number)) for number, step in enumerate(steps)])
    store.finish_run(run_id, "failed", T0 + timedelta(seconds=30))
    return run_id


def _imported_many(path: Path, calls: int, failed: int) -> Path:
    trace = "5" * 32
    spans = [{"traceId": trace, "spanId": f"{number + 1:016x}", "name": "tools/call flaky", "kind": 3,
              "startTimeUnixNano": str(1_700_000_000_000_000_000 + number * 1_000),
              "endTimeUnixNano": str(1_700_000_000_000_000_000 + number * 1_000 + 500),
              "attributes": [{"key": "mcp.method.name", "value": {"stringValue": "tools/call"}},
                             {"key": "gen_ai.tool.name", "value": {"stringValue": "flaky"}}],
              "status": {"code": 2, "message": "no"} if number < failed else {"code": 1}}
             for number in range(calls)]
    path.write_text(json.dumps({"resourceSpans": [{"resource": {"attributes": [
        {"key": "service.name", "value": {"stringValue": "many"}}]}, "scopeSpans": [{"spans": spans}]}]}) + "\n")
    return path


@pytest.mark.parametrize("source", ["scenario", "imported"])
def test_a_failed_runs_counts_have_the_languages_thousands_separators(tmp_path: Path, source: str) -> None:
    db = tmp_path / "runs.db"
    if source == "scenario":
        with RunStore.open(db) as store:
            many_calls_run(store, 1200, 1001)
        why = {"en": "failed (1,001 of 1,200 tool calls failed; the model still gave its answer)",
               "de": "fehlgeschlagen (1.001 von 1.200 Tool-Aufrufen schlugen fehl; das Modell gab trotzdem "
                     "seine Antwort)"}
    else:
        assert cli_here("--db", str(db), "import", str(_imported_many(tmp_path / "many.json", 1200, 1001))
                        ).returncode == 0
        why = {"en": "failed (1,001 of 1,200 tool calls failed)",
               "de": "fehlgeschlagen (1.001 von 1.200 Tool-Aufrufen schlugen fehl)"}
    for language in ("en", "de"):
        shown = cli_here("--lang", language, "--db", str(db), "runs", "show", "1").stdout.splitlines()
        assert why[language] in shown[1], shown[1]
        if source == "imported":  # runs list says why of a run read from a trace
            listed = cli_here("--lang", language, "--db", str(db), "runs", "list", env={"COLUMNS": "250"}).stdout
            assert why[language] in listed, listed
