"""An ok run whose tool call has no outcome recorded says so beside its status: the agent's caller cancelled
the run during ``slow`` (Google ADK 2.13 and the OpenAI Agents SDK under OpenInference, tests/fixtures/otel/:
one trace per run of the agent). Neither the agent's tool span nor the mcp SDK's client span recorded an
error, so the trace's status is ok, and the run read a bare "ok" in ``runs list``, ``runs show`` and the
window's list and heading, while its one call reads "not recorded" a click further: a support engineer took
the cancelled call for a success."""

from __future__ import annotations

import pytest

from inspector.gui.language import switch_language
from inspector.store import RunStore, resolve_db_path
from inspector.store.recovery import UNRECORDED, page_reasons
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_span_detail import open_run
from tests.support.cli_process import cli_here
from tests.unit.traces.test_otel_agents import FIXTURES

#: The traces of the runs of the agent the caller cancelled.
CANCELLED = {"google_adk.jsonl": "otlp-97013dccb44d5c21b4b43b1adb9b69af",
             "openai_agents_openinference.jsonl": "otlp-00a44b9e11c335589e88eea29a5bcacb"}
SAID = {"en": "ok (the tool call has no outcome recorded)", "de": "ok (für den Tool-Aufruf ist kein Ergebnis erfasst)"}


def imported(fixture: str) -> tuple[int, list[int]]:
    """The cancelled run's id, and the file's other ok runs."""
    with RunStore.open(resolve_db_path()) as store:
        runs = [store.get_run(run_id) for run_id in import_trace(store, FIXTURES / fixture).run_ids]
    (cancelled,) = [run.id for run in runs if run.uid == CANCELLED[fixture]]
    return cancelled, [run.id for run in runs if run.status == "ok" and run.id != cancelled]


@pytest.mark.parametrize("fixture", sorted(CANCELLED))
def test_the_reason_counts_the_call_once_and_only_in_that_run(fixture: str) -> None:
    run_id, others = imported(fixture)
    with RunStore.open(resolve_db_path()) as store:
        run = store.get_run(run_id)
        assert run.status == "ok"
        calls = [step for step in store.iter_steps(run_id) if step.payload["kind"] == "tool"]
        assert len(calls) == 2 and {step.outcome for step in calls} == {""}  # the agent's span over the SDK's
        reasons = page_reasons(store, [store.get_run(each) for each in (run_id, *others)])
    assert {key: value.said() for key, value in reasons.items()} == {run_id: (1, 1, False, UNRECORDED, 0, 0)}


@pytest.mark.parametrize("language", ["en", "de"])
def test_runs_list_runs_show_and_the_window_say_it(qtbot, make_window, language: str) -> None:
    run_id, others = imported("google_adk.jsonl")
    db = str(resolve_db_path())
    shown = cli_here("--lang", language, "--db", db, "runs", "show", str(run_id)).stdout.splitlines()
    assert f" {SAID[language]}, " in shown[1], shown[1]
    listed = cli_here("--lang", language, "--db", db, "runs", "list", env={"COLUMNS": "250"}).stdout.splitlines()
    assert [line for line in listed if SAID[language] in line] == [
        line for line in listed if line.split()[:1] == [str(run_id)]]
    tab = window_says(qtbot, make_window, run_id, language, SAID[language])
    assert tab.runs.status_text(tab.runs.run(tab.runs.row_of(others[0]))) == "ok"  # the file's other ok runs: plain


def window_says(qtbot, make_window, run_id: int, language: str, said: str):
    """The Runs tab open on ``run_id``, having said its status as ``said`` in ``language`` in the heading over
    its timeline and in the run list's Status cell (and widened the column to it); back in English."""
    _window, tab = open_run(qtbot, make_window, run_id)
    switch_language(language)
    try:
        assert f" — {said}," in tab.timeline_pane.heading.text(), tab.timeline_pane.heading.text()
        assert tab.runs.status_text(tab.runs.run(tab.runs.row_of(run_id))) == said
        assert said in tab.runs.reason_texts()  # the Status column widens to the words it shows
    finally:
        switch_language("en")
    return tab
