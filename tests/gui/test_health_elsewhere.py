"""The Servers panel follows the run database: an operation the command line (or any other
program) records against a configured server shows in the window's health, as the Runs tab shows
its run, without an operation of the window's own."""

from __future__ import annotations

from tests.support.cli_process import cli


def test_an_operation_recorded_by_the_command_line_updates_the_servers_panel(qtbot, make_window,
                                                                             demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    # The window's own catalogue walk is counted first (one ok operation).
    qtbot.waitUntil(lambda: window.servers.current() is not None and window.servers.current().ok_count == 1,
                    timeout=10000)
    reads = window.admin.health.reads
    qtbot.wait(1200)  # polls meanwhile find nothing new: they read nothing
    assert window.admin.health.reads == reads
    done = cli("call", "Demo server", "fail", "--args", '{"reason": "from the terminal"}')
    assert "Stored as run" in done.stdout, done.stderr  # exit status 1: the tool reported an error
    qtbot.waitUntil(lambda: window.servers.current().tool_error_count == 1, timeout=5000)
    assert "1\u00a0tool error" in window.servers.health.text()
