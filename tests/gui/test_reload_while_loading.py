"""Reload while the tool list is still loading: the load the user replaced is set aside (cancelled by
the window), not left running to the end of its budget where neither Cancel nor Esc reaches it.

Real parts: a real process for the command server (one that never answers: its program hangs while
starting), the window offscreen, a real SQLite file."""

from __future__ import annotations

import sys

from inspector.agent.server_commands import setting_of
from inspector.i18n import set_language
from inspector.i18n.messages import said_again
from inspector.mcp import ServerEndpoint
from inspector.mcp.server_command import ServerCommand
from inspector.store import RunStore, ServerRegistry, resolve_db_path

#: A command server still starting when Reload is pressed again: it reads nothing and never answers.
HANGING = ServerCommand(sys.executable, ("-c", "import time; time.sleep(120)"))


def test_a_second_reload_of_a_command_server_still_loading_sets_the_first_load_aside(make_window, qtbot) -> None:
    key = ServerEndpoint.for_command(HANGING).key
    store = RunStore.open(resolve_db_path())
    try:
        ServerRegistry(store.db).save_server(key, name="hanging", command=setting_of(HANGING), budget_s=60)
    finally:
        store.close()
    window = make_window(wait_tools=False)
    window.admin.reload_servers(select_url=key)
    workbench = window.workbench
    first = workbench.load_tools()  # Reload: its program starts, and hangs
    qtbot.waitUntil(lambda: first.running and first.started_at is not None, timeout=10000)
    second = workbench.load_tools()  # Reload again while the first load runs
    assert second is not None and second is not first and workbench.tools.task is second
    qtbot.waitUntil(lambda: first.outcome is not None, timeout=10000)  # not after its 60 s budget
    assert first.outcome.status == "cancelled" and first.set_aside
    step = first.outcome.record.step  # stored so: not the user's cancel, nor "another server was chosen"
    assert step.content.startswith("tools/list: The window set the tool listing aside because Reload started it "
                                   "again")
    set_language("de")
    try:
        assert said_again(step.content, step.wording).startswith(
            "tools/list: Das Fenster hat die Auflistung der Tools beiseitegelegt, weil „Neu laden“ sie neu gestartet "
            "hat")
    finally:
        set_language("en")
    assert [task for task in window.engine.running_tasks() if task.kind == "list"] == [second]
    workbench.cancel_current()  # Esc: the load that runs now
    qtbot.waitUntil(lambda: second.outcome is not None, timeout=10000)
    assert second.outcome.status == "cancelled" and not window.engine.running_tasks()
    health = ServerRegistry(window.store.db).get(key)
    assert health is not None and health.cancelled_count == 1  # the user's Esc; the load set aside is not counted
