"""Find (Ctrl+F in the Runs tab) finds a step by what the window shows of it, in the language shown:
a call cancelled with Ctrl-C keeps "You cancelled the operation …" in English, without the template
Find looked for, and the German reader's Result tab says "Sie haben den Vorgang abgebrochen …"; the
same run imported from its export says in any language that "The person who recorded this run
cancelled …". The heading of the step's detail, its Details as the row shows them, the band on a cancel
sent and the band on two sides that disagree are found as they read too. A long run's words are said
page by page while the window goes on answering, and Find finds again when they are all said."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.gui.runs.shown_words import AT_ONCE_ROWS
from inspector.store import RunStore, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_find_said import typed_in_find
from tests.gui.test_runs_screenshots import runs_window
from tests.support.cli_process import ROOT, cli, cli_here
from tests.support.runs_tab import RunsShown
from tests.support.sample_runs import big_run

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"


def cancelled_call(url: str, db: Path) -> int:
    """`run-inspector call URL hang --db DB`, stopped with Ctrl-C once its request was sent: the run it stored."""
    process = subprocess.Popen([sys.executable, "-m", "inspector", "call", url, "hang", "--db", str(db)], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with RunStore.open(db) as store:
            if store.list_runs(limit=None):
                break
        time.sleep(0.1)
    time.sleep(1.5)  # the handshake done, tools/call sent: the hang tool waits
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert "You cancelled the operation after tools/call had been sent" in out + err, (out, err)
    with RunStore.open(db) as store:
        (run,) = store.list_runs(limit=None)
    return run.id


def imported_copy(url: str, folder: Path) -> int:
    """A call cancelled the same way on another machine, exported to a file and imported from it."""
    elsewhere, exported = folder / "elsewhere.db", folder / "cancelled.json"
    run_id = cancelled_call(url, elsewhere)
    assert cli("export", str(run_id), "-o", str(exported), "--db", str(elsewhere)).returncode == 0
    with RunStore.open(resolve_db_path()) as store:
        (copy,) = import_trace(store, exported).run_ids
    return copy


def unanswered_span(path: Path) -> Path:
    """A trace of one client span calling the tool echo, which records neither arguments nor result."""
    attributes = [{"key": "mcp.method.name", "value": {"stringValue": "tools/call"}},
                  {"key": "gen_ai.tool.name", "value": {"stringValue": "echo"}}]
    span = {"traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b174", "name": "tools/call echo",
            "kind": 3, "startTimeUnixNano": "1764000000000000000", "endTimeUnixNano": "1764000000250000000",
            "attributes": attributes, "status": {"code": 1}}
    path.write_text(json.dumps({"resourceSpans": [{"resource": {"attributes": [
        {"key": "service.name", "value": {"stringValue": "agent"}}]}, "scopeSpans": [{"spans": [span]}]}]}))
    return path


def shown_window(qtbot, make_window):
    """The window, shown."""
    window = runs_window(make_window)
    window.show()
    qtbot.waitExposed(window)
    return window


def found(qtbot, window, run_id: int, needle: str) -> tuple[str, str, str]:
    """The run shown, ``needle`` typed into Find: (Find's status, the heading and the Result tab of the step
    it went to)."""
    RunsShown(qtbot, window).select(run_id)
    tab = window.runs_tab
    pane = typed_in_find(qtbot, tab, needle)
    QApplication.processEvents()
    return pane.find_status.text(), tab.detail.heading.text(), tab.detail.result.toPlainText()


def test_a_cancel_is_found_by_the_sentence_the_result_tab_says(qtbot, make_window, demo_server, tmp_path) -> None:
    live = cancelled_call(demo_server.url, resolve_db_path())
    copy = imported_copy(demo_server.url, tmp_path)
    window = shown_window(qtbot, make_window)
    switch_language("de")
    try:
        status, heading, result = found(qtbot, window, live, "Sie haben den Vorgang abgebrochen, nachdem tools/call")
        assert status == "1 von 1" and heading == "Schritt 1: Tool hang", (status, heading)
        assert result.startswith("Sie haben den Vorgang abgebrochen, nachdem tools/call an den Server"), result
        # The heading, the Details and the band under the tabs, as they read.
        assert found(qtbot, window, live, "Schritt 1: Tool hang")[0] == "1 von 1"
        assert found(qtbot, window, live, "hang: unterwegs abgebrochen (die Anfrage war gesendet")[0] == "1 von 1"
        assert found(qtbot, window, live, "Prüfen Sie das auf dem Server, bevor Sie")[0] == "1 von 1"
        # The stored English finds it too; the words said of a copy read from a file are not the live run's.
        assert found(qtbot, window, live, "You cancelled the operation after tools/call")[0] == "1 von 1"
        assert found(qtbot, window, live, "Die Person, die diesen Lauf aufgezeichnet hat")[0] == "kein Treffer"
        status, _heading, result = found(qtbot, window, copy, "Die Person, die diesen Lauf aufgezeichnet hat, hat den")
        assert status == "1 von 1" and result.startswith("Die Person, die diesen Lauf aufgezeichnet hat"), result
        assert found(qtbot, window, copy, "Sie haben den Vorgang abgebrochen")[0] == "kein Treffer"
    finally:
        switch_language("en")
    status, _heading, result = found(qtbot, window, copy, "The person who recorded this run cancelled the operation")
    assert status == "1 of 1" and result.startswith("The person who recorded this run cancelled"), result
    assert found(qtbot, window, copy, "Step 1: tool hang")[0] == "1 of 1"
    assert found(qtbot, window, copy, "You cancelled the operation after tools/call")[0] == "1 of 1"  # as stored
    assert found(qtbot, window, copy, "Die Person, die diesen Lauf")[0] == "no match"


def test_the_band_on_two_sides_that_disagree_is_found_as_it_reads(qtbot, make_window) -> None:
    with RunStore.open(resolve_db_path()) as store:
        (run_id,) = [run_id for run_id in import_trace(store, FIXTURES / "traceloop.jsonl").run_ids]
    window = shown_window(qtbot, make_window)
    band = window.runs_tab.detail.span.disagreement
    status, heading, _result = found(qtbot, window, run_id, "The two sides disagree: Client (support-agent): gave up")
    assert status == "1 of 1" and band.text().startswith("The two sides disagree: Client (support-agent): gave up")
    switch_language("de")
    try:
        status, heading, _result = found(qtbot, window, run_id, "Die beiden Seiten widersprechen sich: Client (")
        assert status == "1 von 1" and band.text().startswith("Die beiden Seiten widersprechen sich: Client ("), \
            (status, band.text())
        assert heading.startswith("Schritt "), heading
        assert found(qtbot, window, run_id, heading)[0] == "1 von 1"
    finally:
        switch_language("en")


def test_a_long_run_is_searched_in_its_shown_words_while_the_window_answers(qtbot, make_window) -> None:
    steps = AT_ONCE_ROWS + 6_000
    with RunStore.open(resolve_db_path()) as store:
        run_id = big_run(store, steps)
    window = shown_window(qtbot, make_window)
    RunsShown(qtbot, window).select(run_id)
    tab = window.runs_tab
    words = tab.timeline_pane.model.shown_words
    last = f"Step {steps - 1}: tool"  # the heading of the last tool call: the store keeps no such words
    pane = typed_in_find(qtbot, tab, last)
    assert not words.complete  # Find answered from what was said so far; the rest is said between events
    qtbot.waitUntil(lambda: words.complete, timeout=60_000)
    qtbot.waitUntil(lambda: pane.find_status.text() == "1 of 1", timeout=10_000)
    assert tab.detail.heading.text().startswith(last)
    # Said again in another language, when Find asks.
    switch_language("de")
    try:
        pane = typed_in_find(qtbot, tab, f"Schritt {steps - 1}: Tool")
        qtbot.waitUntil(lambda: words.complete and pane.find_status.text() == "1 von 1", timeout=60_000)
    finally:
        switch_language("en")


def test_a_model_call_is_found_by_its_conversation_as_the_result_tab_says_it(qtbot, make_window) -> None:
    """Pydantic AI's trace keeps what its model was asked and answered; the Result tab says it in lines of
    ours ("assistant: ruft das Tool lookup mit {…} auf"), which the store does not keep."""
    with RunStore.open(resolve_db_path()) as store:
        (run_id,) = import_trace(store, FIXTURES / "pydantic_ai.jsonl").run_ids
    window = shown_window(qtbot, make_window)
    switch_language("de")
    try:
        status, _heading, result = found(qtbot, window, run_id, 'assistant: ruft das Tool lookup mit {"city":"Berlin"}')
        assert status.endswith("von 2") and 'assistant: ruft das Tool lookup mit {"city":"Berlin"} auf' in result, \
            (status, result)
    finally:
        switch_language("en")
    status, _heading, result = found(qtbot, window, run_id, "What the model answered (as the trace recorded it)")
    assert status.startswith("1 of ") and "What the model answered (as the trace recorded it):" in result


def test_a_picture_and_a_step_without_result_are_found_as_the_result_tab_says_them(qtbot, make_window, demo_server,
                                                                                   tmp_path) -> None:
    """The Result tab names a picture the tool answered with in a line of ours ("Image (image/png, 250 bytes).",
    in German "Bild (…)."), and says so of a step with no result at all; the store keeps neither: Find missed
    both."""
    db = resolve_db_path()
    assert cli_here("call", demo_server.url, "describe_image", "--db", str(db)).returncode == 0
    with RunStore.open(db) as store:
        (pictured,) = [run.id for run in store.list_runs(limit=None)]
        (traced,) = import_trace(store, unanswered_span(tmp_path / "span.json")).run_ids
    window = shown_window(qtbot, make_window)
    status, _heading, result = found(qtbot, window, pictured, "Image (image/png, ")
    assert status == "1 of 1" and "\nImage (image/png, " in result, (status, result)
    assert found(qtbot, window, pictured, "This step has no result text")[0] == "no match"
    status, _heading, result = found(qtbot, window, traced, "does not record its result")
    assert status.startswith("1 of ") and result == "The trace this step came from does not record its result.", \
        (status, result)
    switch_language("de")
    try:
        status, _heading, result = found(qtbot, window, pictured, "Bild (image/png, ")
        assert status == "1 von 1" and "\nBild (image/png, " in result, (status, result)
        status, _heading, result = found(qtbot, window, traced, "hält sein Resultat nicht fest")
        assert status.startswith("1 von ") and "hält sein Resultat nicht fest" in result, (status, result)
    finally:
        switch_language("en")
