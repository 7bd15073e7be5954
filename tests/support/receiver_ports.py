"""The window's OTLP receiver started on a port of the test's choosing (its setting takes a port, not 0).

A port found free is let go before the receiver binds it, and another program (another pytest-xdist
worker binding port 0) may take it in that moment: the window then says the port is taken. These
helpers choose another port and start again when, and only when, that is what the window said."""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any

ATTEMPTS = 5
#: The window's sentence for a taken port, in each language a test speaks.
TAKEN = ("the port is taken", "Der Port ist belegt")


def free_port() -> int:
    """A port free now (not for long: see the module's note)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_receiving(window: Any) -> int:
    """Start ``window``'s receiver from its menu action on a free port set in its settings; return the port."""
    for _attempt in range(ATTEMPTS):
        port = free_port()
        window.settings.receiver_port = port
        window.receiving.action.trigger()
        if window.receiving.running:
            return port
        dismiss_taken(window)
    raise AssertionError(f"{ATTEMPTS} free ports were all taken before the receiver bound them")


def window_receiving_at_start(make_window: Callable[..., Any], qtbot: Any) -> Any:
    """A window whose receiver started with it (autostart set, on a free port); a window whose port was
    taken meanwhile is left to ``make_window``'s teardown and another made."""
    from inspector.gui.settings import AppSettings

    for _attempt in range(ATTEMPTS):
        settings = AppSettings()
        settings.receiver_port = free_port()
        settings.receiver_autostart = True
        settings.sync()
        window = make_window(wait_tools=False)
        receiving = window.receiving
        qtbot.waitUntil(lambda receiving=receiving: receiving.running or receiving.problem is not None)
        if receiving.running:
            return window
        dismiss_taken(window)
    raise AssertionError(f"{ATTEMPTS} free ports were all taken before the receiver bound them")


def dismiss_taken(window: Any) -> None:
    """Close the window's sentence that its port is taken; any other sentence fails the test."""
    box = window.receiving.problem
    assert box is not None, "the receiver did not start and said nothing"
    assert any(words in box.text() for words in TAKEN), box.text()
    box.close()
    window.receiving.problem = None
