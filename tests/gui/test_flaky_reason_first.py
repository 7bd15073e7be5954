"""A failed call of the demo's ``flaky`` tool says the tool's own reason first in the Play tab's "What happened"
cell and the Runs tab's Details cell: at 1,280 px both cells were cut inside our sentence ("flaky: The tool flaky
on Fresh demo server reported an er…"), the server's reason hidden until hover. The whole sentence, naming the
tool's server, stays the cell's tooltip and the step detail's. Played from the real window (the demo server in a
process of its own), measured with the cells' real font metrics, in English and German."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QStyle

from inspector.gui.language import switch_language
from inspector.gui.play.steps_model import COLUMNS as PLAY_COLUMNS
from inspector.gui.runs.timeline_model import COLUMNS as STEP_COLUMNS

#: The reason's start, and our sentence's, in each language.
WORDS = {"en": ("flaky: Call 2 failed", "The tool flaky on Fresh demo server reported an error: Call 2 failed"),
         "de": ("flaky: Aufruf 2 ist fehlgeschlagen",
                "Das Tool flaky auf Demo-Server (frisch) meldete einen Fehler: Aufruf 2 ist fehlgeschlagen")}


def shown(view, index) -> str:
    """What the cell at ``index`` of ``view`` shows of its text: cut at its right as the style cuts it."""
    style = view.style()
    margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
    room = view.columnWidth(index.column()) - 2 * margin
    return QFontMetricsF(view.font()).elidedText(index.data(), Qt.TextElideMode.ElideRight, room)


def test_a_failed_flaky_call_says_its_reason_in_a_narrow_cell(qtbot, make_window, play_demo_process) -> None:
    window = make_window()
    window.resize(1280, 800)
    room, tab = window.play.room, window.runs_tab
    try:
        for language in ("en", "de"):  # the fresh demo server speaks the window's language
            switch_language(language)
            reason, sentence = WORDS[language]
            window.tabs.setCurrentWidget(room)
            assert room.choices.choose("flaky-server")
            run = room.play()
            assert run is not None
            qtbot.waitUntil(lambda run=run: run.run_id is not None and not run.running, timeout=30000)
            assert [row.state for row in run.rows][3] == "failed"
            what = room.model.index(3, PLAY_COLUMNS.index("what"))
            assert what.data().startswith(reason), what.data()
            assert reason in shown(room.view, what), (shown(room.view, what), room.view.columnWidth(what.column()))
            assert sentence in what.data(Qt.ItemDataRole.ToolTipRole).replace("\xa0", " ")
            room.runs_button.click()
            qtbot.waitUntil(lambda run=run: tab.current_run() is not None and tab.current_run().id == run.run_id
                            and tab.timeline.rowCount() == len(run.rows))
            details = tab.timeline.index(3, STEP_COLUMNS.index("details"))
            view = tab.timeline_view
            assert details.data().startswith(reason), details.data()
            # The Details column is narrow at 1,280 px: what it shows still begins with the reason's words.
            first_words = reason[:reason.index(" ", len("flaky: ") + 1)]
            assert shown(view, details).startswith(first_words), (shown(view, details), view.columnWidth(3))
            assert sentence in details.data(Qt.ItemDataRole.ToolTipRole).replace("\xa0", " ")
            assert tab.detail.step is not None and tab.detail.step.row.id == run.rows[3].step_id
    finally:
        switch_language("en")
