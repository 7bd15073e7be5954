"""The "Demo server" entry across launches: the same settings file and database, one window after the
other. While the entry exists and autostart is on, it answers after every launch; otherwise it says
it is not running and offers Start; an entry the user removed stays removed. The demo server runs
in a process of its own, started without holding up the window: the tests wait until it listens."""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

import pytest

from inspector.gui.app import open_window
from inspector.gui.settings import AppSettings
from inspector.gui.widgets.hints import PROBLEM_STYLE
from inspector.gui.workbench.demo_service import DEMO_NAME
from inspector.store import RunStore
from inspector.store.secrets import NoSecretKeeper


@pytest.fixture
def launch(qtbot, tmp_path):
    """Start "Run Inspector" on one database (and the test's settings file); quit the last one first."""
    opened = []

    def start(settle: bool = True, opening_file: bool = False):
        quit_all()
        store = RunStore.open(tmp_path / "runs.db")
        window = open_window(store, tmp_path / "runs.db", AppSettings(), secrets=NoSecretKeeper(),
                             opening_file=opening_file)
        opened.append((window, store))
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        if settle:
            settled(qtbot, window)
        return window

    def quit_all():
        while opened:
            window, store = opened.pop()
            window.close()  # as the user quits: the window shuts down, the demo server stops
            store.close()

    yield start
    quit_all()


def settled(qtbot, window) -> None:
    """Wait until the demo server's process listens, or gave up (a generous bound: a loaded machine)."""
    if window.demo is not None:
        qtbot.waitUntil(lambda: not window.demo.starting, timeout=40000)


def demo_entry(window):
    last_url = window.settings.qsettings.value("demo/last_url")
    [record] = [r for r in window.admin.registry.all() if r.name == DEMO_NAME or r.url == last_url]
    return record


def answers(qtbot, window, record) -> bool:
    """Ping the entry's URL as the window would (its endpoint, its budget)."""
    task = window.engine.ping(window.admin.endpoint_for(record), 5, store=False)
    if task.running:
        with qtbot.waitSignal(task.finished, timeout=10000):
            pass
    return task.outcome.status == "ok"


def test_the_demo_entry_answers_after_a_restart_with_another_server_added(qtbot, launch) -> None:
    first = launch()
    demo = demo_entry(first)
    assert answers(qtbot, first, demo)
    first.admin.save_server("http://127.0.0.1:9/mcp", "mine", None, {}, set())
    second = launch()
    assert second.demo is not None and second.demo.running
    again = demo_entry(second)
    # Its port was free again: the same URL, so its health stays with it.
    assert again.url == demo.url and again.name == DEMO_NAME
    assert answers(qtbot, second, again)
    second.admin.reload_servers(select_url=again.url)
    qtbot.waitUntil(lambda: second.workbench.tools.model.rowCount() > 0, timeout=10000)
    assert not second.demo_controls.isVisible()
    assert "not running" not in second.servers.model.index(0, 0).data()


def test_a_taken_port_moves_the_entry_to_the_new_url_keeping_its_settings(qtbot, launch) -> None:
    first = launch()
    demo = demo_entry(first)
    first.admin.save_server(demo.url, "My demo", 7, {"X-Team": "blue"}, set(), replaces=demo.url)
    first.close()
    port = urlsplit(demo.url).port
    with socket.socket() as taken:  # someone else listens on the old port now
        taken.bind(("127.0.0.1", port))
        taken.listen(1)
        second = launch()
        [record] = second.admin.registry.all()
        assert record.url != demo.url and second.demo.url == record.url
        assert (record.name, record.budget_s) == ("My demo", 7)
        assert second.admin.registry.headers_for(record.url) == {"X-Team": "blue"}
        assert answers(qtbot, second, record)


def stopped_demo(launch):
    """A window started again with autostart off, its demo entry (not running) selected; and its URL."""
    first = launch()
    url = demo_entry(first).url
    first.settings.demo_autostart = False
    first.settings.sync()
    second = launch()
    assert second.demo is not None and not second.demo.running
    second.admin.reload_servers(select_url=url)
    return second, url


def test_with_autostart_off_the_entry_says_not_running_and_start_starts_it(qtbot, launch) -> None:
    second, url = stopped_demo(launch)
    index = second.servers.model.index(second.servers.model.row_of(url), 0)
    assert "not running" in index.data()
    assert second.demo_controls.isVisible() and second.demo_controls.start_button.isEnabled()
    assert "not running" in second.demo_controls.note.text()
    assert PROBLEM_STYLE in second.demo_controls.note.styleSheet()
    # Nothing is asked of a server that is not there: no failed catalogue walk counted against it.
    assert second.workbench.tools.task is None and second.admin.registry.get(url).failed_count == 0
    second.demo_controls.start_button.click()
    assert second.demo.starting and not second.demo_controls.start_button.isVisibleTo(second.demo_controls)
    assert "starting" in second.servers.model.index(second.servers.model.row_of(url), 0).data()
    settled(qtbot, second)
    assert second.demo.running
    record = second.servers.current()
    assert record.url == second.demo.url and record.name == DEMO_NAME
    qtbot.waitUntil(lambda: second.workbench.tools.model.rowCount() > 0, timeout=10000)
    assert not second.demo_controls.isVisible()
    assert "not running" not in second.servers.model.index(second.servers.model.row_of(record.url), 0).data()
    assert answers(qtbot, second, record)


def test_a_demo_entry_removed_on_purpose_stays_removed(qtbot, launch) -> None:
    first = launch()
    qtbot.waitUntil(lambda: first.workbench.tools.model.rowCount() > 0, timeout=10000)
    first.admin.forget_server(demo_entry(first).url)
    second = launch()
    assert second.admin.registry.all() == [] and second.demo is None


def test_a_first_launch_with_servers_configured_adds_no_demo_entry(qtbot, launch, tmp_path) -> None:
    from inspector.store import ServerRegistry

    with RunStore.open(tmp_path / "runs.db") as store:
        ServerRegistry(store.db).save_server("http://127.0.0.1:9/mcp", name="mine")
    window = launch()
    assert [r.name for r in window.admin.registry.all()] == ["mine"] and window.demo is None


def test_a_demo_server_that_cannot_start_is_marked_with_the_reason(qtbot, launch, monkeypatch) -> None:
    import sys

    from inspector.gui.workbench import demo_service

    first = launch()
    url = demo_entry(first).url
    real = demo_service.demo_command

    def refuse(port: int, language: str | None) -> list[str]:
        # A child that ends before it listens, whatever the port: its last words are the reason.
        return [sys.executable, "-c", "import sys; sys.exit('no port at all')"]

    monkeypatch.setattr(demo_service, "demo_command", refuse)
    second = launch()
    assert not second.demo.running
    second.admin.reload_servers(select_url=url)
    assert "not running" in second.servers.model.index(second.servers.model.row_of(url), 0).data()
    assert "no port at all" in second.demo_controls.note.text()
    assert "no port at all" in second.status.text()
    assert second.workbench.tools.task is None
    second.demo.command = real
    second.demo_controls.start_button.click()
    qtbot.waitUntil(lambda: second.workbench.tools.model.rowCount() > 0, timeout=40000)
    assert answers(qtbot, second, second.servers.current())


def test_a_demo_program_that_cannot_be_spawned_says_why_in_german(qtbot, tmp_path) -> None:
    from inspector.gui.language import switch_language
    from inspector.gui.workbench.demo_service import DemoService
    from inspector.store.servers import ServerRegistry

    not_a_folder = tmp_path / "a file"
    not_a_folder.write_text("")
    demo = DemoService(command=lambda port, language: [str(not_a_folder / "run-inspector"), "serve-demo"])
    switch_language("de")
    try:
        with RunStore.open(tmp_path / "runs.db") as store:
            assert not demo.start(ServerRegistry(store.db))
        # The operating system's reason in German, not the C library's "Not a directory".
        assert demo.problem == "Der Demo-Server ist nicht gestartet: ein Teil des Pfads ist kein Ordner"
    finally:
        switch_language("en")


def test_the_demo_server_log_reaches_the_server_log(qtbot, launch) -> None:
    window = launch()
    record = demo_entry(window)
    window.admin.reload_servers(select_url=record.url)
    qtbot.waitUntil(lambda: window.workbench.tools.model.rowCount() > 0, timeout=20000)
    assert window.workbench.tools.select_tool("hang")
    task = window.workbench.run_current_tool()

    def stderr_lines() -> list[str]:
        return [entry.data for entry in window.log_dock.view.model.entries if entry.stderr]

    # The demo's process writes its own log on stderr: each line a line of the Server log, its server named.
    qtbot.waitUntil(lambda: any("hang: request" in line and "started" in line for line in stderr_lines()),
                    timeout=20000)
    task.cancel()
    qtbot.waitUntil(lambda: any("saw the cancel" in line for line in stderr_lines()), timeout=20000)
    assert {entry.server for entry in window.log_dock.view.model.entries if entry.stderr} == {DEMO_NAME}


@pytest.mark.parametrize("language", ["en", "de"])
def test_screenshot_of_a_demo_server_starting(qtbot, launch, monkeypatch, language) -> None:
    """While its process gets ready the entry says "starting", the Tools list why it is empty, and no Start."""
    import sys

    from PySide6.QtWidgets import QApplication

    from inspector.gui.language import switch_language
    from inspector.gui.workbench import demo_service
    from tests.gui.test_screenshots import save

    # A child that never listens (and ends when its stdin closes): the entry stays "starting".
    monkeypatch.setattr(demo_service, "demo_command",
                        lambda port, language: [sys.executable, "-c", "import sys; sys.stdin.read()"])
    switch_language(language)
    try:
        window = launch(settle=False)
        record = demo_entry(window)
        qtbot.waitUntil(lambda: window.demo.process is not None)  # spawned after the first paint
        assert window.demo.starting and not window.demo.running
        row = window.servers.model.index(window.servers.model.row_of(record.url), 0)
        assert ("startet" if language == "de" else "starting") in row.data()
        assert window.demo_controls.isVisible() and not window.demo_controls.start_button.isVisible()
        # Said as the news it is, not in the colour of a problem (it was, at every start of the window).
        assert PROBLEM_STYLE not in window.demo_controls.note.styleSheet()
        assert window.workbench.tools.task is None
        QApplication.processEvents()
        assert save(window, f"demo-starting-{language}").exists()
    finally:
        switch_language("en")



# -- opening a file is only opening a file (issue 23) ------------------------------------------------

def test_a_window_opened_on_a_file_leaves_the_demo_entry_not_running_with_its_start(qtbot, launch) -> None:
    first = launch()
    url = demo_entry(first).url
    # the first window's own tools/list run, stored before the second window opens
    qtbot.waitUntil(lambda: first.workbench.tools.task is not None and not first.workbench.tools.task.running,
                    timeout=20000)
    runs_before = [run.uid for run in first.store.list_runs(limit=None)]
    second = launch(opening_file=True)
    assert second.demo is not None and not second.demo.running and not second.demo.starting
    assert second.demo.process is None, "no demo server process"
    # The entry stays, selected, says it is not running and offers Start; no server is asked anything.
    assert [record.url for record in second.admin.registry.all()] == [url]
    assert second.servers.current().url == url and second.workbench.tools.task is None
    assert "not running" in second.servers.model.index(second.servers.model.row_of(url), 0).data()
    assert second.demo_controls.isVisible() and second.demo_controls.start_button.isEnabled()
    qtbot.wait(300)
    assert [run.uid for run in second.store.list_runs(limit=None)] == runs_before, "nothing recorded"
    second.demo_controls.start_button.click()  # the demo is still one click away
    settled(qtbot, second)
    assert second.demo.running


def test_a_window_opened_on_a_file_selects_and_asks_no_other_server(qtbot, launch) -> None:
    first = launch()
    first.admin.save_server("http://127.0.0.1:9/mcp", "mine", None, {}, set())
    first.admin.reload_servers(select_url="http://127.0.0.1:9/mcp")  # remembered as the last one selected
    first.settings.demo_autostart = False
    first.settings.sync()
    # The first window asks "mine" for its tools when it is selected there: that one may fail; then
    # only the second window's asking could count.
    qtbot.waitUntil(lambda: first.workbench.tools.task is None or not first.workbench.tools.task.running,
                    timeout=20000)
    failed_before = first.admin.registry.get("http://127.0.0.1:9/mcp").failed_count
    second = launch(opening_file=True)
    # the demo entry (not running) is the one selected; "mine" is listed, not asked anything
    assert second.servers.current().url == demo_entry(second).url
    assert second.workbench.tools.task is None
    qtbot.wait(300)
    assert second.admin.registry.get("http://127.0.0.1:9/mcp").failed_count == failed_before


def test_a_first_launch_on_a_file_adds_no_demo_entry(qtbot, launch) -> None:
    window = launch(opening_file=True)
    assert window.demo is None
    assert window.admin.registry.all() == []
    assert not window.settings.qsettings.value("demo/last_url")


def test_a_first_launch_after_the_command_line_spoke_to_a_server_adds_the_demo_entry(
        qtbot, launch, tmp_path, demo_server) -> None:
    """The command line records the health of the servers it speaks to (listed in the window), but
    configures none: the window's first launch still adds the demo entry and starts its server
    (before, it added none, as if a server were configured)."""
    from tests.support.cli_process import cli_here

    spoke = cli_here("tools", demo_server.url, "--db", str(tmp_path / "runs.db"))
    assert spoke.returncode == 0, spoke.stderr
    window = launch()
    assert window.demo is not None and window.demo.running, window.demo
    urls = [record.url for record in window.admin.registry.all()]
    assert demo_server.url in urls and demo_entry(window).url in urls and len(urls) == 2
    assert answers(qtbot, window, demo_entry(window))


def test_start_pressed_by_keyboard_leaves_the_focus_on_the_entry(qtbot, launch) -> None:
    """Start hides once pressed: the focus it had went on to whatever came next in the window."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    second, _url = stopped_demo(launch)
    second.activateWindow()
    qtbot.waitUntil(second.isActiveWindow)
    button = second.demo_controls.start_button
    button.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(button.hasFocus)
    qtbot.keyClick(button, Qt.Key.Key_Space)
    assert second.demo.starting and QApplication.focusWidget() is second.servers.view
    assert "starting" in second.servers.view.currentIndex().data()
    settled(qtbot, second)
