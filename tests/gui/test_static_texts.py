"""StaticTexts: a text laid out once is drawn again without being laid out again, exactly where and as
``QPainter.drawText(rect, AlignLeft | AlignVCenter, text)`` draws it; the operations list draws its
rows' titles and states with it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QImage, QPainter
from PySide6.QtWidgets import QApplication

from inspector.gui.widgets.static_texts import StaticTexts


def _drawn(text: str, height: int, font: QFont, texts: StaticTexts | None) -> QImage:
    image = QImage(320, 40, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setFont(font)
    painter.setPen(QColor("#D55E00"))
    rect = QRect(7, 5, 280, height)
    if texts is None:
        painter.drawText(rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, text)
    else:
        texts.draw(painter, rect, text, QFontMetrics(font))
    painter.end()
    return image


@pytest.mark.parametrize("height", [17, 18, 23, 30])
@pytest.mark.parametrize("text", ["tools/call slow_task", "läuft · noch 12,3 s", "fehlgeschlagen: Zeitüberschreitung",
                                  "<b>not bold</b> & 中文"])
def test_a_static_text_lands_on_the_pixels_draw_text_gives(qtbot, text: str, height: int) -> None:
    font = QApplication.font()
    assert _drawn(text, height, font, StaticTexts()) == _drawn(text, height, font, None)


def test_a_text_drawn_again_is_not_laid_out_again_and_a_full_cache_starts_over(qtbot) -> None:
    texts = StaticTexts(limit=3)
    font = QApplication.font()
    for _ in range(5):
        _drawn("12.3 s left", 20, font, texts)
        _drawn("12.2 s left", 20, font, texts)
    assert texts.made == 2
    for number in range(4):  # a fourth string past the limit: all are forgotten, then made anew
        _drawn(f"{number} s left", 20, font, texts)
    assert texts.made == 6
    _drawn("12.3 s left", 20, font, texts)
    assert texts.made == 7


def test_a_new_font_draws_the_same_string_in_that_font(qtbot) -> None:
    texts = StaticTexts()
    small, large = QFont(QApplication.font()), QFont(QApplication.font())
    large.setPointSize(small.pointSize() * 2)
    _drawn("cancelled", 30, small, texts)
    assert _drawn("cancelled", 30, large, texts) == _drawn("cancelled", 30, large, None)


def test_the_list_lays_out_each_title_and_countdown_once_over_many_frames(qtbot) -> None:
    import time

    from inspector.gui.workbench.operation_task import OperationTask
    from inspector.gui.workbench.operations_list import OperationsList
    from inspector.mcp import LegStarted, OperationStarted, ServerEndpoint

    operations = OperationsList()
    qtbot.addWidget(operations)
    server = ServerEndpoint("http://127.0.0.1:9/mcp", name="nowhere")
    started = time.monotonic()
    for number in range(10):  # all started together: their countdowns say the same
        task = OperationTask(number, "call", "tools/call echo", server, 20.0, tool="echo")
        task._on_started(OperationStarted("tools/call", task.server_url, 20.0), started)
        task._on_leg_started(LegStarted("tools/call", 20.0, 0.0), started)
        operations.add(task)
    operations.resize(700, 400)
    operations.show()
    qtbot.waitExposed(operations)
    qtbot.wait(50)  # the view lays its rows out
    operations._frames.stop()  # the repaints below are the only ones
    now = [time.monotonic()]
    operations.delegate._clock = lambda: now[0]
    viewport = operations.view.viewport()
    for _ in range(30):  # 3 s of frames: the bars grow, the countdown goes down a tenth at a time
        now[0] += 0.1
        viewport.repaint()
    texts = operations.delegate.texts
    # One title (the ten share it) and a countdown per tenth (and the few painted before the loop),
    # not two layouts per row and frame.
    assert operations.delegate.pictures_made >= 10 * 30
    assert texts.made <= 1 + 30 + 4


def test_a_rows_state_is_elided_once_per_text_and_width_as_qt_elides_it(qtbot) -> None:
    from inspector.gui.workbench.operation_delegate import OperationDelegate
    from inspector.gui.workbench.operation_task import OperationTask
    from inspector.mcp import ServerEndpoint

    delegate = OperationDelegate()
    metrics = QFontMetrics(QApplication.font())
    # A running row: it has nothing shorter to say (an ended failure's kind alone is tested elsewhere).
    task = OperationTask(1, "call", "tools/call echo", ServerEndpoint("http://127.0.0.1:9/mcp", name="nowhere"),
                         60.0, tool="echo")
    text = "läuft · noch 12,3 s von 60,0 s, Verbindung wird aufgebaut"
    for width in (30, 60, 90, 400):
        elided = metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)
        for _ in range(3):
            assert delegate._fitted(task, text, metrics, width) == elided
    assert len(delegate._fits) == 4  # worked out once per width, not once per frame


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("width", [640, 900])
def test_a_failed_rows_words_and_time_fit_once_its_cancel_button_is_gone(qtbot, language, width) -> None:
    """The state's room (with the Cancel button's, once the operation ended) holds a failure's words
    and its time: "✗ fehlgeschlagen: Tool-Fehler · 0,014 s" was cut to "… · 0,0…" at the default width."""
    from inspector.gui.language import switch_language
    from inspector.gui.workbench.operation_delegate import OperationDelegate
    from inspector.i18n import _
    from inspector.i18n.formatting import format_duration
    from inspector.i18n.words import marked_outcome_text

    switch_language(language)
    try:
        delegate = OperationDelegate()
        metrics = QFontMetrics(QFont())
        parts = delegate.parts(QRect(0, 0, width, metrics.height() + 4), metrics)
        for kind in ("tool_error", "unreachable", "timed_out"):
            text = _("{state} · {time}").format(state=marked_outcome_text("failed", kind), time=format_duration(0.014))
            assert metrics.horizontalAdvance(text) <= parts.state.united(parts.cancel).width(), (kind, text)
        assert parts.title.width() >= metrics.horizontalAdvance("tools/call slow_task @ Demo server")
    finally:
        switch_language("en")
