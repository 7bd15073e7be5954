"""A failed run read from a trace says apart its tool calls with no outcome recorded, as it says its cancelled
ones: the mcp SDK's stateless trace (tests/fixtures/otel/mcp_sdk_stateless.jsonl) has 9 calls, 2 failed and 6
whose client stopped waiting and recorded nothing. Its status read "failed (2 of 9 tool calls failed)", which a
support engineer took to mean that the other 7 worked, while an ok run with such a call said so ("ok (the tool
call has no outcome recorded)"). The same words in `runs list`, `runs show`, `compare` and the window (which
read them from one place, :func:`inspector.store.recovery.page_reasons`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.i18n.recovery import recovery_text
from inspector.store import RunStore
from inspector.store.recovery import page_reasons
from inspector.transfer.importing import import_trace
from tests.support.cli_process import cli_here

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"
SAID = {"en": "failed (2 of 9 tool calls failed, 6 not recorded)",
        "de": "fehlgeschlagen (2 von 9 Tool-Aufrufen schlugen fehl, 6 nicht erfasst)"}


@pytest.fixture
def stateless(tmp_path: Path) -> tuple[str, int]:
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        [run_id] = import_trace(store, FIXTURES / "mcp_sdk_stateless.jsonl").run_ids
        calls = [step.outcome for step in store.iter_steps(run_id) if step.payload["kind"] == "tool"]
        assert sorted(calls) == ["", "", "", "", "", "", "failed", "failed", "ok"]  # as the trace recorded them
        assert page_reasons(store, [store.get_run(run_id)])[run_id].said() == (2, 9, False, None, 0, 6)
    return str(db), run_id


@pytest.mark.parametrize("language", ["en", "de"])
def test_runs_show_and_runs_list_say_the_calls_with_no_outcome_recorded(stateless, language: str) -> None:
    db, run_id = stateless
    shown = cli_here("--lang", language, "--db", db, "runs", "show", str(run_id)).stdout.splitlines()
    assert f" {SAID[language]}, " in shown[1], shown[1]
    listed = cli_here("--lang", language, "--db", db, "runs", "list", env={"COLUMNS": "250"}).stdout
    assert f"  {SAID[language]}  " in listed, listed


def test_they_are_said_after_the_cancelled_ones_and_before_the_models_answer() -> None:
    assert recovery_text(2, 4, False, None, 1, 1) == "2 of 4 tool calls failed, 1 cancelled, 1 not recorded"
    assert recovery_text(1, 3, False, "timed_out", 0, 2) == "1 of 3 tool calls timed out, 2 not recorded"
    assert recovery_text(1, 2, True, None, 0, 1) == \
        "1 of 2 tool calls failed, 1 not recorded; the model still gave its answer"
    assert recovery_text(1, 2, False, None, 0, 0) == "1 of 2 tool calls failed"  # none: as before


def _agent_that_answered(path: Path) -> Path:
    """An agent's trace: a failed MCP call, two Traceloop tool spans with no status and no output (their client
    recorded nothing), then the model's answer."""
    def span(number: int, name: str, attributes: dict[str, str], **more: object) -> dict[str, object]:
        start = 1_700_000_000_000_000_000 + number * 1_000_000
        return {"traceId": "7" * 32, "spanId": f"{number:016x}", "name": name, "kind": 1 if number == 1 else 3,
                "startTimeUnixNano": str(start), "endTimeUnixNano": str(start + 500_000),
                "attributes": [{"key": key, "value": {"stringValue": value}} for key, value in attributes.items()],
                **({"parentSpanId": f"{1:016x}"} if number > 1 else {}), **more}

    looked_up = {"traceloop.span.kind": "tool", "traceloop.entity.name": "lookup",
                 "traceloop.entity.input": '{"arguments": {"city": "Oslo"}}'}
    spans = [span(1, "invoke_agent", {"gen_ai.operation.name": "invoke_agent"}),
             span(2, "tools/call flaky", {"mcp.method.name": "tools/call", "gen_ai.tool.name": "flaky"},
                  status={"code": 2, "message": "no"}),
             span(3, "lookup.tool", looked_up), span(4, "lookup.tool", looked_up),
             span(5, "chat gpt-4o", {"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o"})]
    path.write_text(json.dumps({"resourceSpans": [{"resource": {"attributes": []},
                                                   "scopeSpans": [{"spans": spans}]}]}) + "\n")
    return path


def test_a_run_whose_model_answered_says_its_calls_with_no_outcome_recorded_too(tmp_path: Path) -> None:
    """Its reason is read where the model answered (not counted as a stopped run's): it said "1 of 3 tool calls
    failed; the model still gave its answer", as if the other 2 had worked."""
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        [run_id] = import_trace(store, _agent_that_answered(tmp_path / "agent.json")).run_ids
        assert page_reasons(store, [store.get_run(run_id)])[run_id].said() == (1, 3, True, None, 0, 2)
    said = {"en": "failed (1 of 3 tool calls failed, 2 not recorded; the model still gave its answer)",
            "de": "fehlgeschlagen (1 von 3 Tool-Aufrufen schlug fehl, 2 nicht erfasst; das Modell gab trotzdem "
                  "seine Antwort)"}
    for language in ("en", "de"):
        shown = cli_here("--lang", language, "--db", str(db), "runs", "show", str(run_id)).stdout.splitlines()
        assert f" {said[language]}, " in shown[1], shown[1]
