"""A one-line label cut with "…" where its text does not fit, the whole text in its tip."""

from __future__ import annotations

from PySide6.QtGui import QColor, QImage

from inspector.gui.widgets.elided_label import ElidedLabel

LONG = "Run 1: invoke_agent support-agent — failed; 7 of 14 steps shown (infrastructure hidden)"


def _painted(label: ElidedLabel) -> QImage:
    image = QImage(label.size(), QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    label.render(image)
    return image


def test_a_text_too_long_ends_in_an_ellipsis_and_is_whole_in_the_tip(qtbot) -> None:
    label = ElidedLabel()
    qtbot.addWidget(label)
    label.setText(LONG)
    label.resize(160, label.sizeHint().height())
    label.show()
    qtbot.waitExposed(label)
    shown = label.shown_text()
    assert shown.endswith("…") and LONG.startswith(shown[:-1]) and len(shown) < len(LONG)
    assert label.fontMetrics().horizontalAdvance(shown) <= label.contentsRect().width()
    assert label.is_cut() and label.toolTip() == LONG
    assert label.text() == LONG  # readers and screen readers get the whole text
    # Wide enough: the whole text, no tip; the tip follows a later, shorter text too.
    label.resize(label.fontMetrics().horizontalAdvance(LONG) + 20, label.height())
    assert label.shown_text() == LONG and not label.is_cut() and label.toolTip() == ""
    label.resize(160, label.height())
    label.setText("Run 2: short")
    assert label.shown_text() == "Run 2: short" and label.toolTip() == ""


def test_what_is_painted_is_the_cut_text(qtbot) -> None:
    label = ElidedLabel()
    qtbot.addWidget(label)
    label.setText(LONG)
    label.resize(160, label.sizeHint().height())
    cut = _painted(label)
    plain = ElidedLabel()
    qtbot.addWidget(plain)
    plain.setText(label.shown_text())
    plain.resize(label.size())
    assert cut == _painted(plain)  # the same pixels as the cut text on its own
    label.setText("")
    blank = _painted(label)
    assert blank != cut


def test_the_part_named_is_shortened_first_and_the_rest_stays_whole(qtbot) -> None:
    label = ElidedLabel()
    qtbot.addWidget(label)
    title = "invoke_agent support-agent"
    start = LONG.index(title)
    label.set_text_shortening(LONG, start, start + len(title))
    rest = LONG[start + len(title):]
    metrics = label.fontMetrics()
    label.resize(metrics.horizontalAdvance(LONG) - 40, label.sizeHint().height())
    label.show()
    qtbot.waitExposed(label)
    shown = label.shown_text()
    assert shown.startswith("Run 1: invoke") and shown.endswith("…" + rest), shown  # the title gave its room
    assert metrics.horizontalAdvance(shown) <= label.contentsRect().width()
    assert label.toolTip() == LONG and label.text() == LONG
    # Too narrow even for the title's "…": the title is "…", then the rest is cut at its end.
    label.resize(metrics.horizontalAdvance("Run 1: … — failed; 7 of"), label.height())
    assert label.shown_text().startswith("Run 1: … — failed") and label.shown_text().endswith("…")
    # A text set plainly afterwards is cut at its end as before.
    label.resize(160, label.height())
    label.setText(LONG)
    assert LONG.startswith(label.shown_text()[:-1])
