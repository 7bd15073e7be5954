"""The Runs list in the window's usual sizes (issue 23), measured with the real font offscreen:

- at 1,280 x 800 in German a timed-out run's Status (its whole words need about 290 px of a 207 px column) said
  "fehlgeschlagen" alone; it says what failed, its kind beside the failed icon ("Zeitüberschreitung"), as the
  Running list, Compare and the timeline's Outcome cell do where they are narrow; its tooltip is whole;
- at 1,024 x 768 the Server column was cut to "Demo-Ser…" in German: it keeps a usual server's name whole (the
  Duration column gives up the room it kept for an hour-long run none of the runs listed took), and the Status
  cells keep their words whole.

Real parts: the window on a real run database, the demo server registered and answering on 127.0.0.1."""

from __future__ import annotations

from datetime import timedelta

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionViewItem

from inspector.gui.language import switch_language
from inspector.gui.runs.runs_model import COLUMNS
from inspector.i18n.entry_names import know_window_entry
from inspector.runs import Leg, RunTrace, ToolResult
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_screenshots import save
from tests.support.sample_runs import T0

STATUS, SERVER = COLUMNS.index("status"), COLUMNS.index("server")
TIMED_OUT = Leg("tools/call", 2, 2000.0, None, "failed")
ANSWERED = Leg("tools/call", 20, 12.0, 200, "ok")
WORDS = {"en": ("failed", "timed out", "the tool call timed out"),
         "de": ("fehlgeschlagen", "Zeitüberschreitung", "Zeitüberschreitung beim Tool-Aufruf")}


def _runs(url: str) -> dict[str, int]:
    """Ok calls, a tool error, a cancelled and a timed-out call, stored as runs of the server at ``url``: more
    than the list shows at once, as in a window used for a while (its scroll bar takes room)."""
    made = {}
    ok = [(f"ok {number}", "ok", False, ANSWERED) for number in range(10)]
    with RunStore.open(resolve_db_path()) as store:
        for name, status, failed, leg in (*ok, ("error", "failed", True, ANSWERED),
                                          ("cancelled", "cancelled", False, ANSWERED),
                                          ("timed out", "failed", True, TIMED_OUT)):
            trace = RunTrace()
            step = trace.record_tool_result(1, "hang", {}, ToolResult.error("no") if failed else ToolResult.text("yes"),
                                            10.0, legs=(leg,))
            run_id = store.start_run(f"tools/call {name}", "live", url, started_at=T0)
            store.append_steps(run_id, [(step, T0)])
            store.finish_run(run_id, status, T0 + timedelta(seconds=2))
            made[name] = run_id
    return made


def painted(view, row: int, column: int) -> tuple[str, bool]:
    """What the cell paints (its delegate's text at the column's width, as a paint of the view initialises it)
    and whether that text fits its room whole, as the style lays it out (fractional pixels)."""
    index = view.model().index(row, column)
    option = QStyleOptionViewItem()
    view.initViewItemOption(option)
    option.rect = view.visualRect(index)
    delegate = view.itemDelegateForColumn(column) or view.itemDelegate()
    delegate.initStyleOption(option, index)
    style = view.style()
    room = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, view).width()
    margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
    return option.text, QFontMetricsF(option.font).horizontalAdvance(option.text) <= room - 2 * margin


@pytest.fixture
def runs_list(qtbot, make_window, demo_server):
    made = _runs(demo_server.url)

    def show(language: str, width: int, height: int):
        window = make_window((demo_server.url, "Demo server"))
        know_window_entry(demo_server.url)  # the window's demo entry, as its demo service makes it: "Demo-Server"
        switch_language(language)
        window.resize(width, height)
        qtbot.waitUntil(lambda: window.width() == width)
        tab = window.runs_tab
        tab.show_me()
        qtbot.waitUntil(lambda: all(tab.runs.row_of(run_id) is not None for run_id in made.values()))
        QApplication.processEvents()
        assert tab.run_list.view.verticalScrollBar().isVisible()
        return window, tab, {name: tab.runs.row_of(run_id) for name, run_id in made.items()}

    yield show
    switch_language("en")


@pytest.mark.parametrize(("language", "width", "height"), [("de", 1280, 800), ("en", 1024, 768)])
def test_a_timed_out_runs_status_too_narrow_for_its_reason_says_it_timed_out(runs_list, language, width,
                                                                              height) -> None:
    window, tab, rows = runs_list(language, width, height)
    word, kind, reason = WORDS[language]
    view = tab.run_list.view
    whole = tab.runs.index(rows["timed out"], STATUS).data()
    assert whole == f"{word} ({reason})"
    assert view.fontMetrics().horizontalAdvance(whole) > view.columnWidth(STATUS)  # the reason does not fit
    assert painted(view, rows["timed out"], STATUS) == (kind, True)  # not "fehlgeschlagen" alone
    assert whole in tab.runs.index(rows["timed out"], STATUS).data(Qt.ItemDataRole.ToolTipRole)
    assert tab.runs.index(rows["timed out"], STATUS).data(Qt.ItemDataRole.AccessibleTextRole) == whole
    save(window, f"runs-list-timed-out-{language}-{width}")


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_usual_servers_name_stays_whole_at_1024_px(runs_list, language) -> None:
    window, tab, rows = runs_list(language, 1024, 768)
    word, kind, _reason = WORDS[language]
    view = tab.run_list.view
    for row in rows.values():
        name = {"en": "Demo server", "de": "Demo-Server"}[language]
        assert tab.runs.index(row, SERVER).data() == name
        assert painted(view, row, SERVER) == (name, True)  # was "Demo-Ser…" in German
        shown, whole = painted(view, row, STATUS)  # the status's words whole: its word at least
        assert whole and shown.split(" (")[0] in (word, kind, "ok", tab.runs.index(row, STATUS).data()), shown
    assert view.horizontalScrollBar().maximum() == 0  # and nothing scrolls sideways
    save(window, f"runs-list-1024-{language}")
