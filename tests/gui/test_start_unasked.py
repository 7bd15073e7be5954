"""What the window does on its own as it opens, which the user did not ask for.

- An address known only from a one-off command-line call (listed by its health) is never selected
  for the user: the window opened on the first address in the list and walked its catalogue, which
  against a server that is down added a failure to its health (the window selected the first
  configured server instead, or none).
- The catalogue walk of the server the window selects as it opens is stored as a run and counted in
  its health, as every operation is (what the server did is what its health says).
- A command server the window opens on is not started: its program starts when the user asks
  (Reload), and the tools panel says so.

Real parts: HTTP servers on 127.0.0.1 recording every request, the window offscreen, a real SQLite
file, a real process for the command server.
"""

from __future__ import annotations

import sys
from pathlib import Path

from inspector.agent.server_commands import setting_of
from inspector.gui.language import switch_language
from inspector.gui.settings import AppSettings
from inspector.mcp import ServerEndpoint
from inspector.mcp.server_command import ServerCommand
from inspector.store import RunStore, ServerRegistry, resolve_db_path
from tests.gui.test_screenshots import save
from tests.support.fault_server import Exchange, FaultServer

ROOT = Path(__file__).resolve().parents[2]
SDK = ServerCommand(sys.executable, ("-m", "tests.support.stdio_server"), cwd=str(ROOT))


def _unavailable(exchange: Exchange) -> None:
    exchange.send(503, b"")


def _configure(*urls: str, called_once: tuple[str, ...] = (), last: str | None = None) -> None:
    """Servers saved (``urls``), addresses the command line called once and that failed, and the
    server the settings remember as selected last."""
    store = RunStore.open(resolve_db_path())
    try:
        registry = ServerRegistry(store.db)
        for url in urls:
            registry.save_server(url)
        for url in called_once:
            registry.count_operation(url, "failed", None)
    finally:
        store.close()
    if last is not None:
        settings = AppSettings()
        settings.last_server = last
        settings.sync()


def _walks(window) -> list:
    return [task for task in window.engine.tasks if task.kind == "list"]


def test_an_address_called_once_from_the_command_line_is_not_selected_nor_asked(make_window, qtbot) -> None:
    with FaultServer(work=_unavailable) as once:
        _configure(called_once=(once.url,))
        window = make_window(wait_tools=False)
        qtbot.waitUntil(lambda: window._runs.built)  # the first paint's work (the keyring's reads) is done
        assert window.servers.model.rowCount() == 1  # listed, by its health
        assert window.admin.current() is None and _walks(window) == []
        assert once.received == []
        assert window.admin.registry.get(once.url).failed_count == 1  # the user's call, no more
        assert window.store.list_runs(limit=5) == []


def test_the_first_configured_server_is_selected_not_an_address_called_once(make_window, qtbot) -> None:
    with FaultServer(work=_unavailable) as once, FaultServer(work=_unavailable, path="/z/mcp") as mine:
        first, second = sorted((once.url, mine.url))
        called, configured = (first, second)  # the one called once sorts first in the list
        _configure(configured, called_once=(called,))
        window = make_window(wait_tools=False)
        assert window.servers.model.record(0).url == called
        assert window.admin.current().url == configured


def test_the_walk_the_window_makes_as_it_opens_is_stored_and_counted(make_window, qtbot) -> None:
    with FaultServer(work=_unavailable) as down:
        _configure(down.url, last=down.url)
        window = make_window(wait_tools=False)
        walk = window.workbench.tools.task
        assert walk is not None
        qtbot.waitUntil(lambda: walk.outcome is not None, timeout=20000)
        assert walk.outcome.status == "failed"
        assert any(request.rpc_method == "tools/list" for request in down.received)
        runs = window.store.list_runs(limit=5)
        assert [run.title for run in runs] == [f"tools/list {down.url}"]  # stored, as every operation is
        qtbot.waitUntil(lambda: window.admin.registry.get(down.url).failed_count == 1, timeout=10000)
        health = window.admin.registry.get(down.url)
        assert (health.ok_count, health.cancelled_count) == (0, 0)
        reload = window.workbench.load_tools()  # the user's Reload: counted too
        with qtbot.waitSignal(reload.finished, timeout=20000):
            pass
        assert window.admin.registry.get(down.url).failed_count == 2


def test_a_command_server_the_window_opens_on_is_started_only_when_the_user_asks(make_window, qtbot) -> None:
    key = ServerEndpoint.for_command(SDK).key
    store = RunStore.open(resolve_db_path())
    try:
        ServerRegistry(store.db).save_server(key, name="stdio test", command=setting_of(SDK))
    finally:
        store.close()
    _configure(last=key)
    window = make_window(wait_tools=False)
    qtbot.waitUntil(lambda: window._runs.built)
    assert window.admin.current().url == key
    assert _walks(window) == [] and window.engine.processes.pid(key) is None
    said = window.workbench.tools.state.text()
    assert "stdio test" in said and "Reload" in said
    for language in ("en", "de"):
        switch_language(language)
        qtbot.wait(100)
        save(window.workbench.tools, f"start-command-unasked-{language}")
    switch_language("en")
    walk = window.workbench.load_tools()  # Reload: the user asks
    with qtbot.waitSignal(walk.finished, timeout=30000):
        pass
    assert walk.outcome.status == "ok" and window.workbench.tools.model.rowCount() > 0
    assert window.engine.processes.pid(key) is not None
