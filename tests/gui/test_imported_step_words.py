"""What the step detail says of steps read from real agents' traces (tests/fixtures/otel/): a cancel
the trace recorded is not the user's, and a model call shows what the model was asked and answered."""

from __future__ import annotations

from datetime import timedelta

import pytest

from inspector.gui.language import switch_language
from inspector.mcp.errors import CANCELLED_IN_FLIGHT
from inspector.runs import Leg, RunTrace, ToolResult
from inspector.store import RunStore, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_span_detail import FIXTURES, open_run
from tests.gui.test_screenshots import save
from tests.support.sample_runs import T0


def imported_session(fixture: str, title: str) -> int:
    with RunStore.open(resolve_db_path()) as store:
        report = import_trace(store, FIXTURES / fixture)
        (run_id,) = [run_id for run_id in report.run_ids if store.get_run(run_id).title == title]
    return run_id


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_cancel_the_trace_recorded_is_not_said_to_be_the_users(qtbot, make_window, language) -> None:
    run_id = imported_session("pydantic_ai.jsonl", "support session")
    window, tab = open_run(qtbot, make_window, run_id)
    switch_language(language)
    try:
        tab.select_step(next(row for row in range(tab.timeline.rowCount())
                             if tab.timeline.row(row).outcome == "cancelled"))
        detail = tab.detail
        assert detail.step is not None and detail.step.row.outcome == "cancelled"
        lines = detail.result.toPlainText().splitlines()
        if language == "en":
            assert lines[0] == "Cancelled, as the trace recorded it."
            assert lines[1].startswith("The trace's words: cancelled: asyncio.exceptions.CancelledError: ")
        else:
            assert lines[0] == "Abgebrochen, wie der Trace es aufgezeichnet hat."
            # "Die Worte des Traces" read as a translation; the trace's wording, as German says it
            assert lines[1].startswith("Wortlaut im Trace: abgebrochen: asyncio.exceptions.CancelledError: ")
            assert "Sie haben" not in detail.result.toPlainText()
        assert "You cancelled" not in detail.result.toPlainText()
        save(window, f"runs-imported-cancel-{language}", grey=True)
    finally:
        switch_language("en")


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_model_call_shows_what_it_was_asked_and_answered_in_the_window_and_runs_show(
        qtbot, make_window, capsys, language) -> None:
    """pydantic-ai's ``chat`` spans keep the conversation in ``gen_ai.input.messages`` /
    ``gen_ai.output.messages`` (JSON strings): the model's decision to call ``lookup`` was shown nowhere."""
    from inspector.cli import main

    run_id = imported_session("pydantic_ai.jsonl", "support session")
    window, tab = open_run(qtbot, make_window, run_id)
    switch_language(language)
    try:
        tab.select_step(next(row for row in range(tab.timeline.rowCount())
                             if tab.timeline.row(row).kind == "llm"))
        shown = tab.detail.result.toPlainText()
        if language == "en":
            assert shown.endswith("What the model was asked (as the trace recorded it):\n  user: call lookup\n"
                                  "What the model answered (as the trace recorded it):\n"
                                  '  assistant: calls the tool lookup with {"city":"Berlin"}')
        else:
            assert "  user: call lookup" in shown and "ruft das Tool lookup mit {\"city\":\"Berlin\"} auf" in shown
            assert "What the model" not in shown
        # The second call was asked with the tool's answer and answered "done".
        asked = shown.split("\n", 1)[1]
        capsys.readouterr()
        assert main(["runs", "show", str(run_id), "--db", str(resolve_db_path()), "--lang", language]) == 0
        printed = capsys.readouterr().out
        assert "\n".join(f"    {line}" for line in asked.strip("\n").splitlines()) in printed
        assert ("the tool lookup answered: Berlin: 21 °C, clear" if language == "en"
                else "das Tool lookup antwortete: Berlin: 21 °C, clear") in printed
        save(window, f"runs-imported-model-call-{language}", grey=True)
    finally:
        switch_language("en")


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_cancel_of_ours_read_from_a_file_is_the_recorders_not_the_readers(qtbot, make_window, language) -> None:
    """A customer cancels a call and sends the runs; support opens them. Our own sentence, stored with the
    step, said "You cancelled the operation …" to support, who had cancelled nothing: a run read from a
    file says the person who recorded it cancelled. A run recorded here still says "You"."""
    stored = CANCELLED_IN_FLIGHT.format(method="tools/call", server="http://127.0.0.1:9/mcp")
    with RunStore.open(resolve_db_path()) as store:
        ids = {}
        for source in ("imported", "live"):
            ids[source] = store.start_run("tools/call hang", source, "http://127.0.0.1:9/mcp", started_at=T0)
            store.append_step(ids[source], RunTrace().record_tool_result(
                0, "hang", {}, ToolResult.cancelled(stored, in_flight=True), 1703.9,
                legs=(Leg("tools/call", 20, 1663.7, None, "cancelled"),)), T0)
            store.finish_run(ids[source], "cancelled", T0 + timedelta(seconds=2))
    _window, tab = open_run(qtbot, make_window, ids["imported"])
    switch_language(language)
    try:
        said = {}
        for source, run_id in ids.items():
            tab.select_runs([run_id])
            qtbot.waitUntil(lambda run_id=run_id: tab.current_run() is not None and tab.current_run().id == run_id)
            tab.select_step(0)
            qtbot.waitUntil(lambda run_id=run_id: tab.detail.step is not None and tab.detail.step.run_id == run_id)
            said[source] = tab.detail.result.toPlainText()
    finally:
        switch_language("en")
    if language == "en":
        assert said["imported"] == ("The person who recorded this run cancelled the operation after tools/call had "
                                    "been sent to the server http://127.0.0.1:9/mcp, before its answer arrived. "
                                    "Whether the server acted on it is unknown.")
        assert said["live"] == stored
    else:
        assert said["imported"].startswith("Die Person, die diesen Lauf aufgezeichnet hat, hat den Vorgang "
                                           "abgebrochen, nachdem tools/call an den Server http://127.0.0.1:9/mcp")
        assert said["live"].startswith("Sie haben den Vorgang abgebrochen, nachdem tools/call")
