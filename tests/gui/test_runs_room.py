"""The Runs tab as a user meets it at the default size, and the window's one vocabulary: ten runs
in view, titles not cut, servers by name, the same word for the same outcome in every view (English
and German), and durations in one format (never milliseconds beside seconds)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QApplication, QLabel, QWidget

from inspector.gui.language import switch_language
from inspector.gui.runs.outcome_cell import FailureRole
from inspector.gui.runs.runs_model import COLUMNS as RUN_COLUMNS
from inspector.gui.runs.runs_model import RunIdRole
from inspector.gui.runs.timeline_model import OUTCOME_COLUMN, OutcomeRole
from inspector.gui.workbench.servers_model import health_line
from inspector.i18n.words import outcome_word
from inspector.store import RunStore, ServerRegistry, resolve_db_path
from tests.support.runs_tab import RunsShown
from tests.support.sample_runs import T0, mixed_run

NAMED = "http://127.0.0.1:8765/mcp"
UNNAMED = "https://tools.example.org:9443/mcp"
#: A live run's title as the workbench writes it: it must not be cut at the default size.
LONG_TITLE = "tools/call slow_task @ Demo server"


def finished(qtbot, task, timeout: int = 10000):
    if task.running:
        with qtbot.waitSignal(task.finished, timeout=timeout):
            pass
    return task.outcome


def thirty_runs(store: RunStore) -> list[int]:
    ServerRegistry(store.db).save_server(NAMED, name="Demo server")
    ids = []
    for number in range(30):
        server = NAMED if number % 3 else UNNAMED
        run_id = store.start_run(LONG_TITLE if number % 2 else f"tools/call echo {number}", "live", server,
                                 started_at=T0 + timedelta(minutes=number))
        store.finish_run(run_id, ("ok", "failed", "cancelled")[number % 3], T0 + timedelta(minutes=number, seconds=8))
        ids.append(run_id)
    return ids


def fully_visible_rows(view: QAbstractItemView) -> int:
    viewport = view.viewport().rect()
    model = view.model()
    return sum(1 for row in range(model.rowCount())
               if viewport.contains(view.visualRect(model.index(row, 0)), proper=False))


def test_ten_runs_show_at_the_default_size_and_titles_are_not_cut(qtbot, make_window) -> None:
    with RunStore.open(resolve_db_path()) as store:
        ids = thirty_runs(store)
    window = make_window(wait_tools=False)
    assert (window.width(), window.height()) == (1200, 760)
    window.tabs.setCurrentWidget(window.runs_tab)
    tab = window.runs_tab
    qtbot.waitUntil(lambda: tab.runs.rowCount() >= 30)  # and the window's own tools/list, once stored
    assert tab.select_runs([ids[-1]])
    QApplication.processEvents()
    assert fully_visible_rows(tab.run_view) >= 10
    title = RUN_COLUMNS.index("title")
    needed = tab.run_view.fontMetrics().horizontalAdvance(LONG_TITLE) + 12
    assert tab.run_view.columnWidth(title) >= needed, "a usual title is cut at the default size"
    # The timeline and the step detail are still there, with room to read.
    assert tab.timeline_view.height() >= 120 and tab.detail.width() >= 270


def test_the_server_column_names_the_server_and_its_tooltip_gives_the_address(qtbot, make_window) -> None:
    with RunStore.open(resolve_db_path()) as store:
        ids = thirty_runs(store)
    window = make_window(wait_tools=False)
    tab = window.runs_tab
    tab.show_me()  # a list behind another tab is read when it is shown
    qtbot.waitUntil(lambda: tab.runs.rowCount() >= 30)  # and the window's own tools/list, once stored
    server = RUN_COLUMNS.index("server")
    named = tab.runs.index(tab.runs.row_of(ids[1]), server)
    assert named.data() == "Demo server"
    assert NAMED in named.data(Qt.ItemDataRole.ToolTipRole)
    # A server that is not registered (an imported run's) is shown by its host, port and path.
    unnamed = tab.runs.index(tab.runs.row_of(ids[0]), server)
    assert unnamed.data() == "tools.example.org:9443/mcp" and UNNAMED in unnamed.data(Qt.ItemDataRole.ToolTipRole)
    # The server filter says names too, and still filters by address.
    labels = [tab.server_filter.itemText(i) for i in range(tab.server_filter.count())]
    assert "Demo server" in labels and NAMED not in labels
    # A new name shows at once.
    with RunStore.open(resolve_db_path()) as store:
        ServerRegistry(store.db).save_server(NAMED, name="Staging")
    qtbot.waitUntil(lambda: tab.runs.index(tab.runs.row_of(ids[1]), server).data() == "Staging")


@pytest.mark.parametrize("language", ["en", "de"])
def test_one_outcome_has_one_word_in_every_view(qtbot, make_window, demo_server, language) -> None:
    from inspector.gui.workbench.operations_model import state_text
    from inspector.i18n.words import failure_word

    window = make_window((demo_server.url, "Demo server"))
    assert window.workbench.tools.select_tool("fail")
    task = window.workbench.run_current_tool()
    assert finished(qtbot, task).status == "failed"
    with RunStore.open(resolve_db_path()) as store:
        scenario = mixed_run(store)
    switch_language(language)
    failed, tool_error = outcome_word("failed"), failure_word("tool_error")
    assert (failed, tool_error) == (("failed", "tool error") if language == "en" else
                                    ("fehlgeschlagen", "Tool-Fehler"))
    # The operation's row, and the server's health line: the same word, the kind named after it.
    assert f"{failed}: {tool_error} · " in state_text(task)
    assert window.workbench.operations.row_for(task).state_text == state_text(task)
    qtbot.waitUntil(lambda: f"1 {failed} (1 {tool_error})" in health_line(window.servers.current()))
    # The runs list and the timeline: the same word.
    tab = window.runs_tab
    tab.show_me()
    status = RUN_COLUMNS.index("status")

    def listed_status() -> str | None:
        row = tab.runs.row_of(task.outcome.run_id)
        return None if row is None else tab.runs.index(row, status).data()

    # The list is read in the background (ListFreshness): a read made while the run was stored
    # as running can be laid out first; the read after its end follows within SOON_MS.
    qtbot.waitUntil(lambda: listed_status() not in (None, outcome_word("running")))
    # The same word, why after it (as `runs list` says it); the word alone where the column is narrow.
    why = "the tool call failed" if language == "en" else "der Tool-Aufruf schlug fehl"
    assert listed_status() == f"{failed} ({why})"
    assert tab.runs.index(tab.runs.row_of(task.outcome.run_id), status).data(FailureRole) == failed
    assert tab.select_runs([scenario])
    cells = {tab.timeline.index(row, OUTCOME_COLUMN).data(OutcomeRole): tab.timeline.index(row, OUTCOME_COLUMN).data()
             for row in range(tab.timeline.rowCount())}
    assert cells["failed"] == failed and cells["cancelled"] == outcome_word("cancelled")
    switch_language("en")


MILLISECONDS = re.compile(r"\d\s*ms\b")


def shown_texts(window: QWidget) -> list[str]:
    """Every text the window shows or says: labels, accessible names and descriptions, tooltips,
    and the cells of its item views (display, tooltip, spoken)."""
    texts = []
    for widget in [window, *window.findChildren(QWidget)]:
        texts += [widget.accessibleName(), widget.accessibleDescription(), widget.toolTip()]
        if isinstance(widget, QLabel):
            texts.append(widget.text())
        if isinstance(widget, QAbstractItemView) and widget.model() is not None:
            model = widget.model()
            try:
                rows, columns = model.rowCount(QModelIndex()), model.columnCount(QModelIndex())
            except TypeError:  # Qt's private models inside a widget (a combo box's popup): no text of ours
                continue
            for row in range(min(rows, 50)):
                for column in range(columns):
                    index = model.index(row, column, QModelIndex())
                    texts += [str(index.data(role) or "") for role in (
                        Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleTextRole)]
    return [text for text in texts if text]


def test_no_duration_is_shown_in_milliseconds(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    assert window.workbench.tools.select_tool("echo")
    window.workbench.arguments.form.root.fields["text"].edit.setText("hello")
    window.workbench.arguments.form.root.fields["text"].changed.emit()
    for _number in range(3):  # the sparkline needs a few latencies
        assert finished(qtbot, window.workbench.run_current_tool()).status == "ok"
    window.servers.test_button.click()
    qtbot.waitUntil(lambda: window.servers.test_result.text().startswith("Answered in "), timeout=10000)
    # The health is read back a moment after an operation ends (once for a burst of endings).
    qtbot.waitUntil(lambda: "Last contact" in window.servers.health.text(), timeout=10000)
    with RunStore.open(resolve_db_path()) as store:
        scenario = mixed_run(store)
    tab = window.runs_tab
    tab.show_me()  # a list behind another tab is read when it is shown
    RunsShown(qtbot, window).select(scenario)
    tab.select_step(4)  # the cancelled call, with its legs in the detail's bar
    QApplication.processEvents()
    texts = shown_texts(window)
    assert any("Last contact" in text for text in texts) and any("Answered in" in text for text in texts)
    bad = [text for text in texts if MILLISECONDS.search(text)]
    assert not bad, bad
    # The bars' labels and tooltips (painted, not widgets' texts) say seconds too.
    operations = window.workbench.operations
    assert not MILLISECONDS.search(operations.row_for(operations.current).state_text)
    for bar in (operations.detail, tab.detail.bar):
        geometry = bar.current_geometry()
        assert geometry is not None and geometry.segments
        for segment in geometry.segments:
            assert not MILLISECONDS.search(segment.label + segment.tooltip), segment
        assert not MILLISECONDS.search(geometry.end_text + geometry.description)


def test_a_runs_list_behind_another_tab_is_read_when_it_is_shown_not_while_operations_run(
        qtbot, make_window) -> None:
    """Issue 27: nothing on the GUI thread reads the database for a list nobody sees."""
    window = make_window(wait_tools=False)
    tab = window.runs_tab
    tab.show_me()
    qtbot.waitUntil(lambda: not tab.freshness.stale)
    listed = tab.runs.rowCount()
    window.tabs.setCurrentWidget(window.workbench)
    reads = tab.runs.reads
    with RunStore.open(resolve_db_path()) as store:
        ids = thirty_runs(store)
    qtbot.waitUntil(lambda: tab.freshness.stale, timeout=5000)  # a poll came, saw the tab hidden, read nothing
    qtbot.wait(700)  # more polls (every 300 ms): still nothing read
    assert tab.runs.rowCount() == listed and tab.runs.reads == reads
    tab.show_me()
    assert tab.runs.row_of(ids[-1]) is not None and not tab.freshness.stale  # read as it was shown


def test_the_selected_step_stays_in_view_when_the_timeline_gets_shorter(qtbot, make_window) -> None:
    """A dock growing under the Runs tab (the Server log's first lines) or a smaller window made the
    timeline shorter and hid the step shown in the detail; a step the reader had scrolled away from
    is left where it is."""
    from tests.gui.test_runs_screenshots import runs_window
    from tests.support.sample_runs import big_run

    with RunStore.open(resolve_db_path()) as store:
        run_id = big_run(store, 40)
    window = runs_window(make_window)
    tab = window.runs_tab
    RunsShown(qtbot, window).select(run_id)
    view = tab.timeline_pane.view
    qtbot.waitUntil(lambda: view.model().rowCount() == 40)
    last_shown = view.rowAt(view.viewport().height() - 1) - 1  # the last row shown whole
    assert 5 < last_shown < 39
    view.setCurrentIndex(view.model().index(last_shown, 0))

    def shown(row: int) -> bool:
        rect = view.visualRect(view.model().index(row, 0))
        return rect.top() >= 0 and rect.bottom() <= view.viewport().height()

    qtbot.waitUntil(lambda: shown(last_shown))
    window.resize(window.width(), window.height() - 200)
    qtbot.waitUntil(lambda: view.viewport().height() < 400)
    qtbot.waitUntil(lambda: shown(last_shown))
    # Scrolled away from (to the top), the current step is not pulled back into view by a resize.
    view.scrollToTop()
    assert not shown(last_shown)
    window.resize(window.width(), window.height() - 100)
    QApplication.processEvents()
    assert not shown(last_shown) and view.verticalScrollBar().value() == 0


def test_the_selected_run_stays_in_view_when_the_run_list_gets_shorter(qtbot, make_window) -> None:
    """As the timeline keeps its step: a smaller window (the detail going under the timeline, the run
    list lower) hid the run the timeline shows; a run the reader had scrolled away from is left where
    it is."""
    from tests.gui.test_runs_screenshots import runs_window

    with RunStore.open(resolve_db_path()) as store:
        thirty_runs(store)
    window = runs_window(make_window)
    tab = window.runs_tab
    view = tab.run_view
    qtbot.waitUntil(lambda: view.model().rowCount() >= 30)
    last_shown = view.rowAt(view.viewport().height() - 1) - 1  # the last row shown whole
    assert 5 < last_shown < 25
    run_id = view.model().index(last_shown, 0).data(RunIdRole)
    RunsShown(qtbot, window).select(run_id)

    def shown(row: int) -> bool:
        rect = view.visualRect(view.model().index(row, 0))
        return rect.top() >= 0 and rect.bottom() <= view.viewport().height()

    assert shown(last_shown)
    before = view.viewport().height()
    window.resize(1024, 640)
    qtbot.waitUntil(lambda: view.viewport().height() < before - 4 * view.rowHeight(0))
    qtbot.waitUntil(lambda: shown(last_shown))
    assert tab.timeline.run.id == run_id and view.verticalScrollBar().value() > 0
    # Scrolled away from (to the end), the current run is not pulled back into view by a resize.
    window.resize(1400, 860)
    qtbot.waitUntil(lambda: view.viewport().height() == before)
    view.scrollToBottom()
    bottom = view.verticalScrollBar().value()
    assert not shown(last_shown) and bottom > 0
    window.resize(1024, 640)
    qtbot.waitUntil(lambda: view.viewport().height() < before - 4 * view.rowHeight(0))
    assert not shown(last_shown) and view.verticalScrollBar().value() >= bottom


def test_the_last_of_a_few_runs_stays_in_view_when_the_run_list_gets_shorter(qtbot, make_window) -> None:
    """Six runs fit the list whole (nothing to scroll) until the window is made smaller: the run shown,
    the list's last, was then scrolled to before the list knew it could scroll, and stayed hidden."""
    from tests.gui.test_runs_screenshots import runs_window

    with RunStore.open(resolve_db_path()) as store:
        ids = [store.start_run(f"tools/call echo {number}", "live", NAMED, started_at=T0 + timedelta(minutes=number))
               for number in range(6)]
    window = runs_window(make_window)
    view = window.runs_tab.run_view
    RunsShown(qtbot, window).select(ids[0])  # the oldest: the last row
    row = view.currentIndex().row()
    assert row == view.model().rowCount() - 1 and view.verticalScrollBar().maximum() == 0

    def shown() -> bool:
        rect = view.visualRect(view.model().index(row, 0))
        return rect.top() >= 0 and rect.bottom() <= view.viewport().height()

    assert shown()
    window.resize(1024, 640)
    qtbot.waitUntil(lambda: view.viewport().height() < 4 * view.rowHeight(0))
    qtbot.waitUntil(shown)
