"""A catalogue walk the window cancels for itself (the user selected another server before it
ended) is not the user's cancel: the server the user never used counts no "cancelled"."""

from __future__ import annotations

import json
import subprocess
import sys

from inspector.demo import DemoServer
from inspector.store import ServerRegistry, resolve_db_path
from tests.support.fault_server import FaultServer


def test_selecting_another_server_during_a_walk_counts_no_cancel(make_window, qtbot) -> None:
    with FaultServer("session", delays={"tools/list": 30}) as slow, DemoServer() as demo:
        window = make_window((slow.url, "a slow"), (demo.url, "b demo"), wait_tools=False)
        window.admin.reload_servers(select_url=slow.url)
        tools = window.workbench.tools
        qtbot.waitUntil(lambda: tools.task is not None and tools.task.server_url == slow.url
                        and tools.task.state is not None and tools.task.started_at is not None, timeout=10000)
        walk = tools.task
        window.admin.reload_servers(select_url=demo.url)
        qtbot.waitUntil(lambda: walk.outcome is not None, timeout=10000)
        qtbot.waitUntil(lambda: tools.task is not None and not tools.task.running, timeout=10000)
        assert walk.outcome.status == "cancelled"
        record = ServerRegistry(window.store.db).get(slow.url)
        assert record is not None and (record.ok_count, record.failed_count, record.cancelled_count) == (0, 0, 0)
        listed = subprocess.run([sys.executable, "-m", "inspector", "servers", "--json", "--db",
                                 str(resolve_db_path())], capture_output=True, text=True, timeout=60)
        by_url = {server["url"]: server for server in json.loads(listed.stdout)["servers"]}
        assert by_url[slow.url]["cancelled"] == 0 and by_url[demo.url]["ok"] == 1
