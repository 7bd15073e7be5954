"""The Play tab on a projector: a 1024 by 768 screen, and 1280 by 720 at 150 % (853 by 480 logical
pixels). The audience watches the steps: the list keeps the room, the end of a run moves nothing."""

from __future__ import annotations

import pytest

from inspector.gui.language import switch_language
from tests.gui.test_play_audience import played

#: 1280 by 720 at a scale of 1.5, in logical pixels (what the window's layout works in).
PROJECTOR_150 = (853, 480)


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_steps_keep_the_room_and_the_model_s_words_take_a_few_lines(qtbot, make_window, language) -> None:
    """The model's words beside the bar asked for a text editor's 192 pixels: at 853 by 480 they kept 150
    for a sentence and the steps list 70 (three rows and a scrollbar, scrolled mid-row)."""
    window = make_window()
    window.log_dock.hide()  # as it starts on a screen this low
    window.resize(*PROJECTOR_150)
    switch_language(language)
    try:
        room, run = played(qtbot, window, "happy-path")
        assert run.status == "ok" and len(run.rows) == 8
        qtbot.wait(50)
        row_px = room.view.verticalHeader().defaultSectionSize()
        shown = room.view.viewport().height() // row_px
        assert shown >= 6, (shown, room.split.sizes())
        # The bar and the words beside it keep what they need: the bar whole, three lines of words.
        below = room.split.widget(1)
        assert below.height() >= room.bar.minimumHeight()
        assert room.said.viewport().height() >= 3 * room.said.fontMetrics().lineSpacing()
        # On a 1024 by 768 screen too the list has most of the split (it had 305 pixels, the words 192).
        window.resize(1024, 768)
        qtbot.waitUntil(lambda: window.height() == 768)
        assert below.height() < room.view.height() // 4, room.split.sizes()
    finally:
        switch_language("en")


@pytest.mark.parametrize(("language", "size", "points"), [("de", (1024, 768), None), ("en", PROJECTOR_150, None),
                                                         ("en", (1280, 720), 16)])
def test_the_end_of_a_failed_run_is_said_whole_and_moves_nothing(qtbot, make_window, language, size,
                                                                  points) -> None:
    """The state beside the buttons is one line while the run plays and two at its end ("Lauf 5: ✗
    fehlgeschlagen (der Tool-Aufruf wurde nicht gesendet; …)"): the row grew and the steps list jumped
    down 6 pixels as the run ended, before the audience's eyes."""
    from PySide6.QtCore import QPoint

    window = make_window()
    window.log_dock.hide()
    window.resize(*size)
    if points is not None:  # a projector's large font (View › Zoom sets the window's font)
        font = window.font()
        font.setPointSizeF(points)
        window.setFont(font)
    switch_language(language)
    try:
        room = window.play.room
        window.tabs.setCurrentWidget(room)
        assert room.choices.choose("slow-handshake")  # its call runs 3 s: the test sees it play
        qtbot.wait(100)  # its description laid out at the tab's width, as before a click on Play
        run = room.play()
        assert run is not None
        qtbot.waitUntil(lambda: any(row.kind == "tool" and row.running for row in run.rows), timeout=20000)
        playing_at = room.view.mapTo(room, QPoint(0, 0)).y()
        playing_text = room.status.text()
        qtbot.waitUntil(lambda: not run.running, timeout=30000)
        qtbot.wait(50)
        assert run.status == "failed"
        status = room.status
        # The end wraps (the test shows what it claims), is shown whole, and the list stayed where it was.
        metrics = status.fontMetrics()
        assert metrics.horizontalAdvance(status.text()) > status.width() >= metrics.horizontalAdvance(playing_text)
        assert status.height() >= status.heightForWidth(status.width()), status.text()
        assert room.view.mapTo(room, QPoint(0, 0)).y() == playing_at
    finally:
        switch_language("en")


def test_at_a_large_font_the_outcome_marks_and_rows_grow_with_the_words(qtbot, make_window) -> None:
    """At 16 pt (a projector's desktop font, or View › Zoom) the ⊘ and ✗ beside "cancelled" and "failed"
    stayed 16 pixels, half the words' height, and the rows kept the height of the font they were built at."""
    from inspector.gui.play.steps_model import COLUMNS

    window = make_window()
    window.resize(1280, 720)
    room, run = played(qtbot, window, "user-cancels")
    assert run.status == "cancelled"
    view = room.view
    assert view.iconSize().height() <= 16  # at the usual font, no bigger than the style's small icon
    font = window.font()
    font.setPointSizeF(16)
    window.setFont(font)
    qtbot.wait(50)
    metrics = view.fontMetrics()
    assert metrics.ascent() > 16
    assert view.iconSize().height() >= metrics.ascent()
    assert view.rowHeight(0) >= max(metrics.height(), view.iconSize().height()) + 4
    state = COLUMNS.index("state")
    cancelled = next(index for index, row in enumerate(run.rows) if row.state == "cancelled")
    # The cancelled call's words and its bigger mark are whole in the State column.
    assert view.columnWidth(state) >= view.sizeHintForIndex(room.model.index(cancelled, state)).width()
