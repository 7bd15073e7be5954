"""Words that wrap in a narrow place stay whole: the Servers panel never splits "(2 Tool-Fehler)" at its
hyphen. Each check lays the shown text out as the widget wraps it, in the widget's font and width."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtGui import QFont, QTextLayout, QTextOption
from PySide6.QtWidgets import QApplication, QLabel

from inspector.gui.language import switch_language
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
