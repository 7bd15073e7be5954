"""The servers' health is read back after operations end on a thread of its own (issue 27: nothing on
the GUI thread touches the database for a live update); the panel still shows it at once."""

from __future__ import annotations

import threading

import pytest

from inspector.gui.workbench.health_reader import HealthReader, database_file
from inspector.store import RunStore, ServerRegistry, resolve_db_path


def _hold_reads(monkeypatch) -> tuple[threading.Event, threading.Event]:
    """The reader's reads wait (the real read, held up) until ``release`` is set; ``reading`` says one began."""
    from inspector.gui.workbench import health_reader

    release, reading = threading.Event(), threading.Event()
    real = health_reader.latencies

    def held(store, url):
        reading.set()
        release.wait(5)
        return real(store, url)

    monkeypatch.setattr(health_reader, "latencies", held)
    return release, reading


def test_operations_ending_update_the_health_without_the_gui_thread_reading_the_database(
        qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    assert window.workbench.tools.select_tool("echo")
    window.workbench.arguments.form.root.fields["text"].edit.setText("hello")
    window.workbench.arguments.form.root.fields["text"].changed.emit()
    # What waits for the first paint (the Runs tab's first reading of the list) is done.
    qtbot.waitUntil(lambda: window.pacer.active and window.runs_tab is not None, timeout=10000)
    statements: list[str] = []
    window.store.db.conn.set_trace_callback(statements.append)  # the GUI thread's connection
    try:
        reads = window.admin.health.reader.reads
        tasks = [window.workbench.run_current_tool() for _ in range(5)]
        qtbot.waitUntil(lambda: all(not task.running for task in tasks), timeout=20000)
        assert all(task.outcome.status == "ok" for task in tasks)
        qtbot.waitUntil(lambda: window.servers.current().ok_count >= 5, timeout=10000)
        assert "Last contact" in window.servers.health.text()
        # Read back once for a burst of endings (on a loaded machine the five may come apart).
        assert 1 <= window.admin.health.reader.reads - reads <= len(tasks)
    finally:
        window.store.db.conn.set_trace_callback(None)
    assert statements == []


def test_the_reader_says_what_went_wrong_and_asks_again_for_the_newest_question(
        qtbot, tmp_path, monkeypatch) -> None:
    with RunStore.open(resolve_db_path()) as store:
        ServerRegistry(store.db).save_server("http://127.0.0.1:9/mcp", name="Nowhere")
        path = database_file(store)
    # The first read waits until the test has asked twice more (the real read, held up).
    release, reading = _hold_reads(monkeypatch)
    reader = HealthReader(path)
    said: list[tuple] = []
    reader.read.connect(lambda records, url, shown, problem, *_: said.append((records, url, shown, problem)))
    reader.request("http://127.0.0.1:9/mcp")
    assert reading.wait(5)
    reader.request("http://127.0.0.1:9/first")
    reader.request("http://127.0.0.1:9/newest")  # asked while a read is under way: one more read, for this one
    release.set()
    qtbot.waitUntil(lambda: len(said) == 2, timeout=5000)
    qtbot.wait(100)
    assert [url for _records, url, _shown, _problem in said] == ["http://127.0.0.1:9/mcp", "http://127.0.0.1:9/newest"]
    assert [record.name for record in said[0][0]] == ["Nowhere"] and said[0][3] == "" and reader.reads == 2
    reader.stop()
    broken = tmp_path / "not-a-database.db"
    broken.write_bytes(b"this is not SQLite" * 100)
    reader = HealthReader(broken)
    reader.read.connect(lambda records, url, shown, problem, *_: said.append((records, url, shown, problem)))
    reader.request(None)
    qtbot.waitUntil(lambda: said[-1][0] is None, timeout=5000)
    assert said[-1][3]  # the problem, in words
    reader.stop()


@pytest.mark.parametrize("then", ["nothing", "poll", "ending"])
def test_a_health_read_asked_before_a_server_was_removed_does_not_bring_it_back(
        qtbot, make_window, demo_server, monkeypatch, then: str) -> None:
    """Nor, not even for a moment, when the panel's poll ticks before its answer comes (the poll is not
    asked while a read is under way) or an operation ends meanwhile (its read comes after): the answer
    to the question asked before the listing was taken as newer then (the panel kept one "asked at" for
    all questions, which the later one set), and the server came back until the next read."""
    gone = "http://127.0.0.1:9/gone"
    window = make_window((demo_server.url, "Demo server"), (gone, "Soon gone"), wait_tools=False)
    admin = window.admin
    assert [record.url for record in admin.registry.all()] == sorted([demo_server.url, gone])
    admin.health._poll.stop()  # the test's poll ticks are its own
    qtbot.waitUntil(lambda: not admin.health.reader._busy and not admin.health._refresh.isActive(), timeout=5000)
    model = window.servers.model
    listings: list[list[str]] = []  # every list the panel showed
    model.modelReset.connect(lambda: listings.append([model.record(row).url for row in range(model.rowCount())]))
    release, reading = _hold_reads(monkeypatch)
    reads = admin.health.reader.reads
    admin.health.refresh()  # as after operations ended
    assert reading.wait(5)  # its records are read: both servers
    admin.registry.remove_server(gone)
    admin.reload_servers()  # the user removed one meanwhile: listed at once
    assert listings[-1] == [demo_server.url]
    listings.clear()
    if then != "nothing":
        admin.health.refresh(poll=then == "poll")
    release.set()
    qtbot.waitUntil(lambda: admin.health.reader.reads > reads and not admin.health.reader._busy, timeout=5000)
    qtbot.wait(100)  # the read's answer crossed to this thread and was dropped as older
    assert [window.servers.model.record(row).url for row in range(window.servers.model.rowCount())] == [
        demo_server.url]
    assert all(gone not in listed for listed in listings), listings  # not even for a moment


def test_the_health_says_no_answer_yet_beside_counts_of_failures_not_that_none_completed(qtbot) -> None:
    from dataclasses import replace

    from inspector.gui.workbench.servers_panel import health_text
    from inspector.store.servers import ServerRecord

    new = ServerRecord("http://127.0.0.1:9/mcp", "Nine", None, (), None, None, 0, 0, 0)
    assert health_text(new).splitlines()[0] == "No completed operation yet."
    refused = replace(new, failed_count=1)
    assert health_text(refused).splitlines() == ["No operation got an answer from this server yet.",
                                                 "0\u00a0ok · 1\u00a0failed · 0\u00a0cancelled"]
    cancelled = replace(new, cancelled_count=2)  # a cancel is no contact either
    assert health_text(cancelled).splitlines()[0] == "No operation got an answer from this server yet."


def test_a_servers_sparkline_leaves_out_runs_imported_from_a_trace(tmp_path) -> None:
    """A customer's trace of runs against http://127.0.0.1:8000/mcp (their machine) says nothing of
    the server at that address here: the sparkline shows the runs made here only."""
    import json
    from datetime import UTC, datetime, timedelta

    from inspector.gui.workbench.health_reader import latencies
    from inspector.runs import RunTrace, ToolResult
    from inspector.transfer.importing import import_trace

    url = "http://127.0.0.1:8000/mcp"
    theirs = {"uid": "customer-run", "title": "tools/call slow", "source": "live", "server": url, "status": "ok",
              "started_at": "2026-12-01T10:00:00.000000Z", "finished_at": "2026-12-01T10:00:09.000000Z", "steps": []}
    trace = tmp_path / "from-the-customer.json"
    trace.write_text(json.dumps({"format": "run-inspector-trace", "version": 1, "runs": [theirs]}))
    with RunStore.open(tmp_path / "runs.db") as store:
        start = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
        ours = store.start_run("tools/call echo", "live", url, started_at=start)
        store.append_step(ours, RunTrace().record_tool_result(0, "echo", {}, ToolResult.text("x"), 120.0), start)
        store.finish_run(ours, "ok", finished_at=start + timedelta(milliseconds=125))
        ServerRegistry(store.db).record_operation(url, "ok", 120.0)  # as the window counts its operation
        assert import_trace(store, trace).runs_imported == 1
        assert [run.source for run in store.list_runs(server=url)] == ["live", "imported"]
        assert latencies(store, url) == [120.0]


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_run_played_against_a_configured_server_is_counted_in_the_servers_list_and_health(
        qtbot, make_window, demo_server, language) -> None:
    """A Workbench call, then the happy path played on the Play tab, against the (real) demo server:
    each operation is counted in the server's health as it is stored; once the call is stored, and once
    the run has ended, the Servers list and the health under it both say the stored count (after the
    run both still said the count from before it)."""
    from inspector.gui.language import switch_language
    from inspector.gui.workbench.servers_model import shown_health_line

    window = make_window((demo_server.url, "Demo server"))
    panel = window.servers

    def listed() -> str:
        return panel.model.index(panel.model.row_of(demo_server.url), 0).data().splitlines()[-1]

    def both_say(counts: str) -> bool:
        return listed() == counts and panel.health.text().splitlines()[-1] == counts

    switch_language(language)
    try:
        # A Workbench call first (the catalogue's tools/list was one): both say it once it is stored.
        assert window.workbench.tools.select_tool("echo")
        window.workbench.arguments.set_arguments({"text": "counted"})
        task = window.workbench.run_current_tool()
        qtbot.waitUntil(lambda: not task.running, timeout=10000)
        assert ServerRegistry(window.store.db).get(demo_server.url).ok_count == 2
        qtbot.waitUntil(lambda: both_say(shown_health_line(ServerRegistry(window.store.db).get(demo_server.url))),
                        timeout=5000)
        room = window.play.room
        window.tabs.setCurrentWidget(room)
        assert room.choices.choose("happy-path") and room.choices.choose_server(demo_server.url)
        run = room.play()
        qtbot.waitUntil(lambda: not run.running, timeout=20000)
        assert run.status == "ok", run.error
        stored = ServerRegistry(window.store.db).get(demo_server.url)
        assert stored.ok_count > 2
        counts = shown_health_line(stored)
        assert counts.startswith(f"{stored.ok_count}\u00a0ok · 0\u00a0")
        qtbot.waitUntil(lambda: both_say(counts), timeout=5000)
        window.tabs.setCurrentWidget(window.workbench)
        from tests.gui.test_screenshots import save

        save(window, f"servers-after-play-{language}")
    finally:
        switch_language("en")


def test_a_server_removed_and_added_again_shows_a_fresh_sparkline(qtbot, make_window, demo_server) -> None:
    """Removed and added again at the same address, a server is a new entry: its counts start at none and
    so does its sparkline (it drew the latencies of the calls made before, beside "0 ok"); its new calls
    are its points. Its runs stay stored."""
    window = make_window((demo_server.url, "Demo server"))
    admin, line = window.admin, window.servers.sparkline

    def echo(times: int) -> None:
        assert window.workbench.tools.select_tool("echo")
        window.workbench.arguments.form.root.fields["text"].edit.setText("hello")
        window.workbench.arguments.form.root.fields["text"].changed.emit()
        for _ in range(times):
            task = window.workbench.run_current_tool()
            if task.running:
                with qtbot.waitSignal(task.finished, timeout=10000):
                    pass
            assert task.outcome.status == "ok"

    echo(3)
    qtbot.waitUntil(lambda: len(line.values) == 4 and line.isVisible(), timeout=10000)  # the catalogue, 3 calls
    admin.forget_server(demo_server.url)  # Remove, confirmed
    admin.save_server(demo_server.url, "Demo server", None, {}, set())
    qtbot.waitUntil(lambda: admin.current() is not None and admin.current().url == demo_server.url)
    assert admin.current().ok_count == 0
    assert line.values == [] and line.isHidden()
    qtbot.waitUntil(lambda: window.workbench.tools.model.rowCount() > 0, timeout=20000)
    echo(3)
    qtbot.waitUntil(lambda: admin.current().ok_count == 4, timeout=10000)  # the catalogue listed again, 3 calls
    qtbot.waitUntil(lambda: len(line.values) == 4 and line.isVisible(), timeout=10000)
    with RunStore.open(resolve_db_path()) as store:
        assert len(store.list_runs(server=demo_server.url, outcome="ok", limit=None)) >= 7
