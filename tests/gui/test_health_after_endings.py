"""The Servers panel's health says what `run-inspector servers` says after every operation's end: an ok
call, a cancel (never a failure), a time-out (a failure), a tool error (a failure, named apart), and a
burst of all four ending together, in English and German.

The window reads the health back off the GUI thread once for a burst of endings. Here the panel's poll
(which would make up for a lost ending within half a second) is off, and every read is held up after it
read the records (the real read, slowed), so endings commit while a read that did not see them is under
way: the panel must still come to the last ending's counts, from the endings' own reads. The health row
is written and committed on the worker before the task's ``finished`` reaches the GUI thread, so the
run and its count are both stored by then. Screenshots: healthfresh-{en,de}.png."""

from __future__ import annotations

import json
import threading
import time

import pytest

from inspector.gui.language import switch_language
from inspector.i18n.words import health_text
from inspector.store import ServerRegistry, resolve_db_path
from tests.gui.test_screenshots import save
from tests.support.cli_process import cli_here
from tests.support.fault_server import Exchange, FaultServer


def _work(exchange: Exchange) -> None:
    """Three tools: ``echo`` answers, ``stall`` never does, ``broken`` reports an error (isError)."""
    if exchange.request.rpc_method == "tools/list":
        exchange.send_result({"tools": [{"name": name, "inputSchema": {"type": "object"}}
                                        for name in ("echo", "stall", "broken")]})
    elif (exchange.request.params or {}).get("name") == "stall":
        exchange.stall()
    elif (exchange.request.params or {}).get("name") == "broken":
        exchange.send_result({"content": [{"type": "text", "text": "the disk is full"}], "isError": True})
    else:
        exchange.send_result({"content": [{"type": "text", "text": "fine"}]})


def _cli_counts(language: str, url: str) -> tuple[str, tuple[int, int, int, int]]:
    """`servers`' table line for the server and its counts as `servers --json` gives them."""
    said = cli_here("--lang", language, "servers", "--db", str(resolve_db_path()), env={"COLUMNS": "250"})
    listed = cli_here("servers", "--json", "--db", str(resolve_db_path()))
    assert said.returncode == 0 and listed.returncode == 0, said.stderr + listed.stderr
    [server] = [entry for entry in json.loads(listed.stdout)["servers"] if entry["url"] == url]
    return said.stdout, (server["ok"], server["failed"], server["tool_errors"], server["cancelled"])


def _plain(text: str) -> str:
    """The panel's words without the spaces and joiners that keep a number by its word."""
    return text.replace("\u00a0", " ").replace("\u2060", "")


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_panels_health_says_what_servers_says_after_every_ending(qtbot, make_window, monkeypatch,
                                                                     language: str) -> None:
    from inspector.gui.workbench import health_reader, server_health

    real = health_reader.latencies
    gate, reading = threading.Event(), threading.Event()
    gate.set()

    def held(store, url):  # the records are read already: an ending committed meanwhile is not in them
        reading.set()
        assert gate.wait(20)
        return real(store, url)

    monkeypatch.setattr(health_reader, "latencies", held)
    monkeypatch.setattr(server_health, "HEALTH_POLL_MS", 3_600_000)  # no poll makes up for a lost ending
    switch_language(language)
    try:
        with FaultServer("session", work=_work) as server:
            window = make_window((server.url, "misbehaving"), budget_s=1, era="handshake")
            window.resize(1280, 800)
            panel = window.servers
            waits: list[float] = []
            ends = [time.monotonic()]

            def agrees(counts: tuple[int, int, int, int]) -> bool:
                line = health_text(*counts)
                row = panel.model.index(panel.model.row_of(server.url), 0).data()
                return (_plain(panel.health.text()).splitlines()[-1] == line
                        and _plain(row).splitlines()[-1] == line)

            def ended(tasks, expected: tuple[int, int, int, int]) -> str:
                """The tasks ended: the command line counts ``expected``; `servers`' table."""
                qtbot.waitUntil(lambda: all(not task.running for task in tasks), timeout=15000)
                ends.append(time.monotonic())
                table, counts = _cli_counts(language, server.url)
                assert counts == expected, table
                return table

            def shown(counts: tuple[int, int, int, int]) -> None:
                qtbot.waitUntil(lambda: agrees(counts), timeout=5000)
                waits.append(time.monotonic() - ends[-1])

            def start(tool: str):
                assert window.workbench.tools.select_tool(tool)
                return window.workbench.run_current_tool()

            def cancelled_stall():
                calls = len(server.posts("tools/call"))
                task = start("stall")
                assert server.wait_until(lambda: len(server.posts("tools/call")) > calls, 10)
                task.cancel()
                return task

            shown((1, 0, 0, 0))  # the catalogue's tools/list: ok, 0 failed, 0 tool errors, 0 cancelled
            for begin, counts in ((lambda: start("echo"), (2, 0, 0, 0)),
                                  (cancelled_stall, (2, 0, 0, 1)),  # a cancel: never a failure
                                  (lambda: start("stall"), (2, 1, 0, 1)),  # timed out: a failure
                                  (lambda: start("broken"), (2, 1, 1, 1))):  # a tool error: failed, named apart
                ended([begin()], counts)
                shown(counts)
            # The last endings commit while a read that did not see them is under way (held after it
            # read the records): a burst of all four kinds.
            gate.clear()
            reading.clear()
            first = start("echo")
            ended([first], (3, 1, 1, 1))
            qtbot.waitUntil(reading.is_set, timeout=5000)  # the read for the echo's end has its records: (3, 1, 1, 1)
            burst = [start("broken"), start("stall"), cancelled_stall(), start("echo")]
            table = ended(burst, (4, 2, 2, 2))
            qtbot.wait(300)  # the burst's endings asked for their read (one more, after the held one)
            gate.set()
            shown((4, 2, 2, 2))
            qtbot.wait(300)  # and nothing older comes after
            assert agrees((4, 2, 2, 2))
            counts = _plain(panel.health.text()).splitlines()[-1]
            assert ("(tool errors)" if language == "en" else "(Tool-Fehler)") in table.splitlines()[0]
            assert ("4 failed (2 tool errors)" if language == "en" else "4 fehlgeschlagen (2 Tool-Fehler)") in counts
            save(window, f"healthfresh-{language}")
            print(f"panel agreed with `servers` {', '.join(f'{w * 1000:.0f}' for w in waits)} ms after the ends")
    finally:
        gate.set()
        switch_language("en")


def _stored(window, url: str) -> tuple[int, int, int, int]:
    record = ServerRegistry(window.store.db).get(url)
    return record.ok_count, record.failed_count, record.tool_error_count, record.cancelled_count
