"""The window and the command line say a step's source, kind and round with the same words, in
English and in German; a run of one operation has no rounds in either."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from inspector.gui.language import switch_language
from inspector.gui.runs.timeline_model import COLUMNS, OUTCOME_COLUMN
from inspector.runs import Leg, RunTrace, ToolResult
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_runs_screenshots import runs_window
from tests.support.cli_process import cli_here
from tests.support.runs_tab import RunsShown
from tests.support.sample_runs import T0, mixed_run

ROOT = Path(__file__).resolve().parents[2]


def _one_call(store: RunStore) -> int:
    run_id = store.start_run("tools/call echo", "live", "http://127.0.0.1:8765/mcp", started_at=T0)
    step = RunTrace().record_tool_result(0, "echo", {"text": "x"}, ToolResult.text("x"), 5.0,
                                         legs=(Leg("tools/call", 20, 5.0, 200, "ok"),))
    store.append_step(run_id, step, T0)
    store.finish_run(run_id, "ok")
    return run_id


@contextmanager
def _shown_in(qtbot, make_window, language: str, run_id: int) -> Iterator:
    """The Runs tab in ``language`` with run ``run_id`` selected (English again afterwards)."""
    window = runs_window(make_window)
    switch_language(language)
    try:
        RunsShown(qtbot, window).select(run_id)
        yield window.runs_tab
    finally:
        switch_language("en")


def _runs_show(run_id: int, language: str) -> subprocess.CompletedProcess[str]:
    """`runs show RUN --lang LANGUAGE` on the test's database, in this process (what it says is the point)."""
    return cli_here("runs", "show", str(run_id), "--lang", language, env={"RUN_INSPECTOR_DB": str(resolve_db_path())})


def _cli_rows(run_id: int, language: str) -> list[list[str]]:
    done = _runs_show(run_id, language)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    start = next(index for index, line in enumerate(lines) if re.match(r"\s*#\s+(Time|Zeit) ", line))
    # The columns are two spaces apart or more: the step's number, time, source, kind, round, ...
    rows = [re.split(r"\s{2,}", line.strip()) for line in lines[start + 1:] if line and not line.startswith("    ")]
    # Each step's own number (a trace's steps are listed in time order, numbered as stored).
    assert sorted(int(row[0]) for row in rows) == list(range(1, len(rows) + 1))
    return [row[2:5] for row in rows]


def _cli_details(run_id: int, language: str) -> str:
    return _runs_show(run_id, language).stdout


@pytest.mark.parametrize("language", ["en", "de"])
def test_source_kind_and_round_read_the_same_in_the_window_and_on_the_command_line(qtbot, make_window,
                                                                                   runs_tab_showing, language) -> None:
    with RunStore.open(resolve_db_path()) as store:
        rounds, single = mixed_run(store), _one_call(store)
    showing = runs_tab_showing(language=language, window=runs_window(make_window))
    tab = showing.tab
    for run_id, has_rounds in ((rounds, True), (single, False)):
        showing.select(run_id)
        model = tab.timeline
        shown = [[model.index(row, COLUMNS.index(column)).data() for column in ("source", "kind", "round")]
                 for row in range(model.rowCount())]
        said = _cli_rows(run_id, language)
        assert [row[:2] for row in shown] == [row[:2] for row in said]
        if has_rounds:
            assert [row[2] for row in shown] == [row[2] for row in said] == ["1", "1", "1", "2", "2", "3"]
        else:
            assert [row[2] for row in shown] == ["–"] and [row[2] for row in said] == ["-"]
        if language == "de":
            assert {row[1] for row in shown} >= {"Tool"} and "mcp" not in {row[0] for row in shown}


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_step_from_a_trace_names_its_service_in_the_window_and_on_the_command_line(qtbot, make_window,
                                                                                     language) -> None:
    from inspector.transfer.importing import import_trace

    with RunStore.open(resolve_db_path()) as store:
        report = import_trace(store, ROOT / "tests" / "fixtures" / "otel" / "mcp_sdk.jsonl")
        (run_id,) = [run_id for run_id in report.run_ids
                     if store.get_run(run_id).title == "invoke_agent support-agent"]
    with _shown_in(qtbot, make_window, language, run_id) as tab:
        model = tab.timeline
        shown = [[model.index(row, COLUMNS.index(column)).data() for column in ("source", "kind")]
                 for row in range(model.rowCount())]
        assert shown == [row[:2] for row in _cli_rows(run_id, language)]
        assert {row[0] for row in shown} == {"support-agent"}
        # The Source column hides in a narrow pane: the kind's tooltip names the service too.
        assert "support-agent" in model.index(0, COLUMNS.index("kind")).data(Qt.ItemDataRole.ToolTipRole)
        # The importer's sentences are said in the reader's language, in the window as on the command line.
        details = [model.index(row, COLUMNS.index("details")).data() for row in range(model.rowCount())]
        failed = "fail: das Tool meldete einen Fehler" if language == "de" else "fail: the tool reported an error"
        assert any(line.startswith(failed) for line in details)
        timed_out = "slow: TimeoutError"  # the exception's type says the time-out, in any language
        assert timed_out in details
        assert timed_out in _cli_details(run_id, language)
        # A note of the server's side (the client's side has none) and how the two sides disagree,
        # in the Details column and the step's Result tab.
        failed = ("fail: das Tool meldete einen Fehler (error.type tool_error)" if language == "de"
                  else "fail: the tool reported an error (error.type tool_error)")
        assert failed in details and failed in _cli_details(run_id, language)
        # The outcome the two sides make together: a client that stopped waiting before its server ended.
        unrecorded = ("slow: kein Ergebnis erfasst: der Client hörte 10 ms" if language == "de"
                      else "slow: no outcome recorded: the client stopped waiting 10 ms")
        assert any(line.startswith(unrecorded) for line in details), details
        # The command line's row says the note's head, the note whole on the line under it (tests/integration/
        # test_cli_outcome_note_whole.py).
        cli_lines = _cli_details(run_id, language).splitlines()
        head = "slow: kein Ergebnis erfasst" if language == "de" else "slow: no outcome recorded"
        cli_row = next(index for index, line in enumerate(cli_lines) if line.endswith(f"  {head}"))
        assert unrecorded.removeprefix("slow: ") in cli_lines[cli_row + 1]
        # Its Outcome column says so too, never blank (a request, with no outcome by nature, stays blank).
        row = next(row for row, line in enumerate(details) if line.startswith(unrecorded))
        word = "nicht erfasst" if language == "de" else "not recorded"
        assert model.index(row, OUTCOME_COLUMN).data() == word
        assert not model.index(0, OUTCOME_COLUMN).data()  # the agent's own span: a request
        assert f" {word} " in cli_lines[cli_row]
        tab.select_step(details.index(failed))
        # The tool error reached the client as its answer: the sides agree, no band says they disagree.
        span = tab.detail.span
        qtbot.waitUntil(lambda: span.sides.isVisibleTo(tab.detail))
        assert not span.disagreement.isVisibleTo(tab.detail)
        assert failed.split(": ", 1)[1] == tab.detail.result.toPlainText()
        # The call the client stopped waiting for says so in words in the band above the tabs.
        tab.select_step(row)
        stopped = ("Client (support-agent): hörte nach 201 ms auf zu warten, 10 ms vor dem Ende der Serverseite"
                   if language == "de" else
                   "Client (support-agent): stopped waiting after 201 ms, 10 ms before the server's side ended")
        qtbot.waitUntil(lambda: stopped in span.disagreement.text())


def _failed_call(store: RunStore) -> int:
    """A tool that reported an error, recorded as our calls record it (the sentence kept as data)."""
    from inspector.agent.operations import reported_error, wording_of

    run_id = store.start_run("tools/call fail", "live", "http://127.0.0.1:8765/mcp", started_at=T0)
    said = reported_error("fail", "demo", "This tool always fails.")
    step = RunTrace().record_tool_result(0, "fail", {}, ToolResult.error(str(said), wording=wording_of(said)), 5.0,
                                         legs=(Leg("tools/call", 20, 5.0, 200, "ok"),))
    store.append_step(run_id, step, T0)
    store.finish_run(run_id, "failed")
    return run_id


@pytest.mark.parametrize("language", ["en", "de"])
def test_our_sentence_at_the_head_of_a_result_is_said_in_the_reader_s_language_in_the_window(
        qtbot, make_window, language: str) -> None:
    with RunStore.open(resolve_db_path()) as store:
        run_id = _failed_call(store)
    with _shown_in(qtbot, make_window, language, run_id) as tab:
        said = ("Das Tool fail auf demo meldete einen Fehler: This tool always fails."
                if language == "de" else "The tool fail on demo reported an error: This tool always fails.")
        # The cell says the tool's own text first (the tool and its server have their columns); the whole
        # sentence is its tooltip.
        details = tab.timeline.index(0, COLUMNS.index("details"))
        assert details.data() == "fail: This tool always fails."
        assert f"fail: {said}" in details.data(Qt.ItemDataRole.ToolTipRole).replace("\xa0", " ")
        assert f"fail: {said}" in _cli_details(run_id, language)
        tab.select_step(0)
        qtbot.waitUntil(lambda: tab.detail.result.toPlainText() == said)


def test_a_single_operations_step_names_no_round_in_its_detail_as_its_timeline_does(qtbot, make_window) -> None:
    """A run of one operation has no rounds: its timeline shows "–", so the detail does not say "round 0";
    a played run's step says its round."""
    from tests.gui.test_language import window_with_mixed_run

    with RunStore.open(resolve_db_path()) as store:
        single = store.start_run("tools/call echo", "live", "http://127.0.0.1:9/mcp")
        step = RunTrace().record_tool_result(0, "echo", {"text": "hi"}, ToolResult.text("hi"), 3.0,
                                             legs=(Leg("tools/call", 20, 3.0, 200, "ok"),))
        store.append_step(single, step)
        store.finish_run(single, "ok")
    window, _cancelled = window_with_mixed_run(qtbot, make_window)
    tab = window.runs_tab
    assert tab.detail.summary.text().startswith("round ")  # a played run's step: it has rounds
    assert tab.select_runs([single])
    tab.select_step(0)
    qtbot.waitUntil(lambda: tab.detail.step is not None and tab.detail.step.run_id == single, timeout=5000)
    assert tab.timeline.index(0, 3).data() == "–"
    assert "round" not in tab.detail.summary.text() and tab.detail.summary.text().startswith("0.003 s")
