"""The servers panel's latency sparkline: too few points hide it; enough get a baseline and dots."""

from __future__ import annotations

from PySide6.QtGui import QColor, QTextDocumentFragment

from inspector.gui.workbench.sparkline import Sparkline


def test_two_latencies_hide_the_line_three_show_it_with_dots_and_a_baseline(qtbot) -> None:
    line = Sparkline()
    qtbot.addWidget(line)
    line.resize(120, 22)
    line.show()
    line.set_values([40.0, 42.0])
    # Two points draw a near-flat stroke that reads as a divider: it is not shown.
    assert line.isHidden()
    line.set_values([40.0, 80.0, 60.0])
    assert not line.isHidden()
    image = line.grab().toImage()
    blue = QColor("#0072B2")
    # A dot is wider than the line: at the first point (x 2) the blue spreads to the left of it.
    first_dot = [image.pixelColor(x, y) for x in range(0, 3) for y in range(14, 22)]
    assert any(abs(c.blue() - blue.blue()) < 40 and c.red() < 80 for c in first_dot)
    # The baseline runs along the bottom, under the whole line.
    baseline = [image.pixelColor(x, 20) for x in range(30, 90)]
    assert all(c.lightness() < 235 for c in baseline)


def test_the_tooltip_says_what_the_line_shows_in_the_language_shown(qtbot) -> None:
    """A line without an axis: hovering it says what its points are (the latest ok operations, the
    newest on the right) and their range; its words (and a screen reader's) follow a switch of language."""
    from inspector.gui.language import switch_language

    line = Sparkline()
    qtbot.addWidget(line)
    assert line.toolTip() == ""
    line.set_values([40.0, 1500.0, 23.0])
    tip = QTextDocumentFragment.fromHtml(line.toolTip()).toPlainText()
    assert "latest 3 ok operations\n(the newest on the right)" in tip
    assert tip.endswith("from 0.023 s to 1.5 s, the newest 0.023 s.")  # (the plain text of no-break spaces)
    try:
        switch_language("de")
        tip = QTextDocumentFragment.fromHtml(line.toolTip()).toPlainText()
        assert "letzten 3 Vorgänge mit Ergebnis ok\nbrauchte (der neueste rechts)" in tip and "0,023" in tip
        assert line.accessibleDescription().startswith("3 letzte Latenzen von 0,023")
    finally:
        switch_language("en")
    assert line.accessibleDescription().startswith("3 recent latencies from 0.023")
    line.set_values([])
    assert line.toolTip() == ""


def test_with_no_server_selected_the_panel_draws_no_line(qtbot) -> None:
    """Under "No server selected" the line drew a lone "—" (it had no values and was never hidden); and the
    latencies of the server selected before stayed drawn once none was."""
    from inspector.gui.workbench.servers_panel import ServersPanel
    from inspector.store import ServerRecord

    panel = ServersPanel()
    qtbot.addWidget(panel)
    panel.show()
    assert panel.health.text().startswith("No server selected") and panel.sparkline.isHidden()
    panel.set_records([ServerRecord("http://127.0.0.1:9/mcp", "Nine", None, (), None, 12.0, 3, 0, 0)])
    panel.show_latencies([12.0, 30.0, 18.0])
    assert panel.sparkline.isVisible()
    panel.set_records([])
    assert panel.health.text().startswith("No server selected") and panel.sparkline.isHidden()
