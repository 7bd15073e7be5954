"""A one-line label cut with "…" where its text does not fit, the whole text in its tip."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent
from PySide6.QtGui import QColor, QHelpEvent, QImage, QTextDocument
from PySide6.QtWidgets import QApplication, QToolTip

from inspector.gui.widgets.elided_label import ElidedLabel

LONG = "Run 1: invoke_agent support-agent — failed; 7 of 14 steps shown (infrastructure hidden)"


#: A run's title and why it failed, in the headings the briefer texts are tried on.
TITLE, WHY = "invoke_agent support-agent", "2 of 4 tool calls failed"


def _parts(text: str) -> list[tuple[int, int]]:
    """Where :data:`TITLE` and :data:`WHY` are in ``text``: the parts shortened first."""
    return [(text.index(TITLE), text.index(TITLE) + len(TITLE)), (text.index(WHY), text.index(WHY) + len(WHY))]


def _heading_label(qtbot, whole: str, *briefer: str, tails: tuple[int, ...] | list[int] = ()) -> ElidedLabel:
    """A label shown with ``whole``, its title and why shortened first, and the ``briefer`` texts."""
    label = ElidedLabel()
    qtbot.addWidget(label)
    label.set_text_shortening(whole, *_parts(whole)[0], _parts(whole)[1],
                              briefer=[(brief, _parts(brief)) for brief in briefer], tails=tails)
    label.show()
    qtbot.waitExposed(label)
    return label


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


def test_briefer_texts_stand_in_before_the_later_parts_are_shortened(qtbot) -> None:
    """The title shortened first; then the briefer texts in turn (the plumbing clause, then the counts left
    to the tip); only the last is shortened further (why the run failed); the tip has the whole text."""
    title, why = TITLE, WHY
    whole = f"Run 1: {title} — failed ({why}); 7 of 14 steps shown (7 plumbing hidden)"
    brief = f"Run 1: {title} — failed ({why}), 7 steps"
    briefest = f"Run 1: {title} — failed ({why})"
    label = _heading_label(qtbot, whole, brief, briefest)
    metrics = label.fontMetrics()

    def at(text: str) -> str:
        label.resize(metrics.horizontalAdvance(text) + 1, label.sizeHint().height())
        return label.shown_text()

    assert at(whole) == whole and label.toolTip() == ""
    shown = at(whole.replace(title, "invoke…"))
    assert shown.endswith("; 7 of 14 steps shown (7 plumbing hidden)") and title not in shown
    assert at(brief) == brief and label.toolTip() == whole  # the plumbing clause in the tip, the title whole
    shown = at(briefest)  # the brief text, its title shortened, before the counts give way
    assert shown.endswith(f"({why}), 7 steps") and title not in shown, shown
    assert at(briefest.replace(title, "…")) == briefest.replace(title, "…")
    shown = at(briefest.replace(title, "…").replace(why, "2 of…"))
    assert shown.startswith("Run 1: … — failed (2 of") and shown.endswith(")"), shown
    assert label.text() == whole and label.toolTip() == whole
    assert label.least_width() == metrics.horizontalAdvance(brief.replace(title, "…")) + (
        label.contentsMargins().left() + label.contentsMargins().right())


def test_a_briefer_text_is_cut_down_to_its_tail_before_the_next_gives_its_title_the_room_back(qtbot) -> None:
    """The counts heading, too long with its title all "…": it was left for the briefest heading, whose title
    then had its room back ("Run 1: invoke_agent support-agent — failed (…)"): the title said whole, the
    counts only in the tip. With a tail named, the counts are cut at their end ("7 of 14 …") first."""
    title, why = TITLE, WHY
    whole = f"Run 1: {title} — failed ({why}); 7 of 14 steps shown (7 plumbing hidden)"
    brief = f"Run 1: {title} — failed ({why}); 7 of 14 steps shown"
    briefest = f"Run 1: {title} — failed ({why})"
    label = _heading_label(qtbot, whole, brief, briefest, tails=[0, len(" steps shown")])
    metrics = label.fontMetrics()
    label.resize(metrics.horizontalAdvance(f"Run 1: … — failed ({why}); 7 of 14 st…") + 1, label.sizeHint().height())
    shown = label.shown_text()
    assert shown.startswith(f"Run 1: … — failed ({why}); 7 of 14") and shown.endswith("…"), shown
    assert metrics.horizontalAdvance(shown) <= label.contentsRect().width() and label.toolTip() == whole
    # Where not even the numbers fit, the briefest stands in, its title shortened as far as need be.
    label.resize(metrics.horizontalAdvance(f"Run 1: … — failed ({why}); 7 of 1"), label.sizeHint().height())
    shown = label.shown_text()
    assert shown.startswith("Run 1: ") and shown.endswith(f"— failed ({why})") and "7 of" not in shown, shown
    # The whole text (tail 0) is never cut in place of its briefer one: the plumbing clause goes whole.
    label.resize(metrics.horizontalAdvance(brief.replace(title, "…")) + 1, label.sizeHint().height())
    assert label.shown_text() == brief.replace(title, "…")


@pytest.mark.qt_log_ignore("This plugin does not support raise")  # the tooltip, offscreen
def test_the_tip_of_a_cut_text_shows_its_characters_not_markup(qtbot) -> None:
    # A run's title from a trace file ("<b>bold</b><img src=x>", a span's name) in the timeline's heading:
    # cut, its tip showed the text as rich text (bold, a broken picture), as Qt guesses a tip's format.
    label = ElidedLabel()
    qtbot.addWidget(label)
    whole = "Run 1: tools/call <b>bold</b><img src=x> & more " + "word " * 40
    label.setText(whole)
    label.resize(160, label.sizeHint().height())
    label.show()
    qtbot.waitExposed(label)
    assert label.is_cut() and label.toolTip() == whole  # the whole text, as before
    middle = label.rect().center()
    QApplication.sendEvent(label, QHelpEvent(QEvent.Type.ToolTip, middle, label.mapToGlobal(middle)))
    qtbot.waitUntil(QToolTip.isVisible)
    document = QTextDocument()
    document.setHtml(QToolTip.text())
    assert document.toPlainText() == whole  # the characters, tags and all
    QToolTip.hideText()


def test_briefer_texts_stand_in_whole_and_the_last_gives_up_why_before_its_title(qtbot) -> None:
    """Given way in order (a run's heading): each briefer text only whole; the last has why it failed
    shortened before its title, and needs the room of all of it (the neighbour gives way first)."""
    whole = f"Run 1: {TITLE} — failed ({WHY}); 7 of 14 steps shown (7 plumbing hidden)"
    counted, last = whole.split(" (7 plumbing")[0], whole.split("; 7 of")[0]
    label = ElidedLabel()
    qtbot.addWidget(label)
    label.set_text_giving_way(whole, [(counted, []), (last, _parts(last)[::-1])])
    metrics = label.fontMetrics()
    margins = label.contentsMargins().left() + label.contentsMargins().right()
    assert label.least_width() == metrics.horizontalAdvance(last) + margins
    for text in (whole, counted, last):  # each where it fits whole
        label.resize(metrics.horizontalAdvance(text) + margins, 30)
        assert label.shown_text() == text
    label.resize(metrics.horizontalAdvance(last) + margins - 1, 30)  # the counts' text cut: why first
    shown = label.shown_text()
    assert shown.startswith(f"Run 1: {TITLE} — failed (2 of 4") and shown.endswith("…)"), shown
    assert label.toolTip() == whole
