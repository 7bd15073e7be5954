"""The servers panel's latency sparkline: too few points hide it; enough get a baseline and dots."""

from __future__ import annotations

from PySide6.QtGui import QColor

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
