"""The Runs list's Status cell cuts a failed run's reason after whole words only. In German at 1,280 px a call
of the demo's `fail` said "✗ fehlgeschlagen (der Tool-…": the first part of a compound counted as a word, and
"der Tool-" says nothing the status word does not. Such a cell says "fehlgeschlagen" alone (its tooltip whole);
a cut that keeps the counts ("fehlgeschlagen (2 von 4 Tool-…") stays."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.i18n.run_cells import cut_reasons
from inspector.store import RunStore, resolve_db_path
from inspector.transfer import import_trace
from tests.gui.test_main_window import choose
from tests.gui.test_run_list_reasons import STATUS, shown_text
from tests.gui.test_server_questions import finish

OTEL = Path(__file__).resolve().parents[1] / "fixtures" / "otel"
WHOLE = "fehlgeschlagen (der Tool-Aufruf schlug fehl)"


def test_a_cut_keeps_two_whole_words_of_the_reason() -> None:
    assert "fehlgeschlagen (der Tool-…" not in cut_reasons(WHOLE, "fehlgeschlagen")
    assert cut_reasons(WHOLE, "fehlgeschlagen")[-1] == "fehlgeschlagen (der Tool-Aufruf…"
    counts = cut_reasons("fehlgeschlagen (2 von 4 Tool-Aufrufen schlugen fehl)", "fehlgeschlagen")
    assert "fehlgeschlagen (2 von 4 Tool-…" in counts and counts[-1] == "fehlgeschlagen (2 von…"


def test_a_failed_calls_status_at_1280_px_in_german_is_never_a_piece_of_a_word(qtbot, make_window,
                                                                              demo_server) -> None:
    with RunStore.open(resolve_db_path()) as store:  # runs enough for the list's scroll bar, as in a used window
        # (18 listed: their plumbing traces are not.)
        for name in ("mcp_sdk", "traceloop", "fastmcp", "logfire", "openlit", "strands", "openai_agents_openinference"):
            import_trace(store, OTEL / f"{name}.jsonl")
    window = make_window((demo_server.url, "Demo server"))
    switch_language("de")
    try:
        window.resize(1280, 800)
        qtbot.waitUntil(lambda: window.width() == 1280)
        choose(window, "fail")
        assert finish(qtbot, window.workbench.run_current_tool()).status == "failed"
        tab = window.runs_tab
        tab.show_me()
        qtbot.waitUntil(lambda: any(tab.runs.index(row, STATUS).data() == WHOLE for row in range(tab.runs.rowCount())),
                        timeout=10000)
        QApplication.processEvents()
        row = next(row for row in range(tab.runs.rowCount()) if tab.runs.index(row, STATUS).data() == WHOLE)
        view = tab.run_list.view
        assert view.verticalScrollBar().isVisible()
        assert view.columnWidth(STATUS) < view.fontMetrics().horizontalAdvance(WHOLE)  # the whole does not fit
        shown = shown_text(view, row)
        assert not shown.endswith("-…"), shown
        assert shown in (WHOLE, "fehlgeschlagen") or shown.startswith("fehlgeschlagen (der Tool-Aufruf"), shown
        assert WHOLE in tab.runs.index(row, STATUS).data(Qt.ItemDataRole.ToolTipRole)
    finally:
        switch_language("en")


def test_a_status_said_whole_is_one_the_style_draws_whole(qtbot, make_window) -> None:
    """The cell measured its words in whole pixels: "fehlgeschlagen (Zeitüberschreitung beim Tool-Aufruf)" is 320
    of them, but 320.48 as the style lays it out, so at a column that left it 320 the cell said it whole and the
    style cut it "… Tool-Aufr…" (Strands' timed-out run in German at 1,400 px). Where the cell says its words whole,
    they fit as the style draws them; where they do not, it cuts them after a whole word."""
    from PySide6.QtGui import QTextLayout
    from PySide6.QtWidgets import QStyle, QStyleOptionViewItem

    with RunStore.open(resolve_db_path()) as store:
        import_trace(store, OTEL / "strands.jsonl")
    window = make_window(wait_tools=False)
    window.resize(1920, 1000)  # room for the whole words
    switch_language("de")
    try:
        tab = window.runs_tab
        tab.show_me()
        whole = "fehlgeschlagen (Zeitüberschreitung beim Tool-Aufruf)"
        qtbot.waitUntil(lambda: any(tab.runs.index(row, STATUS).data() == whole for row in range(tab.runs.rowCount())))
        index = next(tab.runs.index(row, STATUS) for row in range(tab.runs.rowCount())
                     if tab.runs.index(row, STATUS).data() == whole)
        view = tab.run_list.view

        def painted() -> tuple[str, int]:
            """The cell's text as a paint of the view initialises it (the view's own option: its icon's room), and
            the width the style lays the text out in."""
            option = QStyleOptionViewItem()
            view.initViewItemOption(option)
            option.rect = view.visualRect(index)
            view.itemDelegateForColumn(STATUS).initStyleOption(option, index)
            margin = view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
            room = view.style().subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, view).width()
            return option.text, room - 2 * margin

        layout = QTextLayout(whole, view.font())
        layout.beginLayout()
        line = layout.createLine()
        line.setLineWidth(100000)
        layout.endLayout()
        assert line.naturalTextWidth() % 1  # a width between whole pixels, as the style lays it out
        least = view.fontMetrics().horizontalAdvance(whole)
        for width in range(least, least + 60):
            view.setColumnWidth(STATUS, width)
            said, room = painted()
            if said == whole:
                assert line.naturalTextWidth() <= room, (width, room, line.naturalTextWidth())
            else:
                assert said in (*cut_reasons(whole, "fehlgeschlagen"), "fehlgeschlagen"), said
        assert said == whole
    finally:
        switch_language("en")
