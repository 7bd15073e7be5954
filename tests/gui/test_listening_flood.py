"""The window's listening session against a server flooding its stream with requests: the
Server log says how many got no answer (one counted line, in the user's language), and the
window still closes at once."""

from __future__ import annotations

import time

from inspector.gui.language import switch_language
from inspector.mcp.stream_limits import MAX_REQUESTS_IN_FLIGHT
from tests.support.fault_server import FaultServer
from tests.support.hostile_streams import ReplyTaker, ping_flood

FLOOD = 30_000


def dropped_lines(window) -> list[str]:
    model = window.log_dock.view.model
    return [model.index(row, 5).data() for row, entry in enumerate(model.entries)
            if entry.request is None and entry.level == "warning"]


def test_a_flooding_server_gets_one_counted_line_and_the_window_closes_at_once(qtbot, make_window) -> None:
    taker = ReplyTaker(hold_s=0.05)
    with FaultServer("session", get=ping_flood(FLOOD), notification=taker) as server:
        window = make_window((server.url, "flooding server"))
        qtbot.waitUntil(lambda: bool(dropped_lines(window)), timeout=20000)
        [line] = dropped_lines(window)
        assert "requests that got no answer" in line and f"more than {MAX_REQUESTS_IN_FLIGHT}" in line
        model = window.log_dock.view.model
        row = next(row for row, entry in enumerate(model.entries) if entry.level == "warning")
        assert model.index(row, 3).data() == "listening"  # the listening session's, not an operation's
        # Every request was answered or counted: one line for the flood, not one per request.
        answered = sum(1 for entry in model.entries if entry.request == "ping")
        assert answered < FLOOD // 2 and len(model.entries) < 200
        switch_language("de")
        assert "Anfragen, die keine Antwort bekamen" in dropped_lines(window)[0]
        switch_language("en")
        started = time.monotonic()
        window.close()
        took = time.monotonic() - started
        assert took < 2.0, took
        # Two streams are flooded at the start, each with its own cap: the listening session's and
        # that of the operation listing the tools (the cap of one stream is checked on its own in
        # tests/integration/test_listening_hostile.py).
        assert taker.peak <= 2 * MAX_REQUESTS_IN_FLIGHT
