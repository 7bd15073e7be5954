"""A layout change deep inside a page does not repaint the tab widgets above it (issue 27), and the
tab widgets still lay themselves out when what their layout depends on changes. Also: running a
tool again with the same arguments does not rewrite the settings file (a write on every Run)."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QSettings
from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget

from inspector.gui.settings import AppSettings
from inspector.gui.widgets.steady_tabs import SteadyTabs

SHORT = "A line."
LONG = "A sentence long enough to wrap onto several lines in a narrow page. " * 4


class _Paints(QObject):
    """The largest share of one widget's own area that a paint event of it covered (a child that
    repaints a small part also paints its parents' backgrounds there: that is not the tab widget
    repainted whole)."""

    def __init__(self, widget: QWidget) -> None:
        super().__init__()
        self.widget = widget
        self.largest = 0.0
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is self.widget and event.type() == QEvent.Type.Paint:
            painted = sum(rect.width() * rect.height() for rect in event.region())
            whole = self.widget.width() * self.widget.height()
            self.largest = max(self.largest, painted / whole)
        return False


def _nested(qtbot, kind: type[QTabWidget]) -> tuple[QTabWidget, QTabWidget, QLabel, QWidget]:
    """Outer tabs, inner tabs in its page, a word-wrapped label in the inner page (as the window's
    main tabs, the operation's detail and its result's sentence)."""
    outer = kind()
    inner = kind()
    page = QWidget()
    label = QLabel(SHORT)
    label.setWordWrap(True)
    layout = QVBoxLayout(page)
    layout.addWidget(label)
    layout.addStretch(1)
    inner.addTab(page, "Result")
    holder = QWidget()
    QVBoxLayout(holder).addWidget(inner)
    outer.addTab(holder, "Workbench")
    outer.resize(300, 400)
    qtbot.addWidget(outer)
    outer.show()
    qtbot.waitExposed(outer)
    qtbot.wait(50)
    return outer, inner, label, page


def _relabel(qtbot, label: QLabel, times: int = 7) -> None:
    for number in range(times):
        label.setText(LONG if number % 2 == 0 else SHORT)  # its height changes each time; long at the end
        qtbot.wait(20)


def test_a_label_s_new_height_in_a_page_does_not_repaint_the_tab_widgets_above_it(qtbot) -> None:
    outer, inner, label, _page = _nested(qtbot, SteadyTabs)
    outer_paints, inner_paints = _Paints(outer), _Paints(inner)
    _relabel(qtbot, label)
    # The label's own rows are repainted (with the backgrounds under them), never the whole widgets.
    assert outer_paints.largest < 0.6 and inner_paints.largest < 0.6
    assert label.height() > label.fontMetrics().height() * 2  # it did lay out anew: the long text wraps


def test_qt_s_own_tab_widget_repaints_whole_for_the_same_change(qtbot) -> None:
    """What SteadyTabs is for: the same change repaints Qt's tab widgets (if a Qt release stops doing
    so, SteadyTabs can go)."""
    outer, inner, label, _page = _nested(qtbot, QTabWidget)
    outer_paints, inner_paints = _Paints(outer), _Paints(inner)
    _relabel(qtbot, label)
    assert outer_paints.largest > 0.9 and inner_paints.largest > 0.9


def test_steady_tabs_still_lay_out_a_longer_title_a_new_tab_and_a_new_size(qtbot) -> None:
    outer, inner, _label, page = _nested(qtbot, SteadyTabs)
    bar = inner.tabBar()
    width = bar.width()
    inner.setTabText(0, "A much longer title for the result")
    qtbot.waitUntil(lambda: bar.width() > width, timeout=2000)
    inner.addTab(QWidget(), "Wire")
    qtbot.waitUntil(lambda: bar.count() == 2 and bar.tabRect(1).right() <= bar.width(), timeout=2000)
    outer.resize(500, 600)
    qtbot.waitUntil(lambda: page.width() > 400 and page.height() > 450, timeout=2000)


def test_a_page_that_needs_more_room_still_tells_the_widgets_above_it(qtbot) -> None:
    outer, inner, label, _page = _nested(qtbot, SteadyTabs)
    before = outer.minimumSizeHint().height()
    label.setMinimumHeight(700)
    qtbot.waitUntil(lambda: outer.minimumSizeHint().height() >= before + 600, timeout=2000)
    assert inner.minimumSizeHint().height() >= 700


def test_running_a_tool_again_with_the_same_arguments_does_not_rewrite_the_settings_file(
        qtbot, tmp_path: Path) -> None:
    path = tmp_path / "settings.ini"
    settings = AppSettings(QSettings(str(path), QSettings.Format.IniFormat))
    settings.remember_arguments("http://127.0.0.1:9/mcp", "echo", {"text": "hi"})
    settings.sync()
    written = os.stat(path)
    for _ in range(3):
        settings.remember_arguments("http://127.0.0.1:9/mcp", "echo", {"text": "hi"})
        qtbot.wait(20)  # QSettings saves on the event loop's next turn when something changed
    settings.sync()
    again = os.stat(path)
    assert (again.st_ino, again.st_mtime_ns) == (written.st_ino, written.st_mtime_ns)
    settings.remember_arguments("http://127.0.0.1:9/mcp", "echo", {"text": "other"})
    settings.sync()
    assert os.stat(path).st_ino != written.st_ino  # a change is still written
    assert settings.last_arguments("http://127.0.0.1:9/mcp", "echo") == {"text": "other"}
