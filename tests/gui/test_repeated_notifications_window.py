"""The Workbench's Result tells a notification the server sent again and again once, with how many
times (it said "The server sent notifications/tasks/status." on a line for each of a task's status
notes, up to a thousand); log messages keep a line each. The server: the official SDK's on 127.0.0.1.
Screenshots (en, de) go to RUN_INSPECTOR_SHOTS (default: the screenshot folder)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.gui.test_main_window import choose, finished
from tests.support.asgi_server import serve_asgi
from tests.support.repeating_server import build_repeating_server

SHOTS = Path(os.environ.get("RUN_INSPECTOR_SHOTS", Path(__file__).parent / "screenshots"))


@pytest.fixture
def repeating_url():
    """Asked for before the window, so that the window (and its listening stream) goes first."""
    with serve_asgi(build_repeating_server().streamable_http_app()) as url:
        yield url


def test_the_result_counts_a_repeated_notification(qtbot, repeating_url: str, make_window) -> None:
    from inspector.gui.language import switch_language

    window = make_window((repeating_url, "repeating"), era="handshake")
    window.resize(1280, 800)
    choose(window, "watch")
    task = window.workbench.run_current_tool()
    assert finished(qtbot, task).status == "ok"
    # The tools' list changed: the window lists them again, a new operation shown; the call's is chosen.
    window.workbench.operations.select(task)
    result = window.workbench.result.text
    qtbot.waitUntil(lambda: "watched" in result.toPlainText())
    text = result.toPlainText()
    assert text.count("notifications/resources/updated") == 1, text
    assert "The server sent notifications/resources/updated 5 times." in text
    assert "The server sent notifications/tools/list_changed 2 times." in text
    assert "Server log (info): watching" in text
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert window.grab().save(str(SHOTS / "repeated-notifications-en.png"))
    switch_language("de")
    try:
        german = result.toPlainText()
        assert "Der Server hat notifications/resources/updated 5-mal gesendet." in german
        qtbot.wait(50)  # the window lays itself out again in German before it is shot
        assert window.grab().save(str(SHOTS / "repeated-notifications-de.png"))
    finally:
        switch_language("en")
