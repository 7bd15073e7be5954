"""The Servers panel follows the run database: an operation the command line (or any other
program) records against a configured server shows in the window's health, as the Runs tab shows
its run, without an operation of the window's own."""

from __future__ import annotations

from inspector.gui.workbench.health_reader import HealthReader, database_file
from inspector.store import RunStore, ServerRegistry, resolve_db_path
from tests.support.cli_process import cli

URL = "http://127.0.0.1:9/mcp"


def test_a_poll_reads_only_after_another_connection_wrote(qtbot) -> None:
    with RunStore.open(resolve_db_path()) as store:
        ServerRegistry(store.db).save_server(URL, name="Nowhere")
        path = database_file(store)
    reader = HealthReader(path)
    said: list[tuple] = []
    reader.read.connect(lambda records, url, shown, problem, *_: said.append((records, url)))
    try:
        reader.request(URL)
        qtbot.waitUntil(lambda: len(said) == 1, timeout=5000)
        for _ in range(3):  # nothing written since: a poll reads nothing and says nothing
            reader.request(URL, poll=True)
            qtbot.waitUntil(lambda: not reader._busy, timeout=5000)
        qtbot.wait(50)
        assert reader.reads == 1 and len(said) == 1
        with RunStore.open(resolve_db_path()) as store:  # another program counts an operation
            ServerRegistry(store.db).record_operation(URL, "failed", None)
        reader.request(URL, poll=True)
        qtbot.waitUntil(lambda: len(said) == 2, timeout=5000)
        assert reader.reads == 2 and said[1][0][0].failed_count == 1
    finally:
        reader.stop()


def test_an_operation_recorded_by_the_command_line_updates_the_servers_panel(qtbot, make_window,
                                                                             demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    # The window's own catalogue walk is counted first (one ok operation).
    qtbot.waitUntil(lambda: window.servers.current() is not None and window.servers.current().ok_count == 1,
                    timeout=10000)
    done = cli("call", "Demo server", "fail", "--args", '{"reason": "from the terminal"}')
    assert "Stored as run" in done.stdout, done.stderr  # exit status 1: the tool reported an error
    qtbot.waitUntil(lambda: window.servers.current().tool_error_count == 1, timeout=5000)
    assert "1\u00a0tool error" in window.servers.health.text()


def test_a_server_another_program_counted_is_listed_but_not_selected_nor_asked(qtbot, make_window,
                                                                               demo_server) -> None:
    """The window shows no server selected (none is configured here); the command line calls one:
    the panel lists it with its counts, and the window asks it nothing (no catalogue walk of its own)."""
    window = make_window(wait_tools=False)
    qtbot.waitUntil(lambda: window.runs_tab is not None, timeout=10000)
    assert window.servers.current() is None
    done = cli("call", demo_server.url, "echo", "--args", '{"text": "from the terminal"}')
    assert done.returncode == 0, done.stderr
    model = window.servers.model
    qtbot.waitUntil(lambda: model.row_of(demo_server.url) >= 0, timeout=5000)
    assert model.record(model.row_of(demo_server.url)).ok_count == 1
    qtbot.wait(700)  # a poll more: still nothing selected, nothing asked
    assert window.servers.current() is None
    assert [run.title for run in window.store.list_runs(limit=None)] == ["tools/call echo"]
