"""The Runs tab and ``runs show`` decide from one source: a failed imported run's reason (the
heading's words) and a timed-out call's kind of failure (the bar's words)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.cli.words import step_outcome_text
from inspector.gui.language import switch_language
from inspector.gui.runs.timeline_words import heading_text
from inspector.gui.widgets.budget_bar_words import ending_text
from inspector.gui.widgets.budget_state import BarState
from inspector.store import RunStore
from inspector.store.recovery import recovery_of, run_reason
from inspector.store.span_tree import DEEPEST_INDENT
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_span_detail import imported_agent_run, open_run
from tests.integration.test_cli_runs_layout import DEEPEST_INDENT as SAID_DEEPEST
from tests.integration.test_cli_runs_layout import FIXTURES, timed_out_run  # noqa: F401 - a fixture


def test_the_heading_says_why_a_failed_imported_run_failed_in_the_command_lines_words(tmp_path: Path) -> None:
    with RunStore.open(tmp_path / "runs.db") as store:
        for fixture in ("traceloop.jsonl", "fastmcp.jsonl"):
            [run_id] = [run_id for run_id in import_trace(store, FIXTURES / fixture).run_ids
                        if store.get_run(run_id).status == "failed"]
            run = store.get_run(run_id)
            assert recovery_of(store, run) is None  # no model answered after the failures
            reason = run_reason(store, run)
            assert reason is not None and reason.said() == (2, 4, False, None, 0, 1)
            try:
                for language, said in (("en", "failed (2 of 4 tool calls failed, 1 not recorded)"),
                                       ("de", "fehlgeschlagen (2 von 4 Tool-Aufrufen schlugen fehl, 1 nicht erfasst)")):
                    switch_language(language)
                    heading = heading_text(run, shown=7, total=14, filtered=False, hidden=7, hidden_matched=7,
                                           recovery=reason.said())
                    assert f" — {said}; 7 " in heading
            finally:
                switch_language("en")


def test_the_bar_and_runs_show_say_a_timed_out_call_alike(timed_out_run: str) -> None:  # noqa: F811
    with RunStore.open(Path(timed_out_run)) as store:
        stored = store.step_at(1, 1)
    assert stored is not None and stored.outcome == "failed"
    legs = stored.step.legs
    try:
        for language in ("en", "de"):
            switch_language(language)
            bar = ending_text(BarState.replay(legs, 1.0, stored.outcome, stored.step.duration_ms / 1000))
            assert bar == "✗ " + step_outcome_text("tool", stored.outcome, legs)
            assert "timed out" in bar if language == "en" else "Zeitüberschreitung" in bar
    finally:
        switch_language("en")


def test_the_window_and_runs_show_stop_indenting_at_the_same_depth() -> None:
    assert DEEPEST_INDENT == SAID_DEEPEST


@pytest.mark.parametrize(("language", "said"), [
    ("en", "— failed (2 of 4 tool calls failed, 1 not recorded); 7 of 14 steps shown"),
    ("de", "— fehlgeschlagen (2 von 4 Tool-Aufrufen schlugen fehl, 1 nicht erfasst); 7 von 14")])
def test_the_runs_tab_heading_says_why_the_imported_run_failed(qtbot, make_window, language: str, said: str) -> None:
    """The window's heading over a failed run read from Traceloop's trace gives the reason `runs show`
    and `runs list` give (it said only "failed")."""
    run_id = imported_agent_run("traceloop.jsonl")
    _window, tab = open_run(qtbot, make_window, run_id)
    try:
        switch_language(language)
        assert said in tab.run_heading.text()
    finally:
        switch_language("en")
