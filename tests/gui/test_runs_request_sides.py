"""A request read from a trace (its kind has no outcome column): the timeline says a failure beside
its name, and the two sides of a joined request say how each span ended (failed, or no error
recorded), never "no outcome recorded" for a span that records an error. Real files, imported into
the test's SQLite file."""

from __future__ import annotations

import pytest

from inspector.gui.language import switch_language
from inspector.gui.runs.timeline_model import COLUMNS
from inspector.store import RunStore, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_span_detail import imported_agent_run, open_run, step_row
from tests.integration.test_trace_request_failures import failing_request_trace

DETAILS = COLUMNS.index("details")


@pytest.mark.parametrize(("language", "failed", "none"), [
    ("en", "failed", "no error recorded"), ("de", "fehlgeschlagen", "kein Fehler aufgezeichnet")])
def test_a_failed_request_says_so_in_its_row_and_each_side_says_how_it_ended(qtbot, make_window, tmp_path,
                                                                             language, failed, none) -> None:
    with RunStore.open(resolve_db_path()) as store:
        (run_id,) = import_trace(store, failing_request_trace(tmp_path / "trace.jsonl")).run_ids
    _window, tab = open_run(qtbot, make_window, run_id)
    switch_language(language)
    try:
        rows = [tab.timeline.index(row, DETAILS).data() for row in range(tab.timeline.rowCount())]
        assert rows == ["MCP send initialize", f"MCP send tools/list: {failed}: Method not found"]
        tab.select_step(1)
        sides = tab.detail.span.sides.text()
        point = "," if language == "de" else "."
        assert sides.startswith(f"Client (agent): {failed}, 20{point}0\u00a0ms")
        assert f"Server (weather): {failed}, 1{point}0\u00a0ms" in sides
        tab.select_step(0)
        sides = tab.detail.span.sides.text()
        assert sides.count(none) == 2 and "outcome" not in sides and "Ergebnis" not in sides
    finally:
        switch_language("en")


def test_the_mcp_sdk_handshake_sides_claim_no_missing_outcome(qtbot, make_window) -> None:
    run_id = imported_agent_run("mcp_sdk.jsonl")
    _window, tab = open_run(qtbot, make_window, run_id)
    tab.select_step(step_row(tab, "MCP send initialize"))
    sides = tab.detail.span.sides.text()
    assert "no outcome recorded" not in sides and sides.count("no error recorded") == 2
    # A tool call without an outcome still says so (the mcp SDK's call the client stopped waiting for).
    tab.select_step(step_row(tab, "slow: no outcome"))
    assert tab.detail.step.row.outcome == ""


def test_a_span_that_never_ended_is_said_in_the_readers_language(qtbot, make_window, tmp_path) -> None:
    from inspector.i18n.details import UNFINISHED_NOTE
    from inspector.traces.otlp import UNFINISHED_NOTE as IMPORTERS
    from tests.integration.test_trace_request_failures import unfinished_trace

    assert UNFINISHED_NOTE == IMPORTERS  # the display says again what the importer wrote
    with RunStore.open(resolve_db_path()) as store:
        (run_id,) = import_trace(store, unfinished_trace(tmp_path / "trace.json")).run_ids
    _window, tab = open_run(qtbot, make_window, run_id)
    switch_language("de")
    try:
        rows = [tab.timeline.index(row, DETAILS).data() for row in range(tab.timeline.rowCount())]
        assert "child op (unbeendet: der Span hat keine Endzeit)" in rows
        assert "search: unbeendet: der Span hat keine Endzeit" in rows
        tab.select_step(rows.index("search: unbeendet: der Span hat keine Endzeit"))
        assert tab.detail.result.toPlainText().startswith("unbeendet: der Span hat keine Endzeit")
        assert "unbeendet" in tab.detail.summary.text()
    finally:
        switch_language("en")


def test_every_sentence_of_the_importer_in_a_steps_result_is_said_in_german(qtbot, make_window, tmp_path) -> None:
    """A failure's lines (its message, then its error.type in words) and Traceloop's time-out (the
    time-out, the server's late answer, how the sides disagree): each said in German, the source's own text as it is."""
    with RunStore.open(resolve_db_path()) as store:
        (run_id,) = import_trace(store, failing_request_trace(tmp_path / "trace.jsonl")).run_ids
    _window, tab = open_run(qtbot, make_window, run_id)
    switch_language("de")
    try:
        tab.select_step(1)
        assert tab.detail.result.toPlainText().splitlines() == [
            "MCP send tools/list", "fehlgeschlagen: Method not found",
            "der Server kennt die Methode nicht (JSON-RPC-Fehler -32601)"]
        traceloop = imported_agent_run("traceloop.jsonl")
        tab.select_runs([traceloop])
        tab.select_step(step_row(tab, "slow: mcp.shared.exceptions.McpError: Timed out"))
        lines = tab.detail.result.toPlainText().splitlines()
        assert lines[0].startswith("mcp.shared.exceptions.McpError: Timed out")  # its words say the time-out
        # Its error.type only names the exception's class, said on the line above: not said again.
        assert lines[1] == "Die Antwort des Servers, auf die der Client nicht mehr wartete:"
        assert "error.type" not in tab.detail.result.toPlainText()
        # How the sides disagree: in the band, in German, the exception not said again there.
        assert "der Client gab" not in tab.detail.result.toPlainText()
        assert tab.detail.span.disagreement.text().endswith(
            "Client (support-agent): gab nach 504 ms auf · Server (weather-mcp-server): endete nach 823 ms erfolgreich")
    finally:
        switch_language("en")
