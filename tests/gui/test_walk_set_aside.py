"""A catalogue walk the window cancels for itself (the user selected another server before it
ended) is not the user's cancel: the server the user never used counts no "cancelled", and the run's
step says that the window set the listing aside (in `runs show` and the Runs tab, in English and
German), its run still cancelled."""

from __future__ import annotations

import json

from inspector.demo import DemoServer
from inspector.store import ServerRegistry, resolve_db_path
from tests.support.cli_process import cli_here
from tests.support.fault_server import FaultServer


def walking(make_window, qtbot, slow_url: str, demo_url: str):
    """The window with the two servers, the slow one selected: the window, and its catalogue walk once it runs."""
    window = make_window((slow_url, "a slow"), (demo_url, "b demo"), wait_tools=False)
    window.admin.reload_servers(select_url=slow_url)
    tools = window.workbench.tools
    qtbot.waitUntil(lambda: tools.task is not None and tools.task.server_url == slow_url
                    and tools.task.state is not None and tools.task.started_at is not None, timeout=10000)
    return window, tools.task


def test_selecting_another_server_during_a_walk_counts_no_cancel(make_window, qtbot) -> None:
    with FaultServer("session", delays={"tools/list": 30}) as slow, DemoServer() as demo:
        window, walk = walking(make_window, qtbot, slow.url, demo.url)
        tools = window.workbench.tools
        window.admin.reload_servers(select_url=demo.url)
        qtbot.waitUntil(lambda: walk.outcome is not None, timeout=10000)
        qtbot.waitUntil(lambda: tools.task is not None and not tools.task.running, timeout=10000)
        assert walk.outcome.status == "cancelled"
        record = ServerRegistry(window.store.db).get(slow.url)
        assert record is not None and (record.ok_count, record.failed_count, record.cancelled_count) == (0, 0, 0)
        listed = cli_here("servers", "--json", "--db", str(resolve_db_path()))
        by_url = {server["url"]: server for server in json.loads(listed.stdout)["servers"]}
        # The demo was listed (once, or twice when the window started on it: it opens on the server chosen last).
        assert by_url[slow.url]["cancelled"] == 0 and by_url[demo.url]["ok"] >= 1


def test_a_walk_the_user_cancelled_stays_the_users_cancel_when_another_server_is_chosen_at_once(make_window,
                                                                                                 qtbot) -> None:
    """Cancel, then another server chosen before the cancel's end reached the window: the window set the
    walk aside over the user's cancel (the first reason did not stand), its step said the window had set it
    aside and the server's health counted no cancel."""
    with FaultServer("session", delays={"tools/list": 30}) as slow, DemoServer() as demo:
        window, walk = walking(make_window, qtbot, slow.url, demo.url)
        tools = window.workbench.tools
        tools.cancel_button.click()  # the user's cancel
        window.admin.reload_servers(select_url=demo.url)  # in the same turn: its end has not reached the window
        qtbot.waitUntil(lambda: walk.outcome is not None, timeout=10000)
        assert not walk.set_aside
        assert walk.outcome.record.step.content.startswith("tools/list: You cancelled the operation after")
        record = ServerRegistry(window.store.db).get(slow.url)
        assert record is not None and (record.ok_count, record.failed_count, record.cancelled_count) == (0, 0, 1)


def test_a_walk_set_aside_says_so_where_it_is_stored_not_that_the_user_cancelled(make_window, qtbot, capsys) -> None:
    from inspector.cli import main
    from inspector.gui.language import switch_language
    from inspector.i18n import current_language, set_language
    from tests.gui.test_runs_block_lines import show_step

    with FaultServer("session", delays={"tools/list": 30}) as slow, DemoServer() as demo:
        window, walk = walking(make_window, qtbot, slow.url, demo.url)
        tools = window.workbench.tools
        window.admin.reload_servers(select_url=demo.url)
        qtbot.waitUntil(lambda: walk.outcome is not None, timeout=10000)
        qtbot.waitUntil(lambda: tools.task is not None and not tools.task.running, timeout=10000)
    run_id = walk.outcome.run_id
    assert run_id is not None
    english = ("tools/list: The window set the tool listing aside because another server was chosen: tools/list "
               "had been sent to the server a slow, and its answer was not awaited. Whether the server "
               "acted on it is unknown.")
    german = ("tools/list: Das Fenster hat die Auflistung der Tools beiseitegelegt, weil ein anderer Server "
              "ausgewählt wurde: tools/list war an den Server a slow gesendet worden, und auf die Antwort "
              "wurde nicht gewartet. Ob der Server die Anfrage ausgeführt hat, ist unbekannt.")
    db = str(resolve_db_path())
    assert main(["runs", "show", str(run_id), "--db", db, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["run"]["status"] == "cancelled"  # its outcome stays a cancel
    [entry] = shown["timeline"]
    assert entry["payload"]["content"] == english  # stored in English, its sentence kept as data
    assert "You cancelled" not in json.dumps(shown)
    before = current_language()
    try:
        for language, words in (("en", english), ("de", german)):
            assert main(["runs", "show", str(run_id), "--db", db, "--lang", language]) == 0
            out = " ".join(capsys.readouterr().out.split())  # the table wraps it
            assert " ".join(words.split()[:12]) in out and "cancelled the operation" not in out
    finally:
        set_language(before)
    detail = show_step(qtbot, window, run_id)
    assert detail.result.toPlainText() == english
    model = window.runs_tab.timeline_pane.model
    cells = [model.index(0, column).data() for column in range(model.columnCount())]
    assert any(isinstance(cell, str) and cell.startswith("tools/list: The window set the tool listing aside")
               for cell in cells)
    switch_language("de")
    try:
        assert detail.result.toPlainText() == german
    finally:
        switch_language("en")


def test_a_walk_set_aside_before_its_request_was_sent_says_the_work_was_not_sent() -> None:
    import asyncio

    from inspector.agent.operations import request_step
    from inspector.gui.workbench.set_aside import set_aside_record
    from inspector.i18n import current_language, set_language
    from inspector.i18n.messages import said_again
    from inspector.mcp import McpTransportError, ServerEndpoint

    server = ServerEndpoint("http://127.0.0.1:9/mcp", name="a slow")

    async def cancelled(recorder):
        raise McpTransportError.cancelled(server.label, "initialize", in_flight=False)

    async def listed(recorder):
        return "listed"

    record = asyncio.run(request_step("tools/list", server, lambda found: found, cancelled))
    assert record.step.content.startswith("tools/list: You cancelled the operation before")  # the client's words
    aside = set_aside_record(record)
    assert (aside.status, aside.health) == ("cancelled", "cancelled")
    assert aside.step.content == ("tools/list: The window set the tool listing aside because another server was "
                                  "chosen, before its request reached the server a slow (during initialize); the "
                                  "work was not sent.")
    before = current_language()
    try:
        set_language("de")
        assert said_again(aside.step.content, aside.step.wording) == (
            "tools/list: Das Fenster hat die Auflistung der Tools beiseitegelegt, weil ein anderer Server ausgewählt "
            "wurde, bevor ihre Anfrage den Server a slow erreichte (während initialize); der Auftrag wurde nicht "
            "gesendet.")
    finally:
        set_language(before)
    # A listing that ended before the window's cancel came keeps its own words.
    ended = asyncio.run(request_step("tools/list", server, lambda found: found, listed))
    assert set_aside_record(ended) is ended
