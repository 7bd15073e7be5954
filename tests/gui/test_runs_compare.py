"""Compare in the window: two scenario runs played against the demo server (one of them cancelled by
the user mid-step) selected in the Runs tab, Compare opened, the aligned rows and the summary read;
imported traces compared; screenshots in English and German (tests/gui/screenshots/)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from inspector.gui.help_menu import window_shortcuts
from inspector.gui.language import switch_language
from inspector.gui.runs.compare_model import CompareModel
from inspector.store import RunStore, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_models_and_accessibility import _unnamed
from tests.gui.test_screenshots import save
from tests.integration.test_cli_compare import scenario_file
from tests.support.cli_process import cli_here

ROOT = Path(__file__).resolve().parents[2]
OTEL = ROOT / "tests" / "fixtures" / "otel"


def play(path: Path, server: str) -> int:
    """Play a scenario file as the command line does (in this process: the runs it stores are the point), against
    ``server``."""
    done = cli_here("scenario", str(path), "--server", server, "--json", "--db", str(resolve_db_path()))
    assert done.returncode in (0, 130), done.stderr
    return json.loads(done.stdout)["run_id"]


@pytest.fixture
def two_runs(demo_server, tmp_path) -> tuple[int, int]:
    finished = play(scenario_file(tmp_path, "finished", seconds=0.3), demo_server.url)
    cancelled = play(scenario_file(tmp_path, "cancelled", seconds=60, cancel_after=2), demo_server.url)
    return finished, cancelled


def cells(model: CompareModel, column: str, role=Qt.ItemDataRole.DisplayRole) -> list[str]:
    number = CompareModel.COLUMNS.index(column)
    return [model.index(row, number).data(role) for row in range(model.rowCount())]


def open_compare(qtbot, tab, run_ids):
    assert tab.select_runs(run_ids)
    launcher = tab.comparing
    assert launcher.button.isEnabled() and launcher.action.isEnabled()
    qtbot.mouseClick(launcher.button, Qt.MouseButton.LeftButton)
    dialog = launcher.dialog
    assert dialog is not None
    if dialog.runs is None and not dialog.error:
        with qtbot.waitSignal(dialog.ready, timeout=20000):
            pass
    return dialog


def test_compare_two_scenario_runs_one_cancelled(qtbot, make_window, qtmodeltester, two_runs) -> None:
    finished, cancelled = two_runs
    window = make_window(wait_tools=False)
    window.resize(1300, 820)
    window.tabs.setCurrentWidget(window.runs_tab)
    tab = window.runs_tab
    qtbot.waitUntil(lambda: tab.runs.row_of(cancelled) is not None)
    # One run selected, or three: nothing to compare.
    assert tab.select_runs([finished]) and not tab.comparing.button.isEnabled()
    dialog = open_compare(qtbot, tab, [cancelled, finished])
    qtbot.addWidget(dialog)
    model = dialog.model
    qtmodeltester.check(model)
    assert _unnamed(dialog) == []
    # The older run is the first, whichever was selected first.
    assert (dialog.first_id, dialog.second_id) == (finished, cancelled)
    assert cells(model, "step") == ["model", "tool write_note", "model", "tool slow_task", "model", "tool list_notes",
                                     "model"]
    marks = cells(model, "mark")
    assert marks[2:] == ["≠", "≠", "−", "−", "−"] and marks[0] == "="
    assert cells(model, "round") == ["1", "1", "2", "2", "3", "3", "4"]
    slow = 3
    assert cells(model, "first")[slow].startswith("ok · ") and cells(model, "second")[slow].startswith("cancelled · ")
    assert cells(model, "differences")[slow].startswith("ok → cancelled")
    assert "other arguments" in cells(model, "differences")[slow]
    assert "slower" not in cells(model, "differences")[slow]  # cancelled, not slow: the user stopped it
    assert cells(model, "second")[4:] == ["—"] * 3
    assert cells(model, "second", Qt.ItemDataRole.AccessibleTextRole)[4] == "not in this run"
    assert cells(model, "mark", Qt.ItemDataRole.AccessibleTextRole)[4] == f"only in run {finished}"
    summary = dialog.summary.text()
    assert f"1 ok in run {finished} and cancelled in run {cancelled}" in summary
    assert f"3 steps only in run {finished}" in summary
    assert "failed" not in summary
    # The first row that differs is chosen; the slow task's two steps side by side.
    # (The one demo server numbers the notes: the second run's write_note says "Note 2 written.")
    assert "another result" in cells(model, "differences")[1]
    assert dialog.view.currentIndex().row() == 1
    dialog.view.selectRow(slow)
    first_text, second_text = dialog.sides.first.text.toPlainText(), dialog.sides.second.text.toPlainText()
    assert '"seconds": 0.3' in first_text and '"seconds": 60' in second_text
    assert second_text.startswith("cancelled · ") and "You cancelled" not in first_text
    assert dialog.sides.first.heading.text() == f"Run {finished}, step 4: tool slow_task (round 2)"
    assert dialog.sides.second.heading.text() == f"Run {cancelled}, step 4: tool slow_task (round 2)"
    dialog.resize(1200, 720)
    assert save(dialog, "compare-two-runs-en", grey=True).exists()
    switch_language("de")
    try:
        QApplication.processEvents()
        assert f"in Lauf {finished} ok und in Lauf {cancelled} abgebrochen" in dialog.summary.text()
        assert cells(model, "differences")[slow].startswith("ok → abgebrochen")
        assert model.headerData(3, Qt.Orientation.Horizontal) == f"Lauf {finished}"
        assert save(dialog, "compare-two-runs-de").exists()
    finally:
        switch_language("en")
    # Swap: the cancelled run first, the finished one measured against it.
    with qtbot.waitSignal(dialog.ready, timeout=20000):
        dialog.swap_button.click()
    assert (dialog.first_id, dialog.second_id) == (cancelled, finished)
    assert f"1 cancelled in run {cancelled} and ok in run {finished}" in dialog.summary.text()
    assert f"3 steps only in run {finished}" in dialog.summary.text()
    assert cells(model, "mark")[4:] == ["+", "+", "+"]


def test_compare_needs_exactly_two_runs_and_opens_from_the_context_menu(qtbot, make_window) -> None:
    with RunStore.open(resolve_db_path()) as store:
        ids = [store.start_run(f"tools/call echo {n}", "live", "http://127.0.0.1:1/mcp") for n in range(3)]
        for run_id in ids:
            store.finish_run(run_id, "ok")
    window = make_window(wait_tools=False)
    window.tabs.setCurrentWidget(window.runs_tab)
    tab = window.runs_tab
    qtbot.waitUntil(lambda: tab.runs.row_of(ids[-1]) is not None)
    assert tab.select_runs(ids) and not tab.comparing.action.isEnabled()
    assert tab.select_runs(ids[:2]) and tab.comparing.action.isEnabled()
    assert tab.comparing.action in tab.run_view.actions()
    assert tab.run_view.contextMenuPolicy() == Qt.ContextMenuPolicy.ActionsContextMenu
    tab.comparing.action.trigger()
    dialog = tab.comparing.dialog
    qtbot.addWidget(dialog)
    if dialog.runs is None:
        with qtbot.waitSignal(dialog.ready, timeout=20000):
            pass
    assert dialog.summary.text() == "Neither run has any step."
    dialog.close()
    # Ctrl+Shift+C in the run list does the same, and the Help menu's list of shortcuts names it.
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    tab.run_view.setFocus()
    qtbot.keyClick(tab.run_view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: tab.comparing.dialog is not None and tab.comparing.dialog is not dialog)
    qtbot.addWidget(tab.comparing.dialog)
    assert ("Runs › Compare the two selected runs", "Ctrl+Shift+C") in window_shortcuts(window)
    # The Runs tab with two runs selected and Compare at hand, in German at the window's first size.
    tab.comparing.dialog.close()
    switch_language("de")
    try:
        QApplication.processEvents()
        assert tab.comparing.button.text() == "Vergleichen…" and tab.comparing.button.isVisible()
        assert tab.comparing.button.width() >= tab.comparing.button.sizeHint().width()
        assert save(window, "runs-two-selected-compare-de").exists()
    finally:
        switch_language("en")


def two_imported_traces(qtbot, make_window):
    """The window on its Runs tab with the mcp SDK's and Traceloop's traces imported: (window, tab, their run ids)."""
    with RunStore.open(resolve_db_path()) as store:
        sdk = import_trace(store, OTEL / "mcp_sdk.jsonl").run_ids[0]
        traceloop = import_trace(store, OTEL / "traceloop.jsonl").run_ids[0]
    window = make_window(wait_tools=False)
    window.tabs.setCurrentWidget(window.runs_tab)
    tab = window.runs_tab
    qtbot.waitUntil(lambda: tab.runs.row_of(traceloop) is not None)
    return window, tab, sdk, traceloop


def test_compare_two_imported_traces(qtbot, make_window, qtmodeltester) -> None:
    window, tab, sdk, traceloop = two_imported_traces(qtbot, make_window)
    dialog = open_compare(qtbot, tab, [sdk, traceloop])
    qtbot.addWidget(dialog)
    qtmodeltester.check(dialog.model)
    assert set(cells(dialog.model, "round")) == {"–"}  # traces without rounds: aligned by order and name
    steps = cells(dialog.model, "step")
    assert steps[0] == "request invoke_agent support-agent"
    paired = [step for step, mark in zip(steps, cells(dialog.model, "mark"), strict=True) if mark in "=≠"]
    assert paired == ["request invoke_agent support-agent", "tool lookup", "tool fail", "tool slow", "tool slow"]
    assert "faster in run" in dialog.summary.text()
    dialog.view.selectRow(steps.index("tool lookup"))
    assert dialog.sides.first.heading.text().endswith("tool lookup")  # no round to name
    assert save(dialog, "compare-imported-traces-en").exists()


@pytest.mark.parametrize(("language", "left_out"), [
    ("en", "Not compared: 7 plumbing steps of run {run}, hidden as the timeline hides them (tick “Show plumbing” to "
           "compare them too)."),
    ("de", "Nicht verglichen: 7 Infrastruktur-Schritte von Lauf {run}, ausgeblendet wie in der Zeitleiste "
           "(„Infrastruktur anzeigen“ ankreuzen, um sie mitzuvergleichen)."),
])
def test_compare_hides_the_plumbing_as_the_timeline_does_and_shows_it_when_asked(qtbot, make_window, language,
                                                                                left_out) -> None:
    """Traceloop's 7 stream writers, which the timeline hides, were 7 of "9 steps only in run N": they are left
    out and counted, and the dialog's "Show plumbing" compares them too, as the timeline's shows them."""
    window, tab, sdk, traceloop = two_imported_traces(qtbot, make_window)
    switch_language(language)
    try:
        dialog = open_compare(qtbot, tab, [sdk, traceloop])
        qtbot.addWidget(dialog)
        dialog.resize(1100, 680)
        assert not any(step.endswith("ResponseStreamWriter") for step in cells(dialog.model, "step"))
        assert dialog.left_out.isVisibleTo(dialog) and dialog.left_out.text() == left_out.format(run=traceloop)
        assert dialog.plumbing_toggle.isVisibleTo(dialog) and not dialog.plumbing_toggle.isChecked()
        assert dialog.model.comparison.summary.only_second == 2
        save(dialog, f"compare-plumbing-hidden-{language}")
        with qtbot.waitSignal(dialog.ready, timeout=20000):
            dialog.plumbing_toggle.setChecked(True)
        assert sum(step.endswith("ResponseStreamWriter") for step in cells(dialog.model, "step")) == 7
        assert dialog.model.comparison.summary.only_second == 9
        assert not dialog.left_out.isVisibleTo(dialog) and dialog.plumbing_toggle.isVisibleTo(dialog)
        with qtbot.waitSignal(dialog.ready, timeout=20000):
            dialog.swap()  # the runs turned round keep the plumbing shown
        assert sum(step.endswith("ResponseStreamWriter") for step in cells(dialog.model, "step")) == 7
    finally:
        switch_language("en")


@pytest.mark.parametrize(("language", "unrecorded", "error_message", "summary"), [
    ("en", "not recorded", "another error message", "2 steps alike, 1 faster in run {run} by 0.65 s, 2 with other "
                                                    "error messages, 2 steps only in run "),
    ("de", "nicht erfasst", "andere Fehlermeldung", "2 Schritte gleich, 1 in Lauf {run} um 0,65 s schneller, 2 mit "
                                                    "anderen Fehlermeldungen, 2 Schritte nur in Lauf "),
])
def test_a_call_with_no_recorded_outcome_says_so_in_the_comparison(qtbot, make_window, language, unrecorded,
                                                                   error_message, summary) -> None:
    """Both traces' last call has no recorded outcome: its cells say "not recorded" as the timeline
    does, in the window and on the command line, never a bare duration or "-"; and the pair is alike (it
    said "another result" from the importer's two sentences of why none was recorded). The two calls that
    failed in both differ in their error messages; "lookup", whose answer the mcp SDK's trace does not keep, has
    none to differ. The window and the command line say the same."""
    window, tab, sdk, traceloop = two_imported_traces(qtbot, make_window)
    switch_language(language)
    try:
        dialog = open_compare(qtbot, tab, [sdk, traceloop])
        qtbot.addWidget(dialog)
        firsts, seconds = cells(dialog.model, "first"), cells(dialog.model, "second")
        last = max(row for row, step in enumerate(cells(dialog.model, "step")) if step.endswith(" slow"))
        assert firsts[last].startswith(f"{unrecorded} · ") and seconds[last].startswith(f"{unrecorded} · ")
        assert (cells(dialog.model, "mark")[last], cells(dialog.model, "differences")[last]) == ("=", "")
        assert cells(dialog.model, "differences").count(error_message) == 2
        said = dialog.summary.text()
        assert said.startswith(summary.format(run=traceloop)), said
        dialog.resize(1100, 520)
        dialog.show()
        qtbot.waitExposed(dialog)
        assert save(dialog, f"compare-unrecorded-alike-{language}").exists()
    finally:
        switch_language("en")
    done = cli_here("compare", str(sdk), str(traceloop), "--lang", language,
                    env={"RUN_INSPECTOR_DB": str(resolve_db_path())})
    (row,) = [line for line in done.stdout.splitlines() if line.count(unrecorded) == 2]
    assert " slow " in row and row.startswith("=") and row.rstrip().endswith(" s"), row
    assert said in done.stdout.splitlines()
    assert sum(line.rstrip().endswith(error_message) for line in done.stdout.splitlines()) == 2


def test_a_failed_sides_outcome_and_duration_fit_their_column_in_german(qtbot, make_window, demo_server) -> None:
    """A call that timed out beside one the user cancelled: the first side's cell is bold (the
    outcome differs) and in German reads "fehlgeschlagen: Zeitüberschreitung · 1,0 s", wider than the runs' column was
    (170 px): its duration was cut to "fehlgeschlagen · 1,…" with nothing to hover. The two runs'
    columns now widen to their cells."""
    from PySide6.QtGui import QFontMetrics

    from tests.gui.test_screenshots import finished

    window = make_window((demo_server.url, "Demo server"), budget_s=1)
    assert window.workbench.tools.select_tool("hang")
    timed_out = window.workbench.run_current_tool()
    assert finished(qtbot, timed_out).status == "failed"
    cancelled = window.workbench.run_current_tool()
    qtbot.wait(300)
    cancelled.cancel()
    assert finished(qtbot, cancelled).status == "cancelled"
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: tab.runs.row_of(cancelled.outcome.run_id) is not None)
    switch_language("de")
    try:
        dialog = open_compare(qtbot, tab, [timed_out.outcome.run_id, cancelled.outcome.run_id])
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        model, view = dialog.model, dialog.view
        for column in ("first", "second"):
            number = CompareModel.COLUMNS.index(column)
            [text] = cells(model, column)
            font = model.index(0, number).data(Qt.ItemDataRole.FontRole) or view.font()
            style = view.style()
            icon = style.pixelMetric(style.PixelMetric.PM_SmallIconSize)
            margin = style.pixelMetric(style.PixelMetric.PM_FocusFrameHMargin) + 1  # each side of icon and text
            needed = QFontMetrics(font).horizontalAdvance(text) + icon + 4 * margin
            assert view.columnWidth(number) >= needed, (column, text, view.columnWidth(number), needed)
        # Its legs tell it timed out: said as the timeline and `runs show` say it.
        assert cells(model, "first")[0].startswith("fehlgeschlagen: Zeitüberschreitung · ")
        # Whole in its tooltip too, where a narrow dialog cuts the cell (the differences keep their room).
        assert cells(model, "first")[0] in cells(model, "first", Qt.ItemDataRole.ToolTipRole)[0]
        # Cancelled after 0.3 s is not "0,7 s schneller" than timed out after 1 s: the outcome
        # change alone, each side's cell saying its own duration.
        assert cells(model, "differences") == ["fehlgeschlagen → abgebrochen"]
        assert re.fullmatch(r"abgebrochen · \d+,\d+ s", cells(model, "second")[0])  # 0,3 s idle, more when loaded
        assert save(dialog, "compare-failed-beside-cancelled-de").exists()
    finally:
        switch_language("en")
    assert cells(model, "differences") == ["failed → cancelled"]
    assert "faster" not in dialog.summary.text()
    assert save(dialog, "compare-failed-beside-cancelled-en").exists()


@pytest.mark.parametrize(("language", "status"), [("en", "failed (2 of 4 tool calls failed, 1 not recorded)"),
                                                  ("de", "fehlgeschlagen (2 von 4 Tool-Aufrufen schlugen fehl, "
                                                         "1 nicht erfasst)")],
                         ids=["en", "de"])
def test_the_compared_runs_say_why_they_failed_as_runs_list_does(qtbot, make_window, language, status) -> None:
    """Both traces failed two of their four tool calls: the lines naming the two runs say so beside
    their status, as `runs list` and the timeline's heading do, in English and German."""
    window, tab, sdk, traceloop = two_imported_traces(qtbot, make_window)
    switch_language(language)
    try:
        dialog = open_compare(qtbot, tab, [sdk, traceloop])
        qtbot.addWidget(dialog)
        for label, run in ((dialog.first_label, sdk), (dialog.second_label, traceloop)):
            assert f" {run}, invoke_agent support-agent — {status}, " in label.text(), label.text()
        dialog.resize(1100, 500)
        assert save(dialog, f"compare-runs-say-why-{language}").exists()
    finally:
        switch_language("en")


@pytest.mark.parametrize(("language", "first", "only"), [
    ("en", "First: run 1, span 0 — ok, 1,003 steps, started", "1,000 steps only in run 1"),
    ("de", "Erster: Lauf 1, span 0 — ok, 1.003 Schritte, gestartet", "1.000 Schritte nur in Lauf 1")])
def test_thousands_of_steps_are_counted_as_the_language_writes_numbers(qtbot, make_window, tmp_path: Path,
                                                                      language: str, first: str, only: str) -> None:
    """The runs' lines said "1003 steps" (German too) where the run list and the import say "1,003"."""
    from tests.integration.test_cli_compare import _spans_file

    with RunStore.open(resolve_db_path()) as store:
        ids = [import_trace(store, _spans_file(tmp_path, trace, count)).run_ids[0]
               for trace, count in ((1, 1_003), (2, 3))]
    window = make_window(wait_tools=False)
    window.tabs.setCurrentWidget(window.runs_tab)
    tab = window.runs_tab
    qtbot.waitUntil(lambda: tab.runs.row_of(ids[1]) is not None)
    switch_language(language)
    try:
        dialog = open_compare(qtbot, tab, ids)
        qtbot.addWidget(dialog)
        assert dialog.first_label.text().startswith(first), dialog.first_label.text()
        assert dialog.summary.text().endswith(only), dialog.summary.text()
        dialog.resize(1000, 500)
        assert save(dialog, f"compare-thousands-{language}").exists()
    finally:
        switch_language("en")
