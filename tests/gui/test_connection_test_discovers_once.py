"""The window's Test connection (the engine's ping) of a server in the auto era asks ``server/discover``
once, counted by a real server on 127.0.0.1: the probe's answer is the ping's."""

from __future__ import annotations

from inspector.gui.workbench.engine import OperationsEngine
from inspector.mcp import ServerEndpoint
from inspector.store import resolve_db_path
from tests.support.stateless_server import serve_stateless


def test_test_connection_asks_server_discover_once(qtbot) -> None:
    engine = OperationsEngine(resolve_db_path())
    engine.start()
    try:
        with serve_stateless() as (server, url):
            task = engine.ping(ServerEndpoint(url), budget_s=10)
            if task.running:
                with qtbot.waitSignal(task.finished, timeout=15000):
                    pass
            assert task.outcome.status == "ok"
            assert server.methods() == ["server/discover"]
            assert [leg.method for leg in task.outcome.record.step.legs] == ["server/discover"]
    finally:
        engine.shutdown()
