"""The Server log's time column, read in Berlin: a line in the hour a clock is set back says its zone
beside its time ("(UTC+1)"), and the column widens to show it whole (it was as wide as "00:00:00 PM")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from PySide6.QtWidgets import QStyle

from inspector.gui.language import switch_language
from inspector.gui.workbench.log_entry import LogEntry
from tests.gui.test_runs_zone_marks import in_zone
from tests.gui.test_screenshots import save


@pytest.fixture
def in_berlin(monkeypatch: pytest.MonkeyPatch):
    yield from in_zone(monkeypatch, "Europe/Berlin")


@pytest.mark.parametrize(("language", "said"), [("en", "2:30:00\u202fAM (UTC+1)"), ("de", "02:30:00 (UTC+1)")])
def test_a_time_in_the_hour_set_back_shows_its_zone_whole(qtbot, make_window, in_berlin, language, said) -> None:
    window = make_window(wait_tools=False)
    switch_language(language)
    try:
        view = window.log_dock.view
        # 01:30 UTC on 25 October 2026: 02:30 in Berlin, the second time that night (winter time, UTC+1).
        view.add_many([LogEntry(datetime(2026, 10, 25, 1, 30, tzinfo=UTC), "info", "app", "set back", "Demo")])
        index = view.model.index(0, 0)
        assert index.data() == said
        table = view.table
        # Qt elides a cell's text that is wider than the column less its margins on both sides.
        margin = table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1
        needed = table.fontMetrics().horizontalAdvance(said) + 2 * margin
        qtbot.waitUntil(lambda: table.columnWidth(0) >= needed, timeout=2000)  # widened once painted
        qtbot.wait(50)
        assert save(window, f"server-log-set-back-{language}").exists()
    finally:
        switch_language("en")
