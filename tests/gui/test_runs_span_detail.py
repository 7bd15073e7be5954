"""Everything the span had, in the step detail: the Attributes and Events tabs, the two sides of a
joined call and where they disagree, the step's service, for the real traces of the mcp SDK and of
Traceloop's instrumentation (tests/fixtures/otel/), imported into the test's SQLite file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.gui.runs.span_attributes import AttributeModel
from inspector.gui.runs.span_facts import attribute_rows
from inspector.gui.runs.timeline_model import COLUMNS
from inspector.runs import Leg, RunTrace, ToolResult
from inspector.store import RunStore, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_screenshots import runs_window
from tests.gui.test_screenshots import save
from tests.support.runs_tab import RunsShown
from tests.support.sample_runs import T0

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"


def imported_agent_run(fixture: str) -> int:
    with RunStore.open(resolve_db_path()) as store:
        report = import_trace(store, FIXTURES / fixture)
        (run_id,) = [run_id for run_id in report.run_ids
                     if store.get_run(run_id).title == "invoke_agent support-agent"]
    return run_id


def open_run(qtbot, make_window, run_id: int):
    window = runs_window(make_window)
    RunsShown(qtbot, window).select(run_id)
    return window, window.runs_tab


def step_row(tab, details_start: str) -> int:
    column = COLUMNS.index("details")
    return next(row for row in range(tab.timeline.rowCount())
                if tab.timeline.index(row, column).data().startswith(details_start))


def tab_shown(detail, page) -> bool:
    return detail.tabs.isTabVisible(detail.tabs.indexOf(page))


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_given_up_call_shows_both_sides_its_disagreement_attributes_and_exception(qtbot, make_window,
                                                                                      language) -> None:
    run_id = imported_agent_run("mcp_sdk.jsonl")
    window, tab = open_run(qtbot, make_window, run_id)
    switch_language(language)
    try:
        tab.select_step(step_row(tab, "slow: TimeoutError"))  # its exception's type says the time-out
        detail = tab.detail
        span = detail.span
        assert detail.step is not None and detail.step.row.outcome == "failed"
        # The step names its service; the two sides say theirs, with outcome and duration, in the band
        # that says they disagree (the sides line would say it again: it hides).
        assert "support-agent" in detail.summary.text()
        band = span.disagreement
        sides = band.text()
        assert not span.sides.isVisibleTo(detail) and "support-agent" in sides and "weather-mcp-server" in sides
        assert ("gave up after 504 ms" if language == "en" else "504") in sides
        assert band.isVisibleTo(detail) and "508" in band.text()
        # The exception is said once, in the Result tab; the band says only when each side ended.
        assert "TimeoutError" not in band.text() and detail.result.toPlainText().count("TimeoutError") == 1
        assert band.textFormat() == Qt.TextFormat.PlainText
        if language == "de":
            assert "gave up" not in band.text()  # said in German
        # Attributes: the span's, its resource's, its scope's and the server side's, marked.
        assert tab_shown(detail, span.attributes) and tab_shown(detail, span.events)
        model = span.attributes.model
        origins = {model.row_at(row).origin for row in range(model.rowCount())}
        assert origins == {"span", "resource", "scope", "server span", "server resource", "server scope"}
        keys = {(model.row_at(row).origin, model.row_at(row).key) for row in range(model.rowCount())}
        assert ("server span", "gen_ai.tool.name") in keys and ("resource", "deployment.environment.name") in keys
        # Events: the exception with its type and stack trace, timed from the span's start.
        events = span.events.toPlainText()
        exception = "exception TimeoutError" if language == "en" else "Ausnahme TimeoutError"
        assert exception in events and "Traceback (most recent call last)" in events
        assert events.startswith("+504.3 ms" if language == "en" else "+504,3 ms")
        # The visible tabs fit beside the timeline: no scroll buttons (they speak only English).
        assert detail.tabs.tabBar().sizeHint().width() <= detail.tabs.width()
        detail.tabs.setCurrentWidget(span.events)
        save(window, f"runs-span-given-up-events-{language}", grey=True)
        detail.tabs.setCurrentWidget(span.attributes)
        span.attributes.filter.setText("weather")
        assert model.rowCount() >= 1
        assert all("weather" in (model.row_at(row).key + model.row_at(row).value_text()).lower()
                   for row in range(model.rowCount()))
        save(window, f"runs-span-given-up-attributes-{language}", grey=True)
    finally:
        switch_language("en")


def test_copy_attributes_copies_the_selected_rows_or_all_as_json_and_says_so(qtbot, make_window) -> None:
    run_id = imported_agent_run("traceloop.jsonl")
    window, tab = open_run(qtbot, make_window, run_id)
    tab.select_step(step_row(tab, "lookup"))
    panel = tab.detail.span.attributes
    tab.detail.tabs.setCurrentWidget(panel)
    model = panel.model
    total = model.rowCount()
    assert total > 5
    said = panel.copy_attributes()
    copied = json.loads(QApplication.clipboard().text())
    assert len(copied) == total and {"origin", "key", "value"} <= set(copied[0])
    assert said == tab.status.text() and f"Copied {total} attributes of step" in said
    # A long value is cut in its cell but copied whole.
    long = next(row for row in copied if len(json.dumps(row["value"])) > 200) if any(
        len(json.dumps(row["value"])) > 200 for row in copied) else None
    if long is not None:
        row = next(index for index in range(total) if model.row_at(index).key == long["key"])
        assert model.index(row, 2).data().endswith("…")
    panel.view.selectRow(1)
    panel.view.setFocus()
    qtbot.keyClick(panel.view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    (one,) = json.loads(QApplication.clipboard().text())
    assert one["key"] == model.row_at(1).key
    assert "Copied 1 attribute of step" in tab.status.text()
    save(window, "runs-span-traceloop-attributes")


def test_a_live_step_has_no_span_tabs(qtbot, make_window) -> None:
    with RunStore.open(resolve_db_path()) as store:
        run_id = store.start_run("tools/call echo", "live", "http://127.0.0.1:8765/mcp", started_at=T0)
        step = RunTrace().record_tool_result(0, "echo", {"text": "x"}, ToolResult.text("x"), 5.0,
                                             legs=(Leg("tools/call", 20, 5.0, 200, "ok"),))
        store.append_step(run_id, step, T0)
        store.finish_run(run_id, "ok")
    _window, tab = open_run(qtbot, make_window, run_id)
    tab.select_step(0)
    detail = tab.detail
    assert not tab_shown(detail, detail.span.attributes) and not tab_shown(detail, detail.span.events)
    assert not detail.span.sides.isVisibleTo(detail) and not detail.span.disagreement.isVisibleTo(detail)
    assert "service" not in detail.summary.text()


def test_a_step_without_events_hides_its_events_tab(qtbot, make_window) -> None:
    run_id = imported_agent_run("mcp_sdk.jsonl")
    window, tab = open_run(qtbot, make_window, run_id)
    tab.select_step(step_row(tab, "lookup"))
    detail = tab.detail
    assert tab_shown(detail, detail.span.attributes) and not tab_shown(detail, detail.span.events)
    # Both sides agreed: no band, but both sides named with their outcome.
    assert not detail.span.disagreement.isVisibleTo(detail)
    sides = detail.span.sides.text()
    assert sides.count("ok") == 2
    # Each side's own duration, to a tenth of a millisecond (the server's 0.49 ms is not "0 s").
    assert sides.startswith("Client (support-agent): ok, 5.9\u00a0ms")
    assert "Server (weather-mcp-server): ok, 0.5\u00a0ms" in sides
    save(window, "runs-span-joined-ok")


def test_the_attribute_model_passes_the_model_tester(qtmodeltester) -> None:
    payload = {"raw": {"otlp": {
        "attributes": {"a": 1, "b": [1, 2], "long": "x" * 5000}, "resource": {"attributes": {"service.name": "s"}},
        "scope": {"name": "sc", "version": "1", "attributes": {}},
        "server": {"attributes": {"c": {"d": None}}, "resource": {"attributes": {}}}}}}
    model = AttributeModel()
    model.set_rows(attribute_rows(payload["raw"]["otlp"]))
    qtmodeltester.check(model, force_py=True)
    assert model.rowCount() == 7
    assert model.index(2, 2).data().endswith("…") and len(model.index(2, 2).data()) <= 200
    model.set_filter("SERVICE")
    assert [model.row_at(row).key for row in range(model.rowCount())] == ["service.name"]
    qtmodeltester.check(model, force_py=True)


def test_events_are_timed_from_the_span_start_with_links_and_a_bounded_stack_trace() -> None:
    from inspector.gui.runs.span_view import STACK_LINES, events_text

    start = 1_764_580_443_000_000_000
    otlp = {"startTimeUnixNano": str(start), "events": [
        {"name": "retry <b>now</b>", "timeUnixNano": str(start + 12_300_000), "attributes": {"attempt": 2}},
        {"name": "exception", "timeUnixNano": str(start + 1_500_000_000), "attributes": {
            "exception.type": "ValueError", "exception.message": "bad\x1b[31m input",
            "exception.stacktrace": "\n".join(f"line {number}" for number in range(1000))}},
        {"name": "still waiting", "timeUnixNano": str(start + 3 * 3600 * 10**9), "attributes": {}},
        {"name": "clock behind", "timeUnixNano": str(start - 250_000_000), "attributes": {}},
        {"name": "far behind", "timeUnixNano": str(start - 2 * 10**9), "attributes": {}}],
        "links": [{"traceId": "ab" * 16, "spanId": "cd" * 8, "attributes": {"why": "retry of"}}],
        "server": {"startTimeUnixNano": str(start + 1_000_000), "events": [
            {"name": "log", "timeUnixNano": str(start + 3_000_000), "attributes": {}}]}}
    text = events_text(otlp)
    lines = text.splitlines()
    assert lines[0] == "+12.3 ms  retry <b>now</b>" and lines[1] == "    attempt = 2"
    # From a second on, as every duration is said (three hours read "+10,800,000.0 ms").
    assert "+1.5 s  exception ValueError" in text and "+3 h  still waiting" in text
    assert "−250.0 ms  clock behind" in text and "−2.0 s  far behind" in text and "message: bad\u241b[31m input" in text
    assert "line 0" in text and f"line {STACK_LINES - 1}" in text and f"line {STACK_LINES}\n" not in text
    assert "(cut: the stack trace has 8,889 characters; the Payload tab has it whole)" in text
    switch_language("de")
    try:  # the count in the locale's numbers ("8889" in both languages)
        assert "(gekürzt: der Stacktrace hat 8.889 Zeichen;" in events_text(otlp)
    finally:
        switch_language("en")
    assert "+2.0 ms  server: log" in text  # the server side's, from its own start
    assert f"trace {'ab' * 16} span {'cd' * 8}" in text and "why = retry of" in text
    assert events_text({"events": []}) == ""


@pytest.mark.parametrize(("language", "arguments", "result"), [
    ("en", "The trace this step came from does not record its arguments.",
     "The trace this step came from does not record its result."),
    ("de", "Der Trace, aus dem dieser Schritt stammt, hält seine Argumente nicht fest.",
     "Der Trace, aus dem dieser Schritt stammt, hält sein Resultat nicht fest.")])
def test_a_span_that_kept_no_arguments_or_result_claims_none(qtbot, make_window, language, arguments,
                                                             result) -> None:
    """The mcp SDK's spans record neither a call's arguments nor its result: the detail says the trace
    does not record them, not that the call had none."""
    run_id = imported_agent_run("mcp_sdk.jsonl")
    _window, tab = open_run(qtbot, make_window, run_id)
    switch_language(language)
    try:
        tab.select_step(step_row(tab, "lookup"))
        assert tab.detail.arguments.toPlainText() == arguments
        assert tab.detail.result.toPlainText() == result
    finally:
        switch_language("en")
    # Traceloop's spans record both: they are shown.
    run_id = imported_agent_run("traceloop.jsonl")
    tab.select_runs([run_id])
    tab.select_step(step_row(tab, "lookup"))
    assert '"Berlin"' in tab.detail.arguments.toPlainText() and "21 °C" in tab.detail.result.toPlainText()


@pytest.mark.parametrize(("language", "client_words"), [
    ("en", "Client (support-agent): gave up after 504 ms · "),
    ("de", "Client (support-agent): gab nach 504 ms auf · ")])
def test_where_the_sides_disagree_each_side_is_said_once_in_the_band(qtbot, make_window, language,
                                                                     client_words) -> None:
    """The sides line and the band under it said the same sentence twice (at 1,024 pixels four of the
    detail's lines): the band says it once, with each side's service."""
    run_id = imported_agent_run("mcp_sdk.jsonl")
    _window, tab = open_run(qtbot, make_window, run_id)
    switch_language(language)
    try:
        tab.select_step(step_row(tab, "slow: "))
        span = tab.detail.span
        band = span.disagreement.text()
        assert span.disagreement.isVisibleTo(tab.detail) and not span.sides.isVisibleTo(tab.detail)
        assert client_words in band and "Server (weather-mcp-server): " in band and "508" in band
        assert band.count("504") == 1
        # Sides that agree keep their line, and no band.
        tab.select_step(step_row(tab, "lookup"))
        assert span.sides.isVisibleTo(tab.detail) and not span.disagreement.isVisibleTo(tab.detail)
    finally:
        switch_language("en")


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_timed_out_call_says_its_exception_once_on_screen(qtbot, make_window, language) -> None:
    """Traceloop's call the client gave up on: its exception ("McpError: Timed out while waiting …")
    was on screen three times (the band, the Result's first line and its line on the sides). Now the
    Result says it once; the band says when each side ended; nothing is lost (Events, Payload)."""
    message = "Timed out while waiting for response to ClientRequest. Waited 0.5 seconds."
    run_id = imported_agent_run("traceloop.jsonl")
    window, tab = open_run(qtbot, make_window, run_id)
    switch_language(language)
    try:
        tab.select_step(step_row(tab, "slow: mcp.shared.exceptions.McpError: " + message))
        detail = tab.detail
        span = detail.span
        shown = [detail.heading, detail.summary, span.sides, span.disagreement]
        on_screen = [label.text() for label in shown if label.isVisibleTo(detail)] + [detail.result.toPlainText()]
        assert sum(text.count(message) for text in on_screen) == 1
        assert detail.result.toPlainText().splitlines()[0].endswith(message)
        assert "…" not in detail.result.toPlainText()  # a line left out is not a text cut short
        # The answer kept there is the server's, one the client never received: said so above it.
        lines = detail.result.toPlainText().splitlines()
        assert lines[-2:] == [
            "The server's answer, which the client had stopped waiting for:" if language == "en" else
            "Die Antwort des Servers, auf die der Client nicht mehr wartete:",
            '{"content": [{"type": "text", "text": "slept 0.8 s"}], "structuredContent": {"result": "slept 0.8 s"}, '
            '"isError": false}']
        band = span.disagreement.text()
        assert band.endswith("Client (support-agent): gave up after 504 ms · Server (weather-mcp-server): "
                             "finished ok after 823 ms" if language == "en" else
                             "Client (support-agent): gab nach 504 ms auf · Server (weather-mcp-server): "
                             "endete nach 823 ms erfolgreich")
        assert span.disagreement.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse
        # Still all there: the exception event, and the stored text (error in both of its sentences).
        assert message in span.events.toPlainText()
        assert detail.payload.toPlainText().count(message) >= 3
        save(window, f"runs-span-timed-out-once-{language}")
    finally:
        switch_language("en")


@pytest.mark.parametrize(("language", "word"), [("en", "not recorded"), ("de", "nicht erfasst")])
def test_a_call_whose_source_recorded_no_outcome_says_so_under_its_heading(qtbot, make_window, language,
                                                                           word) -> None:
    """Traceloop's second `slow` span ended with no status, error or result: the summary under the step's
    heading says "not recorded" in the Outcome column's words, never nothing (nor "ok")."""
    from inspector.gui.runs.timeline_model import OUTCOME_COLUMN

    run_id = imported_agent_run("traceloop.jsonl")
    window, tab = open_run(qtbot, make_window, run_id)
    switch_language(language)
    try:
        qtbot.waitUntil(lambda: tab.timeline.rowCount() > 0)
        unrecorded = [row for row in range(tab.timeline.rowCount())
                      if tab.timeline.index(row, OUTCOME_COLUMN).data() == word]
        assert len(unrecorded) == 1  # the second call of `slow`
        tab.select_step(unrecorded[0])
        qtbot.waitUntil(lambda: tab.detail.step is not None and "slow" in tab.detail.heading.text())
        assert word in tab.detail.summary.text().split(" · "), tab.detail.summary.text()
        save(window, f"runs-unrecorded-summary-{language}")
    finally:
        switch_language("en")
