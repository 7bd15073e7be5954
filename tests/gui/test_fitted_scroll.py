"""The part of a panel that scrolls where the window is low (:class:`FittedScroll`): a scroll bar shown once,
while the window was low for a moment (as it opens, before its size is set), could stay when the room came
back. ``QScrollArea`` decided on the bar at the width its viewport had then, beside the bar, where the
wrapped lines need more height; the content was left at the full width behind the bar, its words cut off
on the right (the Servers panel's sign-in sentence, "This server answere"), or given less than its lines'
height (the health over Test connection). The bar is now decided at the full width."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from inspector.gui.widgets.fitted_scroll import FittedScroll

WORDS = ("Not signed in. This server answered without asking for a sign-in (a server that needs one "
         "answers HTTP 401 and the window asks you then). ") * 2
WIDTH = 222


def _scroll(qtbot) -> tuple[FittedScroll, QLabel]:
    content = QWidget()
    lines = QLabel(WORDS)
    lines.setWordWrap(True)
    column = QVBoxLayout(content)
    column.setContentsMargins(0, 0, 0, 0)
    column.addWidget(lines)
    column.addWidget(QPushButton("Test connection"))
    scroll = FittedScroll(content)
    qtbot.addWidget(scroll)
    return scroll, lines


def _settle(qtbot) -> None:
    qtbot.wait(30)
    qtbot.wait(30)


def _all_there(scroll: FittedScroll, lines: QLabel) -> None:
    content = scroll.widget()
    assert content.width() == scroll.viewport().width(), (content.width(), scroll.viewport().width())
    assert lines.height() >= lines.heightForWidth(lines.width()), (lines.height(), lines.heightForWidth(lines.width()))
    assert content.height() >= content.heightForWidth(content.width())


def test_a_bar_shown_while_the_room_was_low_goes_when_the_room_comes_back(qtbot) -> None:
    scroll, lines = _scroll(qtbot)
    scroll.resize(WIDTH, 60)  # low for a moment: the lines scroll
    scroll.show()
    qtbot.waitExposed(scroll)
    _settle(qtbot)
    assert scroll.verticalScrollBar().isVisible()
    _all_there(scroll, lines)  # beside the bar, at the narrower width, every line there
    enough = scroll.widget().heightForWidth(WIDTH)  # at the full width: less than beside the bar
    assert enough < scroll.widget().heightForWidth(scroll.viewport().width())
    scroll.resize(WIDTH, enough)
    _settle(qtbot)
    assert not scroll.verticalScrollBar().isVisible()
    _all_there(scroll, lines)
    assert scroll.viewport().width() == WIDTH


def test_lines_that_grow_in_a_room_that_stays_scroll_rather_than_lie_over_each_other(qtbot) -> None:
    scroll, lines = _scroll(qtbot)
    scroll.resize(WIDTH, 300)
    scroll.show()
    qtbot.waitExposed(scroll)
    _settle(qtbot)
    assert not scroll.verticalScrollBar().isVisible()
    _all_there(scroll, lines)
    lines.setText(WORDS * 3)
    _settle(qtbot)
    assert scroll.verticalScrollBar().isVisible()
    _all_there(scroll, lines)
    lines.setText("One line.")
    _settle(qtbot)
    assert not scroll.verticalScrollBar().isVisible()
    _all_there(scroll, lines)
    assert scroll.sizeHint().height() < 300
