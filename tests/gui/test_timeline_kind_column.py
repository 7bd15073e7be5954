"""The timeline's Kind and Duration columns as wide as the words the run shown says in them, in the language
shown (and again after a language switch), measured with the real font offscreen. The Kind column was fitted to
the English kinds' stored names: German "verworfen" (a dropped context's step) was cut in its 62 px, and a
scenario's run ("Modell", "Tool") kept room for kinds it does not have, as the Duration column kept the room of
"59 min 59 s" for a run of milliseconds; the details are narrower by what they keep (issue 23)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.gui.runs.columns import PADDING_PX
from inspector.gui.runs.timeline_model import COLUMNS
from inspector.gui.runs.timeline_pane import TimelinePane
from inspector.runs import Leg, RunStep, RunTrace, StepKind, ToolResult
from inspector.store import RunStore
from inspector.transfer.importing import import_trace
from tests.gui.test_run_list_narrow_columns import painted
from tests.gui.test_screenshots import save
from tests.support.sample_runs import T0

KIND, DURATION, DETAILS = COLUMNS.index("kind"), COLUMNS.index("duration"), COLUMNS.index("details")
SOURCE = COLUMNS.index("source")
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"
#: The kinds' words and the longest duration each run says, in each language.
SAID = {"en": {"scenario": (("model", "tool"), "0.040 s"), "context": (("model", "dropped"), "59 min 59 s")},
        "de": {"scenario": (("Modell", "Tool"), "0,040 s"), "context": (("Modell", "verworfen"), "59 min 59 s")}}


def _runs(store: RunStore) -> dict[str, int]:
    """A scenario's run (model steps and tool calls of milliseconds) and one whose context was dropped after an
    hour's model step."""
    trace = RunTrace()
    scenario = store.start_run("scenario happy-path", "scenario", "http://127.0.0.1:8765/mcp", started_at=T0)
    store.append_steps(scenario, [
        (RunStep(kind=StepKind.LLM, round=1, duration_ms=0.4, content="call echo"), T0),
        (trace.record_tool_result(1, "echo", {"text": "hi"}, ToolResult.text("hi"), 40.0,
                                  legs=(Leg("tools/call", 20, 40.0, 200, "ok"),)), T0 + timedelta(seconds=0.1))])
    store.finish_run(scenario, "ok", T0 + timedelta(seconds=0.2))
    context = store.start_run("an agent's long context", "imported", "http://127.0.0.1:8765/mcp", started_at=T0)
    store.append_steps(context, [
        (RunStep(kind=StepKind.LLM, round=1, duration_ms=3_599_000.0, content="thinking"), T0),
        (RunStep(kind=StepKind.DROPPED, round=1, duration_ms=0.2, content="the oldest turns"),
         T0 + timedelta(seconds=3600))])
    store.finish_run(context, "ok", T0 + timedelta(seconds=3601))
    return {"scenario": scenario, "context": context}


@pytest.fixture
def timeline(qtbot, tmp_path: Path):
    store = RunStore.open(tmp_path / "runs.db")
    runs = _runs(store)
    pane = TimelinePane(store)
    qtbot.addWidget(pane)
    pane.resize(1000, 400)
    pane.show()
    qtbot.waitExposed(pane)
    yield pane, store, runs
    switch_language("en")
    store.close()


def _shown(qtbot, pane: TimelinePane, run: object) -> None:
    pane.show_run(run)
    pane.view.viewport().repaint()  # the cells say their words; the columns are fitted after the paint
    qtbot.wait(20)
    QApplication.processEvents()


def test_the_kind_and_duration_columns_fit_the_run_shown_in_the_language_shown(qtbot, timeline) -> None:
    pane, store, runs = timeline
    view, metrics = pane.view, pane.view.fontMetrics()
    for language in ("en", "de", "en"):
        switch_language(language)
        for name, run_id in runs.items():
            _shown(qtbot, pane, store.get_run(run_id))
            kinds, longest = SAID[language][name]
            shown_kinds = {view.model().index(row, KIND).data() for row in range(view.model().rowCount())}
            assert shown_kinds == set(kinds), shown_kinds
            heading = view.horizontalHeader().fontMetrics().horizontalAdvance(view.model().headerData(
                KIND, 1)) + PADDING_PX
            # Each kind whole ("verworfen" was cut to 62 px), and no more room than the widest needs.
            needed = max(metrics.horizontalAdvance(kind) + PADDING_PX for kind in kinds)
            assert view.columnWidth(KIND) == max(needed, heading, 44), (language, name, view.columnWidth(KIND))
            # The longest duration whole; a run of milliseconds keeps no room for an hour (was 83 px).
            assert view.columnWidth(DURATION) >= metrics.horizontalAdvance(longest) + PADDING_PX
            if name == "scenario":
                assert view.columnWidth(DURATION) < metrics.horizontalAdvance("59 min 59 s") + PADDING_PX


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_source_column_says_a_traces_service_whole(qtbot, tmp_path: Path, language) -> None:
    """A trace's steps say the service they came from in the Source column: it was fitted to "MCP client" and "agent"
    alone, and "support-agent" read "support-a…" at every width that shows the column (1,920 px: the details beside
    it had 300 px to spare)."""
    store = RunStore.open(tmp_path / "runs.db")
    try:
        (run_id,) = import_trace(store, FIXTURES / "pydantic_ai.jsonl").run_ids
        switch_language(language)
        pane = TimelinePane(store)
        qtbot.addWidget(pane)
        pane.resize(1000, 400)
        pane.show()
        qtbot.waitExposed(pane)
        _shown(qtbot, pane, store.get_run(run_id))
        view = pane.view
        assert not view.isColumnHidden(SOURCE)
        assert {painted(view, row, SOURCE) for row in range(6)} == {("support-agent", True)}
        assert view.horizontalScrollBar().maximum() == 0
        save(pane, f"timeline-source-service-{language}")
    finally:
        switch_language("en")
        store.close()
