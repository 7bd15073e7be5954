"""Words that wrap in a narrow place stay whole: the Servers panel never splits "(2 Tool-Fehler)" at its
hyphen, a tooltip never "0,11" from its "s". Each check lays the shown text out as the widget wraps it,
in the widget's font and width."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QEvent, QPoint
from PySide6.QtGui import QFont, QHelpEvent, QTextDocument, QTextLayout, QTextOption
from PySide6.QtWidgets import QApplication, QLabel, QToolTip, QWidget

from inspector.gui.language import switch_language
from inspector.gui.widgets.budget_bar import BudgetBar
from inspector.gui.widgets.plain_text import plain_tooltip
from inspector.runs import Leg
from inspector.store import RunStore, ServerRegistry, resolve_db_path

#: A server nothing listens on: the window's catalogue walk fails at once, the counts stay ours.
URL = "http://127.0.0.1:9/mcp"


def wrapped_lines(text: str, font: QFont, width: int) -> list[str]:
    """``text`` as a word-wrapped label ``width`` px wide breaks it into lines."""
    layout = QTextLayout(text, font)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap)
    layout.setTextOption(option)
    lines = []
    layout.beginLayout()
    while (line := layout.createLine()).isValid():
        line.setLineWidth(width)
        lines.append(text[line.textStart():line.textStart() + line.textLength()])
    layout.endLayout()
    return lines


def label_lines(label: QLabel) -> list[str]:
    return [line for paragraph in label.text().split("\n")
            for line in wrapped_lines(paragraph, label.font(), label.contentsRect().width())]


@pytest.fixture
def german() -> Iterator[None]:
    switch_language("de")
    yield
    switch_language("en")


def test_a_hyphenated_word_is_never_split_in_a_narrow_servers_panel(qtbot, make_window, german) -> None:
    with RunStore.open(resolve_db_path()) as store:
        registry = ServerRegistry(store.db)
        registry.save_server(URL, name="Demo")
        for outcome in ("ok", "tool_error", "tool_error"):
            registry.record_operation(URL, outcome, 12.0)
    window = make_window(wait_tools=False)
    panel = window.servers
    panel.view.setCurrentIndex(panel.view.model().index(0, 0))
    qtbot.waitUntil(lambda: "Tool-" in panel.health.text())
    shown = panel.health.text().replace("\u2060", "")
    assert "(2\u00a0Tool-Fehler)" in shown, shown
    whole = panel.health.fontMetrics().horizontalAdvance("(2\u00a0Tool-Fehler)")
    split = []
    # From the panel's least width on: each width the line may wrap at, the word kept whole.
    for width in range(panel.minimumSizeHint().width(), 420, 4):
        window.main.setSizes([width, window.main.width() - width])
        QApplication.processEvents()
        assert panel.health.contentsRect().width() >= whole
        lines = label_lines(panel.health)
        split += [f"{panel.width()} px: {lines}" for line in lines if line.rstrip().endswith("-")]
    assert split == [], "\n".join(split)


def tooltip_lines() -> list[str]:
    """The lines of the tooltip Qt shows now, as its label wraps them (rich text, its width)."""
    tip = next(label for label in QApplication.topLevelWidgets() if label.objectName() == "qtooltip_label")
    document = QTextDocument()
    document.setDefaultFont(tip.font())
    document.setDocumentMargin(0)
    document.setHtml(tip.text())
    document.setTextWidth(tip.contentsRect().width() - 2 * tip.margin())
    document.size()  # laid out now
    lines, block = [], document.begin()
    while block.isValid():
        layout = block.layout()
        lines += [block.text()[line.textStart():line.textStart() + line.textLength()]
                  for line in (layout.lineAt(index) for index in range(layout.lineCount()))]
        block = block.next()
    return lines


def numbers_split(lines: list[str]) -> list[str]:
    """Each place where a line ends in a number and the next begins with its word or unit."""
    return [f"{above!r} / {below!r}" for above, below in zip(lines, lines[1:], strict=False)
            if above.rstrip()[-1:].isdigit() and below[:1].isalpha()]


@pytest.mark.qt_log_ignore("This plugin does not support raise")  # the tooltip, offscreen
def test_a_legs_tooltip_keeps_its_lines_whole(qtbot, german) -> None:
    """Qt wrapped the short tooltip about 200 px wide: "Zuteilung 20 s, verbraucht 0,11" above "s"."""
    bar = BudgetBar()
    qtbot.addWidget(bar)
    bar.resize(700, 44)
    bar.show_legs([Leg("tools/call", 20, 110.0, 200, "ok")], 20, "ok")
    bar.show()
    qtbot.waitExposed(bar)
    leg = bar.current_geometry().segments[0]
    at = QPoint(int(bar._track_rect().left() + leg.x + leg.width / 2), int(bar._track_rect().center().y()))
    QApplication.sendEvent(bar, QHelpEvent(QEvent.Type.ToolTip, at, bar.mapToGlobal(at)))
    try:
        said = bar.tooltip_at(at.x() - bar._track_rect().left(), at.y()).split("\n")
        assert "verbraucht 0,11 s" in said[1], said
        assert [line.replace("\u00a0", " ").rstrip() for line in tooltip_lines()] == said
    finally:
        QToolTip.hideText()


@pytest.mark.qt_log_ignore("This plugin does not support raise")
def test_a_long_tooltip_wraps_but_never_between_a_number_and_its_unit(qtbot, german) -> None:
    widget = QWidget()
    qtbot.addWidget(widget)
    widget.show()
    split = []
    # The wrap falls at each place of the sentence in turn.
    for pad in range(16):
        text = "ab " * pad + "Der Server antwortete nach 0,11 s und schickte 1.234 Bytes. " * 4
        QToolTip.showText(widget.mapToGlobal(QPoint(5, 5)), plain_tooltip(text), widget)
        lines = tooltip_lines()
        assert len(lines) > 1, lines  # a long line wraps
        split += numbers_split(lines)
        QToolTip.hideText()
    assert split == [], "\n".join(split)
