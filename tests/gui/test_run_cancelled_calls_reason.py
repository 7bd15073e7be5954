"""A run's reason says its cancelled calls apart from its failed ones (a cancel is never a failure): the
Logfire recording of an agent (tests/fixtures/otel/logfire.jsonl) made four calls, ``lookup`` ok, ``fail``
failed, ``slow`` timed out and ``slow`` again cancelled; its reason read "failed (2 of 4 tool calls
failed)" in ``runs list``, ``runs show``, ``compare`` and the window's list and heading, and left the
cancel out. An ok run some of whose calls were cancelled says so too; a cancelled run and a failed run none
of whose calls failed say no reason (their cancels are not why)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from inspector.gui.play.room import _recovery
from inspector.gui.play.run_state import PlayRow, PlayRun
from inspector.gui.play.worker import Mailbox
from inspector.i18n import set_language
from inspector.i18n.recovery import recovery_text, status_with_recovery
from inspector.i18n.words import marked_outcome_text, outcome_word
from inspector.runs import RunTrace, ToolResult
from inspector.store import RunStore, resolve_db_path
from inspector.store.recovery import page_reasons
from inspector.transfer.importing import import_trace
from tests.gui.test_run_unrecorded_reason import window_says
from tests.support.cli_process import cli_here
from tests.support.sample_runs import T0
from tests.unit.traces.test_otel_agents import FIXTURES

SAID = {"en": "failed (2 of 4 tool calls failed, 1 cancelled)",
        "de": "fehlgeschlagen (2 von 4 Tool-Aufrufen schlugen fehl, 1 abgebrochen)"}


def _imported() -> int:
    with RunStore.open(resolve_db_path()) as store:
        [run_id] = import_trace(store, FIXTURES / "logfire.jsonl").run_ids
        assert store.get_run(run_id).status == "failed"
        outcomes = [step.outcome for step in store.iter_steps(run_id) if step.payload["kind"] == "tool"]
        assert sorted(outcomes) == ["cancelled", "failed", "failed", "ok"]
    return run_id


@pytest.mark.parametrize("language", ["en", "de"])
def test_runs_list_show_compare_and_the_window_say_the_cancelled_call_apart(qtbot, make_window,
                                                                           language: str) -> None:
    run_id = _imported()
    db = str(resolve_db_path())
    shown = cli_here("--lang", language, "--db", db, "runs", "show", str(run_id)).stdout.splitlines()
    assert f" {SAID[language]}, " in shown[1], shown[1]
    listed = cli_here("--lang", language, "--db", db, "runs", "list", env={"COLUMNS": "250"}).stdout
    assert SAID[language] in listed, listed
    with RunStore.open(resolve_db_path()) as store:
        other = _run(store, "ok", [ToolResult.text("yes")])
    compared = cli_here("--lang", language, "--db", db, "compare", str(run_id), str(other)).stdout.splitlines()
    assert f" — {SAID[language]}, 7 " in compared[0], compared[0]
    window_says(qtbot, make_window, run_id, language, SAID[language])


def _run(store: RunStore, status: str, results: list[ToolResult]) -> int:
    trace = RunTrace()
    steps = [trace.record_tool_result(1, "tool", {}, result, 10.0) for result in results]
    run_id = store.start_run("tools/call tool", "live", "http://127.0.0.1:8765/mcp", started_at=T0)
    store.append_steps(run_id, [(step, T0 + timedelta(seconds=number)) for number, step in enumerate(steps)])
    store.finish_run(run_id, status)
    return run_id


@pytest.mark.parametrize(("language", "said"), [
    ("en", ["ok (1 of 3 tool calls cancelled)", "ok (the tool call was cancelled)", "ok",
            "failed (1 of 3 tool calls failed, 1 cancelled)", "failed", "cancelled"]),
    ("de", ["ok (1 von 3 Tool-Aufrufen abgebrochen)", "ok (der Tool-Aufruf wurde abgebrochen)", "ok",
            "fehlgeschlagen (1 von 3 Tool-Aufrufen schlug fehl, 1 abgebrochen)", "fehlgeschlagen", "abgebrochen"]),
])
def test_ok_failed_and_cancelled_runs_with_cancelled_calls_read_right(tmp_path, language: str,
                                                                      said: list[str]) -> None:
    ok, cancelled = ToolResult.text("yes"), ToolResult.cancelled("cancelled by the user", in_flight=True)
    with RunStore.open(tmp_path / "runs.db") as store:
        run_ids = [_run(store, "ok", [ok, cancelled, ok]), _run(store, "ok", [cancelled]), _run(store, "ok", [ok]),
                   _run(store, "failed", [ok, ToolResult.error("no"), cancelled]),
                   _run(store, "failed", [ok, cancelled]),  # it failed elsewhere: the cancel is not why
                   _run(store, "cancelled", [ok, cancelled])]
        runs = [store.get_run(run_id) for run_id in run_ids]
        reasons = page_reasons(store, runs)
    set_language(language)
    try:
        assert [status_with_recovery(outcome_word(run.status), reasons[run.id].said() if run.id in reasons else None)
                for run in runs] == said
    finally:
        set_language("en")


@pytest.mark.parametrize(("language", "said"), [
    ("en", ["2 of 5 tool calls failed, 1 cancelled; the model still gave its answer",
            "2 of 5 tool calls timed out, 3 cancelled"]),
    ("de", ["2 von 5 Tool-Aufrufen schlugen fehl, 1 abgebrochen; das Modell gab trotzdem seine Antwort",
            "Zeitüberschreitung bei 2 von 5 Tool-Aufrufen, 3 abgebrochen"]),
])
def test_the_cancels_follow_the_failed_calls_however_they_are_said(language: str, said: list[str]) -> None:
    set_language(language)
    try:
        assert [recovery_text(2, 5, True, None, 1), recovery_text(2, 5, False, "timed_out", 3)] == said
    finally:
        set_language("en")



@pytest.mark.parametrize(("language", "said"), [
    ("en", ["✓ ok (1 of 3 tool calls cancelled)",
            "✗ failed (1 of 3 tool calls failed, 1 cancelled; the model still gave its answer)"]),
    ("de", ["✓ ok (1 von 3 Tool-Aufrufen abgebrochen)",
            "✗ fehlgeschlagen (1 von 3 Tool-Aufrufen schlug fehl, 1 abgebrochen; das Modell gab trotzdem "
            "seine Antwort)"]),
])
def test_the_play_tab_says_a_played_runs_cancelled_calls_as_the_runs_tab_does(qapp, language: str,
                                                                               said: list[str]) -> None:
    """A played run whose call was cancelled on its own went on (inspector/agent/loop.py): ok, or failed by
    another call; the Play tab's line over the run says its cancel as the Runs tab will."""
    played = []
    for status, states in (("ok", ["ok", "cancelled", "ok"]), ("failed", ["failed", "cancelled", "ok"])):
        run = PlayRun(Mailbox(), "scenario")
        run.status, run.final_answer = status, "done"
        run.rows = [PlayRow("tool", round_number, state=state) for round_number, state in enumerate(states, start=1)]
        played.append(run)
    set_language(language)
    try:
        assert [status_with_recovery(marked_outcome_text(run.status), _recovery(run)) for run in played] == said
    finally:
        set_language("en")
