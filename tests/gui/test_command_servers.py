"""Command servers in the window: one process per server kept between operations, stopped when the
window closes or the server goes or changes; its stderr in the Server log and its Console; Cancel
records cancelled and keeps the process; a crashing server fails the call, never the window.

Real processes: the official SDK server over stdio (tests/support/stdio_server.py) and the
misbehaving one (tests/support/stdio_faults.py), started from the repository's root.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from inspector.mcp import ServerEndpoint
from inspector.mcp.server_command import ServerCommand
from tests.support.processes import alive, gone_soon, group_alive

ROOT = Path(__file__).resolve().parents[2]
SDK = ServerCommand(sys.executable, ("-m", "tests.support.stdio_server"), cwd=str(ROOT))


def faults(mode: str) -> ServerCommand:
    return ServerCommand(sys.executable, ("-m", "tests.support.stdio_faults", mode), cwd=str(ROOT))








def add_command(window, command: ServerCommand, name: str | None = "stdio test", era: str = "auto") -> str:
    key = ServerEndpoint.for_command(command).key
    window.admin.save_server(key, name, 30, {}, set(), command=command, era=era)
    return key


def wait_tools(qtbot, window) -> None:
    tools = window.workbench.tools
    qtbot.waitUntil(lambda: tools.model.rowCount() > 0 or (tools.task is not None and not tools.task.running),
                    timeout=30000)


def methods(task) -> list[str]:
    return [leg.method for leg in task.state.legs]


def test_the_process_is_kept_between_operations_and_gone_after_the_window_closes(make_window, qtbot) -> None:
    window = make_window()
    key = add_command(window, SDK)
    wait_tools(qtbot, window)
    first = window.workbench.tools.task
    assert first.outcome.status == "ok"
    # The first operation started the process: "start", then the era's probe (the SDK's server
    # answers it: the stateless era, no handshake), then its work.
    assert methods(first) == ["start", "server/discover", "tools/list"]
    pid = window.engine.processes.pid(key)
    assert pid is not None and alive(pid)
    endpoint = window.admin.endpoint_for(window.admin.current())
    second = window.engine.call_tool(endpoint, "echo", {"text": "hi"}, 10)
    with qtbot.waitSignal(second.finished, timeout=15000):
        pass
    assert second.outcome.status == "ok"
    assert methods(second) == ["tools/call"]  # the running process, its era remembered
    assert window.engine.processes.pid(key) == pid
    window.close()
    assert gone_soon(pid)


def test_cancel_on_a_command_server_is_cancelled_and_the_process_stays(make_window, qtbot) -> None:
    window = make_window()
    key = add_command(window, SDK)
    wait_tools(qtbot, window)
    pid = window.engine.processes.pid(key)
    endpoint = window.admin.endpoint_for(window.admin.current())
    task = window.engine.call_tool(endpoint, "hang", {}, 20)
    qtbot.waitUntil(lambda: any(leg.method == "tools/call" for leg in task.state.legs), timeout=10000)
    window.cancel_action.trigger()  # Esc
    with qtbot.waitSignal(task.finished, timeout=5000):
        pass
    assert task.outcome.status == "cancelled"
    assert task.state.legs[-1].outcome == "cancelled"
    assert window.engine.processes.pid(key) == pid and alive(pid)
    after = window.engine.call_tool(endpoint, "echo", {"text": "again"}, 10)
    with qtbot.waitSignal(after.finished, timeout=15000):
        pass
    assert after.outcome.status == "ok" and methods(after) == ["tools/call"]
    assert window.engine.processes.pid(key) == pid
    # The health counts the cancel as cancelled, never as failed.
    qtbot.waitUntil(lambda: window.admin.registry.get(key).cancelled_count == 1, timeout=5000)
    assert window.admin.registry.get(key).failed_count == 0


def test_a_crashing_server_fails_the_call_with_a_sentence_and_counts_as_failed(make_window, qtbot) -> None:
    window = make_window()
    key = add_command(window, faults("exit"), name="crashes")
    wait_tools(qtbot, window)
    task = window.workbench.tools.task
    assert task.outcome.status == "failed"
    record = task.outcome.record
    assert record is not None and record.error is not None
    from inspector.i18n.messages import translate

    said = translate(record.error)
    assert "exited with status 3" in said and "boom" in said
    assert window.isVisible()
    qtbot.waitUntil(lambda: window.admin.registry.get(key).failed_count == 1, timeout=5000)


def test_stderr_reaches_the_server_log_and_the_console_and_no_stream_is_opened(make_window, qtbot) -> None:
    window = make_window()
    key = add_command(window, SDK)
    wait_tools(qtbot, window)
    model = window.log_dock.view.model
    qtbot.waitUntil(lambda: any(entry.stderr and "stdio test server starting" in entry.data
                                for entry in model.entries), timeout=5000)
    row = next(row for row, entry in enumerate(model.rows) if entry.stderr)
    assert model.data(model.index(row, 1)) == "▤ stderr"
    assert model.data(model.index(row, 2)) == "stdio test"
    # A command server has no HTTP stream: the window does not try to listen to one, and says why.
    assert window.listener.listening_to is None
    assert "command server" in window.log_dock.view.state.text()
    assert window.log_dock.view.state.toolTip()
    console = window.admin.consoles.open(key, "stdio test", window)
    assert "stdio test server starting" in console.text.toPlainText()
    endpoint = window.admin.endpoint_for(window.admin.current())
    task = window.engine.call_tool(endpoint, "echo", {"text": "hello"}, 10)
    qtbot.waitUntil(lambda: "echo called with 5 characters" in console.text.toPlainText(), timeout=10000)
    assert task.outcome is None or task.outcome.status == "ok"


def test_the_console_keeps_the_newest_lines_only(qtbot) -> None:
    from inspector.gui.workbench.console import CONSOLE_LINES, ConsoleBook, ProcessOutput
    from inspector.gui.workbench.log_feed import LogFeed

    output = ProcessOutput(LogFeed(), {})
    book = ConsoleBook(output)
    window = book.open("stdio:x", "x", None)
    qtbot.addWidget(window)
    book.add("stdio:x", [f"line {n}" for n in range(CONSOLE_LINES + 500)])
    assert len(book.lines("stdio:x")) == CONSOLE_LINES
    assert book.lines("stdio:x")[0] == "line 500"
    assert window.text.document().blockCount() <= CONSOLE_LINES
    bar = window.text.verticalScrollBar()
    assert bar.value() == bar.maximum()  # it follows the newest line
    book.add("stdio:x", ["<b>not bold</b>\x1b[31m"])
    assert window.text.toPlainText().endswith("<b>not bold</b>␛[31m")


def test_a_secret_a_server_prints_on_stderr_is_never_shown(make_window, qtbot) -> None:
    script = ("import os, runpy, sys; print('key is ' + os.environ['API_KEY'], file=sys.stderr, flush=True); "
              "runpy.run_module('tests.support.stdio_server', run_name='__main__')")
    command = ServerCommand(sys.executable, ("-c", script), {"API_KEY": "sk-very-secret-value-123"}, str(ROOT))
    window = make_window()
    key = add_command(window, command, name="leaky")
    wait_tools(qtbot, window)
    model = window.log_dock.view.model
    qtbot.waitUntil(lambda: any(entry.stderr and "key is" in entry.data for entry in model.entries), timeout=5000)
    lines = [entry.data for entry in model.entries if entry.stderr]
    assert not any("sk-very-secret-value-123" in line for line in lines)
    assert not any("sk-very-secret-value-123" in line for line in window.admin.consoles.lines(key))


def test_removing_or_changing_a_command_server_stops_its_process(make_window, qtbot, monkeypatch) -> None:
    window = make_window()
    key = add_command(window, SDK)
    wait_tools(qtbot, window)
    pid = window.engine.processes.pid(key)
    assert pid is not None
    # Edited to another command: the old key is replaced and its process stopped.
    changed = ServerCommand(sys.executable, ("-m", "tests.support.stdio_server", "--again"), cwd=str(ROOT))
    new_key = ServerEndpoint.for_command(changed).key
    window.admin.save_server(new_key, "stdio test", 30, {}, set(), replaces=key, command=changed)
    qtbot.waitUntil(lambda: not alive(pid), timeout=10000)
    assert [record.url for record in window.admin.registry.all()] == [new_key]
    wait_tools(qtbot, window)
    qtbot.waitUntil(lambda: window.engine.processes.pid(new_key) is not None, timeout=15000)
    second = window.engine.processes.pid(new_key)
    window.admin.forget_server(new_key)
    qtbot.waitUntil(lambda: not alive(second), timeout=10000)


@pytest.mark.parametrize("transport", ["stdio", "sse"])
def test_the_servers_list_names_the_transport(make_window, transport) -> None:
    window = make_window()
    if transport == "stdio":
        add_command(window, SDK, name=None)
        text = window.servers.model.index(0, 0).data()
        assert text.startswith(f"{sys.executable} -m tests.support.stdio_server · ⌘ command")
    else:
        window.admin.save_server("http://127.0.0.1:9/sse", "old one", None, {}, set(), transport="sse")
        assert window.servers.model.index(0, 0).data().startswith("old one · HTTP+SSE")
        assert window.admin.endpoint_for(window.admin.current()).transport == "sse"


def test_closing_the_window_leaves_no_process_of_a_stubborn_servers_tree(make_window, qtbot) -> None:
    # It ignores the end of its stdin and SIGTERM, and started a grandchild in its group.
    window = make_window()
    key = add_command(window, faults("stubborn"), name="stubborn")
    wait_tools(qtbot, window)
    pid = window.engine.processes.pid(key)
    assert pid is not None and group_alive(pid)
    model = window.log_dock.view.model
    qtbot.waitUntil(lambda: any(entry.stderr and entry.data.startswith("grandchild ") for entry in model.entries),
                    timeout=5000)
    grandchild = int(next(entry.data for entry in model.entries if entry.stderr
                          and entry.data.startswith("grandchild ")).split()[1])
    assert alive(grandchild)
    window.close()
    assert gone_soon(pid, grandchild)


def test_a_server_flooding_its_stderr_stays_bounded_in_the_log_and_the_console(make_window, qtbot) -> None:
    from inspector.gui.workbench.console import CONSOLE_LINES
    from inspector.gui.workbench.server_log import MAX_ENTRIES

    window = make_window()
    key = add_command(window, faults("flood"), name="flood")
    wait_tools(qtbot, window)
    model = window.log_dock.view.model
    qtbot.waitUntil(lambda: any(entry.stderr and entry.data == "log line 199999" for entry in model.entries),
                    timeout=30000)
    assert len(model.entries) <= MAX_ENTRIES and model.dropped > 0
    consoles = window.admin.consoles
    qtbot.waitUntil(lambda: consoles.lines(key)[-1:] == ["log line 199999"], timeout=10000)
    assert len(consoles.lines(key)) == CONSOLE_LINES


def test_a_log_message_between_operations_reaches_the_server_log(make_window, qtbot) -> None:
    # The handshake era, pinned: a log message between operations rides the connection, which the
    # stateless era does not have (there a log line belongs to the request that asked for it).
    window = make_window()
    add_command(window, SDK, era="handshake")
    wait_tools(qtbot, window)
    endpoint = window.admin.endpoint_for(window.admin.current())
    task = window.engine.call_tool(endpoint, "log_later", {"text": "said after the answer"}, 10)
    with qtbot.waitSignal(task.finished, timeout=15000):
        pass
    model = window.log_dock.view.model
    qtbot.waitUntil(lambda: any("said after the answer" in (entry.data or "") for entry in model.entries),
                    timeout=10000)
    row = next(row for row, entry in enumerate(model.rows) if "said after the answer" in (entry.data or ""))
    entry = model.rows[row]
    assert not entry.stderr and entry.level == "warning"
    assert model.data(model.index(row, 2)) == "stdio test"
    assert model.data(model.index(row, 3)) == "process"


def test_closing_the_window_hides_it_at_once_while_a_slow_server_is_still_stopping(make_window, qtbot) -> None:
    # "stuck" outlives the end of its stdin: stopping it takes the 2 s before SIGTERM. The window
    # is gone from the screen meanwhile, not frozen on it. The watcher looks from the window's hiding
    # on (a look taken before close() began, on a loaded machine, saw it still shown: a race of the
    # test's own); were the window hidden only once the server is stopped, it would see no more than
    # a few looks while the server lives.
    import threading
    import time

    from PySide6.QtCore import QEvent, QObject

    window = make_window()
    key = add_command(window, faults("stuck"), name="stuck")
    qtbot.waitUntil(lambda: window.engine.processes.pid(key) is not None, timeout=10000)
    pid = window.engine.processes.pid(key)
    hidden, done, seen = threading.Event(), threading.Event(), []

    class Hiding(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
            if event.type() == QEvent.Type.Hide:
                hidden.set()
            return False

    hiding = Hiding()
    window.installEventFilter(hiding)

    def watch() -> None:
        while not done.is_set():
            if hidden.is_set() and alive(pid):
                seen.append(window.isVisible())
            time.sleep(0.05)

    watcher = threading.Thread(target=watch)
    watcher.start()
    window.close()
    done.set()
    watcher.join()
    assert gone_soon(pid)
    assert len(seen) > 10 and not any(seen)


def test_a_fault_of_the_servers_stdout_is_our_line_not_the_servers_stderr(make_window, qtbot, german) -> None:
    # "banner" writes "Server v1.0 ready!" on stdout: our sentence about it is no line of its stderr,
    # and it is said in the reader's language.
    window = make_window()
    key = add_command(window, faults("banner"), name="banner", era="handshake")
    wait_tools(qtbot, window)
    model = window.log_dock.view.model

    def fault_row() -> int | None:
        return next((row for row in range(model.rowCount())
                     if "Server v1.0 ready!" in model.data(model.index(row, 5))), None)

    qtbot.waitUntil(lambda: fault_row() is not None, timeout=10000)
    row = fault_row()
    assert model.data(model.index(row, 1)) == "⚠ stdout"
    assert model.data(model.index(row, 5)) == ("der Server hat auf stdout eine Zeile geschrieben, die kein JSON ist: "
                                               "Server v1.0 ready!")
    consoles = window.admin.consoles
    qtbot.waitUntil(lambda: any("Server v1.0 ready!" in line for line in consoles.lines(key)), timeout=10000)
    assert [line for line in consoles.lines(key) if "Server v1.0 ready!" in line] == [
        "run-inspector: der Server hat auf stdout eine Zeile geschrieben, die kein JSON ist: Server v1.0 ready!"]


def test_an_answer_over_the_line_limit_fails_at_once_and_is_named_in_the_server_log(make_window, qtbot) -> None:
    # The server answers tools/list with 20 MB on one line: the list fails now, not at its 30 s
    # deadline, with the size named in the step and in the Server log.
    from inspector.i18n.messages import translate

    window = make_window()
    limits = ServerCommand(sys.executable, ("-m", "tests.support.stdio_limits", "big-last"), cwd=str(ROOT))
    add_command(window, limits, name="big", era="handshake")
    wait_tools(qtbot, window)
    task = window.workbench.tools.task
    assert task.outcome.status == "failed"
    record = task.outcome.record
    assert record is not None and record.error is not None
    assert translate(record.error).endswith("answered tools/list with a message of 20 MB on stdout, over the 16 MB "
                                            "limit; it was dropped unread.")
    last = task.state.legs[-1]
    assert (last.method, last.outcome, last.error_kind) == ("tools/list", "failed", "too_large") and last.elapsed_s < 10
    model = window.log_dock.view.model
    qtbot.waitUntil(lambda: any(entry.stdout_fault for entry in model.entries), timeout=5000)
    row = next(row for row, entry in enumerate(model.rows) if entry.stdout_fault)
    assert model.data(model.index(row, 1)) == "⚠ stdout"
    assert model.data(model.index(row, 5)) == ("the server sent a message of 20 MB on stdout, over the 16 MB limit; "
                                               "it was dropped")


def test_a_probe_the_command_server_never_answers_reads_as_its_finding_live_and_stored(make_window, qtbot) -> None:
    # Silent on server/discover: after half the budget the client takes the handshake era. The leg
    # stays failed (as stored), and the bar says what the silence found, never a bare "failed".
    from inspector.gui.language import switch_language
    from inspector.gui.widgets.budget_state import BarState
    from inspector.store import RunStore, resolve_db_path
    from tests.gui.test_budget_endings import finished

    window = make_window()
    silent = ServerCommand(sys.executable, ("-m", "tests.support.stdio_limits", "silent-probe"), cwd=str(ROOT))
    key = ServerEndpoint.for_command(silent).key
    window.admin.save_server(key, "silent", 4, {}, set(), command=silent, era="auto")
    wait_tools(qtbot, window)
    operations = window.workbench.operations
    [catalogue] = [task for task in operations.model.tasks if task.state.legs]
    finished(qtbot, catalogue)
    assert catalogue.outcome.status == "ok"
    assert [(leg.method, leg.outcome) for leg in catalogue.state.legs][1:3] == [("server/discover", "failed"),
                                                                              ("initialize", "ok")]
    operations.select(catalogue)
    for language, word in (("en", "no answer: taken for the handshake era"),
                           ("de", "keine Antwort: als Handshake-Ära angenommen")):
        switch_language(language)
        [segment] = [segment for segment in operations.detail.current_geometry().segments
                     if segment.method == "server/discover"]
        assert segment.tooltip.splitlines()[0] == f"server/discover: {word}", segment.tooltip
        assert word in operations.detail.current_geometry().description
    switch_language("en")
    assert segment.label.startswith("server/discover: ") and "failed" not in segment.label
    with RunStore.open(resolve_db_path()) as store:
        [run] = store.list_runs()
        legs = store.steps_page(run.id)[0].step.legs
    assert [(leg.method, leg.outcome) for leg in legs][1:3] == [("server/discover", "failed"), ("initialize", "ok")]
    stored = BarState.replay(legs, 4, "ok")
    assert [leg.unanswered_probe for leg in stored.legs][1:3] == [True, False]
