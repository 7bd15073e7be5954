"""A server that sends the same notification many times (a task's status at each change, a subscribed
resource at each update) is told once, with how many times: ``call`` and ``runs show`` said one line per
notification ("The server sent the notification notifications/tasks/status." five times for a research
query of server-everything's; up to a thousand kept). Log messages keep a line each. The server: the
official SDK's, on 127.0.0.1, in both eras."""

from __future__ import annotations

import pytest

from inspector.cli import main
from tests.support.asgi_server import serve_asgi
from tests.support.repeating_server import build_repeating_server


@pytest.fixture(scope="module")
def repeating_url():
    with serve_asgi(build_repeating_server().streamable_http_app()) as url:
        yield url


@pytest.mark.parametrize("era", ["handshake", "stateless"])
def test_the_same_notification_is_told_once_with_how_many_times(repeating_url: str, era: str, capsys) -> None:
    assert main(["call", repeating_url, "--era", era, "watch", "--log-level", "info"]) == 0
    out = capsys.readouterr().out
    assert out.count("notifications/resources/updated") == 1, out
    assert "The server sent the notification notifications/resources/updated 5 times." in out
    assert "The server said 2 times that its list of tools changed." in out
    assert "Server log (info): watching" in out
    assert out.index("resources/updated 5 times") < out.index("Server log (info)") < out.index("list of tools")
    # The stored step says it the same way.
    assert main(["runs", "show", "last"]) == 0
    shown = capsys.readouterr().out
    assert "The server sent the notification notifications/resources/updated 5 times." in shown
    assert shown.count("notifications/resources/updated") == 1


def test_german_counts_the_notifications_too(repeating_url: str, capsys) -> None:
    assert main(["call", repeating_url, "--era", "handshake", "watch", "--no-store", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert "Der Server hat die Benachrichtigung notifications/resources/updated 5-mal gesendet." in out
    assert "Der Server meldete 2-mal, dass sich seine Liste der tools geändert hat." in out
