"""The step detail's tab names show whole in English and German: beside the timeline the detail is at
least as wide as its names need (at 280 px, seven tabs read "Re…", "Argum…", "Se…", "W…", "Payl…"), and
where the timeline and such a detail do not fit side by side, the detail goes under the timeline."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from inspector.gui.widgets.fitted_tabs import LEAST_PADDING_PX
from tests.gui.test_runs_screenshots import mixed_run_step_four, shown_tabs
from tests.gui.test_screenshots import save


def cut_names(detail) -> list[str]:
    """The shown tabs whose names do not fit their tab (with the least space around them) or the widget."""
    bar = detail.tabs.tabBar()
    metrics = bar.fontMetrics()
    return [f"{bar.tabText(index)!r}: {bar.tabRect(index).width()} px" for index in shown_tabs(bar)
            if bar.tabRect(index).width() < metrics.horizontalAdvance(bar.tabText(index)) + LEAST_PADDING_PX
            or bar.tabRect(index).right() >= detail.tabs.width()]


def show_every_tab_of_a_command_servers_step(qtbot, detail) -> None:
    """Structured content and stderr shown too, as for a command server's step that returned structured
    content: seven tabs (the step detail shows them so)."""
    for page in (detail.structured, detail.stderr):
        detail.tabs.setTabVisible(detail.tabs.indexOf(page), True)
    qtbot.wait(50)  # the panes arranged anew, laid out


@pytest.mark.parametrize("language", ["en", "de"])
def test_seven_tab_names_show_whole_beside_the_timeline_at_the_default_size(qtbot, make_window,
                                                                            language) -> None:
    with mixed_run_step_four(qtbot, make_window, language) as window:
        tab = window.runs_tab
        assert (window.width(), window.height()) == (1200, 760)
        qtbot.wait(50)
        assert cut_names(tab.detail) == []  # five tabs
        show_every_tab_of_a_command_servers_step(qtbot, tab.detail)
        assert len(shown_tabs(tab.detail.tabs.tabBar())) == 7
        assert tab.lower.orientation() == Qt.Orientation.Horizontal
        assert cut_names(tab.detail) == []
        # The timeline keeps its own least width beside it.
        assert tab.timeline_pane.width() >= tab.timeline_pane.minimumSizeHint().width()
        save(window, f"runs-seven-tabs-default-size-{language}")


def test_a_detail_whose_names_do_not_fit_beside_the_timeline_goes_under_it_and_back(qtbot, make_window) -> None:
    """German at a window 1,116 px wide (the Servers panel a sixth of it, the tab 922 px): five tabs fit beside the
    timeline, seven do not (the timeline's least and the seven names need about 930 px): they go under it, whole."""
    with mixed_run_step_four(qtbot, make_window, "de") as window:
        tab = window.runs_tab
        window.resize(1116, 760)
        qtbot.waitUntil(lambda: window.width() == 1116)
        qtbot.wait(50)
        assert tab.width() == 922, tab.width()
        assert tab.lower.orientation() == Qt.Orientation.Horizontal and cut_names(tab.detail) == []
        show_every_tab_of_a_command_servers_step(qtbot, tab.detail)
        assert tab.lower.orientation() == Qt.Orientation.Vertical
        assert cut_names(tab.detail) == []
        save(window, "runs-seven-tabs-under-the-timeline-de")
        for page in (tab.detail.structured, tab.detail.stderr):
            tab.detail.tabs.setTabVisible(tab.detail.tabs.indexOf(page), False)
        qtbot.wait(50)
        assert tab.lower.orientation() == Qt.Orientation.Horizontal and cut_names(tab.detail) == []
