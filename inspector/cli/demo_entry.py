"""The window's "Demo server" entry called from the command line while nothing runs it.

The demo server of that entry runs only while a window runs it (or ``serve-demo`` in a terminal).
Called while neither does, the connection is refused: that is no fault of the server, so it is
neither sent nor stored as a failed run (a failure would count against the entry's health, which
would then say the demo server is flaky when it was only not started). The command ends at once
with one sentence saying how to start it. No Qt here: the check is one connection on 127.0.0.1.
"""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

from inspector.i18n import N_
from inspector.i18n.entry_names import DEMO_ENTRY_NAME
from inspector.i18n.messages import Message
from inspector.mcp import ServerEndpoint

from .common import CommandError

#: How long the check waits for 127.0.0.1 to answer (a refusal comes at once).
PROBE_TIMEOUT_S = 0.5
_LOOPBACK = ("127.0.0.1", "localhost", "::1")


def check_demo_entry(server: ServerEndpoint) -> None:
    """Raise a :class:`CommandError` when ``server`` is the demo entry and nothing listens at its port."""
    if server.is_command or server.name != DEMO_ENTRY_NAME:
        return
    try:
        parts = urlsplit(server.url)
        host, port = parts.hostname, parts.port
    except ValueError:
        return
    if host not in _LOOPBACK or port is None or not refused(host, port):
        return
    raise CommandError(Message(N_(
        "{name} is not running: nothing listens at {url}. The demo server runs while the Run Inspector window "
        "is open (run-inspector), or start it in another terminal with: run-inspector serve-demo --port {port}. "
        "Nothing was called or stored."),
        {"name": server.name, "url": server.url, "port": port}))  # said as the reader's language names it


def refused(host: str, port: int) -> bool:
    """Whether a connection to ``host``:``port`` is refused (nothing listens); a time-out is not a refusal."""
    try:
        socket.create_connection((host, port), timeout=PROBE_TIMEOUT_S).close()
    except ConnectionRefusedError:
        return True
    except OSError:
        return False
    return False


__all__ = ["check_demo_entry", "refused"]
