"""Screenshots of the Play tab mid-run, in English and German (tests/gui/screenshots/, git-ignored)."""

from __future__ import annotations

import pytest

from inspector.gui.language import switch_language
from tests.gui.test_screenshots import big_window, save


@pytest.mark.parametrize("language", ["en", "de"])
def test_screenshot_play_mid_run(qtbot, make_window, language) -> None:
    window = big_window(make_window)
    switch_language(language)
    try:
        room = window.play.room
        window.tabs.setCurrentWidget(room)
        assert room.choices.choose("user-cancels")
        run = room.play()
        # `hang` in flight, its bar a second along (the scenario cancels the run after 2 s).
        qtbot.waitUntil(lambda: any(row.text == "hang" and row.running and row.elapsed_s() > 0.8
                                    for row in run.rows), timeout=20000)
        assert room.bar.isVisible() and room.bar.state is run.rows[-1].bar
        assert save(window, f"play-mid-run-{language}").exists()
        qtbot.waitUntil(lambda: not run.running, timeout=10000)  # it may end before the wait
        assert run.status == "cancelled"
        assert save(window, f"play-cancelled-{language}").exists()
    finally:
        switch_language("en")
