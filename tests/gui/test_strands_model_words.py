"""A Strands model call's step in the window says what the model was asked and answered: Strands writes its
messages as span events (`gen_ai.user.message`, `gen_ai.choice`, …), which the step detail did not read, so
its Result said nothing of the conversation. Plain text, in English and German, as `runs show` says it."""

from __future__ import annotations

import pytest

from inspector.gui.language import switch_language
from inspector.store import RunStore, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_span_detail import FIXTURES, open_run
from tests.gui.test_screenshots import save


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_strands_model_call_shows_its_conversation(qtbot, make_window, language) -> None:
    with RunStore.open(resolve_db_path()) as store:  # the agent's run whose `slow` call timed out
        run_id = next(run for run in import_trace(store, FIXTURES / "strands.jsonl").run_ids
                      if any(step.payload.get("toolName") == "slow" for step in store.iter_steps(run))
                      and store.get_run(run).status == "failed")
    window, tab = open_run(qtbot, make_window, run_id)
    switch_language(language)
    try:
        models = [row for row in range(tab.timeline.rowCount()) if tab.timeline.row(row).kind == "llm"]
        tab.select_step(models[-1])
        shown = tab.detail.result.toPlainText()
        asked, answered = (("What the model was asked (as the trace recorded it):", "What the model answered")
                           if language == "en" else
                           ("Was das Modell gefragt wurde (wie der Trace es aufgezeichnet hat):",
                            "Was das Modell antwortete"))
        assert asked in shown and answered in shown, shown
        assert "  system: Use the tools.\n  user: call lookup\n" in shown
        assert ("  tool: the tool lookup answered: Berlin: 21 °C, clear" if language == "en"
                else "  tool: das Tool lookup antwortete: Berlin: 21 °C, clear") in shown
        assert shown.endswith("  assistant: done")
        save(window, f"runs-strands-model-call-{language}")
    finally:
        switch_language("en")
