"""Tabs that fit their room: no scroll arrows, the space around the names given up first, then the
longest names cut with "…" (and said whole in their tooltip); the room given back, the tabs grow again."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QLabel, QToolButton, QToolTip

from inspector.gui.widgets.fitted_tabs import LEAST_PADDING_PX, FittedTabs, fitting

NAMES = ["Result", "Arguments", "Structured", "Server", "Wire", "stderr", "Payload"]


def test_fitting_gives_up_the_padding_first_then_cuts_the_longest_names_only() -> None:
    names = [38, 66, 40, 27, 47]  # 218 px of names
    assert fitting(names, 400, 24) == (24, 0)  # room to spare: the style's own padding
    padding, widest = fitting(names, 273, 24)
    assert widest == 0 and LEAST_PADDING_PX <= padding < 24 and sum(names) + 5 * padding <= 273
    padding, widest = fitting(names, 240, 24)
    assert padding == LEAST_PADDING_PX and widest > 0
    shown = [min(name + padding, widest) for name in names]
    assert sum(shown) <= 240
    # The short names stay whole; only the longer ones are cut.
    assert [name + padding <= widest for name in names] == [True, False, True, True, True]
    assert fitting([], 100, 24) == (24, 0) and fitting(names, 0, 24) == (24, 0)


def tab_widget(qtbot, width: int) -> FittedTabs:
    tabs = FittedTabs()
    for name in NAMES:
        tabs.addTab(QLabel(name), name)
    qtbot.addWidget(tabs)
    tabs.resize(width, 200)
    tabs.show()
    qtbot.waitExposed(tabs)
    QApplication.processEvents()
    return tabs


def within(tabs: FittedTabs) -> bool:
    bar = tabs.tabBar()
    return all(0 <= bar.tabRect(index).left() and bar.tabRect(index).right() < tabs.width()
               for index in range(bar.count()))


@pytest.mark.qt_log_ignore("This plugin does not support raise")  # the tooltip, offscreen
def test_every_tab_shows_in_a_narrow_tab_widget_and_a_cut_name_says_itself_whole(qtbot) -> None:
    tabs = tab_widget(qtbot, 260)
    bar = tabs.bar
    assert within(tabs) and bar.sizeHint().width() <= tabs.width()
    assert not [button for button in bar.findChildren(QToolButton) if button.isVisible()]  # no scroll arrows
    cut = [bar.tabText(index) for index in range(bar.count()) if bar.is_cut(index)]
    assert cut and "Wire" not in cut and "Arguments" in cut
    index = NAMES.index("Arguments")
    centre = bar.tabRect(index).center()
    QApplication.sendEvent(bar, QHelpEvent(QEvent.Type.ToolTip, centre, bar.mapToGlobal(centre)))
    assert QToolTip.text() == "Arguments"
    QToolTip.hideText()
    # The tab widget's least width shows every name whole (in the least space around it), whatever it
    # has now: squeezed below it, as here, it cuts the longer names; a pane that can put it elsewhere does.
    whole = sum(bar.fontMetrics().horizontalAdvance(name) + LEAST_PADDING_PX for name in NAMES)
    assert whole <= tabs.minimumSizeHint().width() <= whole + 8
    tabs.setTabVisible(NAMES.index("Structured"), False)
    QApplication.processEvents()
    assert tabs.minimumSizeHint().width() <= whole + 8 - bar.fontMetrics().horizontalAdvance("Structured")


def test_the_tabs_grow_back_when_the_room_comes_back_and_follow_their_names(qtbot) -> None:
    tabs = tab_widget(qtbot, 260)
    bar = tabs.bar
    tabs.resize(900, 200)
    QApplication.processEvents()
    assert bar.padding() == bar.natural and not any(bar.is_cut(index) for index in range(bar.count()))
    wide = bar.tabRect(0).width()
    tabs.resize(380, 200)
    QApplication.processEvents()
    assert within(tabs) and bar.tabRect(0).width() < wide
    # A longer name (another language) is fitted too; hiding tabs gives their room to the others.
    tabs.setTabText(0, "Resultat des Schritts")
    QApplication.processEvents()
    assert within(tabs) and bar.is_cut(0)
    for index in range(2, len(NAMES)):
        tabs.setTabVisible(index, False)
    QApplication.processEvents()
    assert not bar.is_cut(0) and bar.tabRect(0).width() == bar.tabSizeHint(0).width()
    assert within(tabs)


def test_names_changed_while_hidden_are_laid_out_when_shown_again(qtbot) -> None:
    """The language switched while the Runs tab was not shown: the step detail's tabs got their
    German names, then the step was shown again (setTabVisible with each tab's visibility as it
    was). Qt's setTabVisible clears the tab bar's pending layout when nothing changes, so shown
    again the tabs kept their English widths: "Res…", "N…" (Netzwerk in the width of Wire) with
    room to spare."""
    from PySide6.QtWidgets import QTabWidget

    outer = QTabWidget()
    qtbot.addWidget(outer)
    tabs = FittedTabs()
    for name in NAMES:
        tabs.addTab(QLabel(name), name)
    outer.addTab(QLabel("elsewhere"), "Elsewhere")
    outer.addTab(tabs, "Here")
    outer.setCurrentWidget(tabs)
    outer.resize(900, 200)
    outer.show()
    qtbot.waitExposed(outer)
    outer.setCurrentIndex(0)  # the tabs are hidden now
    german = ["Resultat", "Argumente", "Strukturiert", "Server", "Netzwerk", "stderr", "Rohdaten"]
    for index, name in enumerate(german):
        tabs.setTabText(index, name)
    for index in range(tabs.count()):
        tabs.setTabVisible(index, tabs.isTabVisible(index))  # the step shown again: nothing changes
    outer.setCurrentWidget(tabs)
    QApplication.processEvents()
    bar = tabs.bar
    assert not any(bar.is_cut(index) for index in range(bar.count()))
    assert [bar.tabRect(index).width() for index in range(bar.count())] == [
        bar.tabSizeHint(index).width() for index in range(bar.count())]
