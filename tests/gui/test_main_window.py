"""The window against the demo server: run, cancel, results, stored runs, health, bad input."""

from __future__ import annotations

import threading
import time

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from inspector.gui.workbench.operation_task import OperationTask
from inspector.store import RunStore, ServerRegistry, resolve_db_path


def finished(qtbot, task: OperationTask, timeout: int = 10000):
    if task.running:
        with qtbot.waitSignal(task.finished, timeout=timeout):
            pass
    return task.outcome


def choose(window, tool: str) -> None:
    tools = window.workbench.tools
    assert tools.select_tool(tool), f"no tool {tool} in {tools.model.rowCount()} tools"


def test_echo_from_the_window_shows_the_result_and_stores_the_run(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    choose(window, "echo")
    assert "Return the text unchanged" in window.workbench.tool_title.text()
    window.workbench.arguments.form.root.fields["text"].edit.setText("<img src=x> hello")
    window.workbench.arguments.form.root.fields["text"].changed.emit()
    qtbot.keyClick(window.workbench.arguments.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    task = window.workbench.operations.current
    assert task is not None and task.tool == "echo"
    outcome = finished(qtbot, task)
    assert outcome.status == "ok"
    assert window.workbench.result.text.toPlainText() == "<img src=x> hello"
    assert window.workbench.result.sentence.textFormat() == Qt.TextFormat.PlainText
    assert f"Stored as run {outcome.run_id}." in window.workbench.result.sentence.text()
    assert f"last run {outcome.run_id}: tools/call echo (ok)" in window.status.text()
    with RunStore.open(resolve_db_path()) as store:
        run = store.get_run(outcome.run_id)
        assert (run.title, run.status, run.server) == ("tools/call echo", "ok", demo_server.url)
        [step] = list(store.iter_steps(run.id))
        # The catalogue's operation probed the era (server/discover); the call speaks it at once.
        assert [leg.method for leg in step.step.legs] == ["tools/call"]
        assert step.step.tool_arguments == {"text": "<img src=x> hello", "repeat": 1, "uppercase": False}
    # The last arguments are remembered for the tool.
    assert window.settings.last_arguments(demo_server.url, "echo")["text"] == "<img src=x> hello"


def test_hang_and_escape_is_cancelled_everywhere_and_the_server_saw_it(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    choose(window, "hang")
    task = window.workbench.run_current_tool()
    assert demo_server.state.hang_started.wait(10)
    # Esc works wherever the focus is, e.g. in the JSON editor.
    window.workbench.arguments.tabs.setCurrentIndex(1)
    window.workbench.arguments.editor.setFocus()
    qtbot.keyClick(window.workbench.arguments.editor, Qt.Key.Key_Escape)
    outcome = finished(qtbot, task)
    assert outcome.status == "cancelled"
    assert window.workbench.operations.current is task
    assert "cancelled" in window.workbench.operations.detail.current_geometry().end_text
    assert "cancelled" in window.workbench.operations.row_for(task).state_text
    assert "remote effect is unknown" in window.workbench.result.sentence.text()
    # Said once: the body does not repeat the sentence's news in other words.
    assert "unknown" not in window.workbench.result.text.toPlainText()
    assert demo_server.state.hang_cancelled.wait(5), "the demo server never saw the cancel"
    with RunStore.open(resolve_db_path()) as store:
        assert store.get_run(outcome.run_id).status == "cancelled"
        health = ServerRegistry(store.db).get(demo_server.url)
    assert health.cancelled_count == 1 and health.failed_count == 0
    qtbot.waitUntil(lambda: "1\u00a0cancelled" in window.servers.health.text())
    assert "0\u00a0failed" in window.servers.health.text()


def test_a_tool_error_is_a_failure_named_in_the_health_line(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    choose(window, "fail")
    outcome = finished(qtbot, window.workbench.run_current_tool())
    assert outcome.status == "failed"
    with RunStore.open(resolve_db_path()) as store:
        health = ServerRegistry(store.db).get(demo_server.url)
    assert (health.tool_error_count, health.failed_count) == (1, 0)
    # A tool error is a kind of failed: counted in failed, and named (never "1 tool error · 0 failed").
    qtbot.waitUntil(lambda: "1\u00a0failed (1\u00a0tool error)" in window.servers.health.text())


def test_bad_arguments_are_refused_where_typed_and_nothing_is_sent(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    choose(window, "echo")
    calls_before = dict(demo_server.state.calls)
    submitted = len(window.engine.tasks)
    assert window.workbench.run_current_tool() is None  # text is required
    assert window.workbench.arguments.form.root.fields["text"].error.text() == "This field is required."
    window.workbench.arguments.tabs.setCurrentIndex(1)
    window.workbench.arguments.editor.setPlainText('{"text": "x", "repeat": 99}')
    assert window.workbench.run_current_tool() is None
    assert "at most 10" in window.workbench.arguments.json_error.text()
    assert len(window.engine.tasks) == submitted
    assert dict(demo_server.state.calls) == calls_before


def test_three_operations_at_once_each_with_its_own_bar_and_cancel(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    choose(window, "hang")
    hanging = window.workbench.run_current_tool()
    choose(window, "slow_task")
    window.workbench.arguments.set_arguments({"seconds": 0.6, "steps": 3})
    slow = window.workbench.run_current_tool()
    choose(window, "echo")
    window.workbench.arguments.set_arguments({"text": "three"})
    quick = window.workbench.run_current_tool()
    assert window.workbench.operations.tasks[:3] == [quick, slow, hanging]
    assert finished(qtbot, quick).status == "ok"
    assert finished(qtbot, slow).status == "ok"
    assert len(slow.state.marks) == 3  # progress ticks on the bar
    row = window.workbench.operations.row_for(hanging)
    assert hanging.running and row.cancellable
    # The row's own Cancel, with the mouse: the other rows are left alone.
    viewport = window.workbench.operations.view.viewport()
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=row.cancel_rect.center())
    assert finished(qtbot, hanging).status == "cancelled"
    assert not window.workbench.operations.row_for(hanging).cancellable
    assert "cancelled" in window.workbench.operations.row_for(hanging).state_text


def test_a_cancelled_slow_task_keeps_the_progress_it_reported_in_its_result(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    choose(window, "slow_task")
    window.workbench.arguments.set_arguments({"seconds": 10, "steps": 10})
    task = window.workbench.run_current_tool()
    qtbot.waitUntil(lambda: len(task.state.marks) >= 2, timeout=10000)
    assert "progress 2 of 10: Step 2 of 10 done." in window.workbench.result.text.toPlainText()
    window.workbench.cancel_current()
    assert finished(qtbot, task).status == "cancelled"
    assert "remote effect is unknown" in window.workbench.result.sentence.text()
    # How far it got stays said once it ended, not only while it ran.
    assert "progress 2 of 10: Step 2 of 10 done." in window.workbench.result.text.toPlainText()


def test_a_long_stream_of_progress_is_shown_live_bounded(qtbot, make_window) -> None:
    """Thousands of progress notes while a call runs: the Result tab follows them to the latest with at
    most twice the notes the bar keeps (it grew by a line a note, without end), then Cancel."""
    from inspector.gui.widgets.budget_state import MARKS_LAST, MAX_MARKS
    from tests.support.fault_server import Exchange, FaultServer

    def work(exchange: Exchange) -> None:
        if exchange.request.rpc_method == "tools/list":
            exchange.send_result({"tools": [{"name": "long", "inputSchema": {"type": "object"}}]})
        else:
            exchange.trickle(0.0)  # notes without end, as fast as they go

    with FaultServer("session", work=work) as server:
        window = make_window((server.url, "long"), budget_s=60, era="handshake")
        choose(window, "long")
        task = window.workbench.run_current_tool()
        text = window.workbench.result.text
        counts: list[int] = []

        def made_again() -> bool:  # by now more lines were added than the bar keeps: made again from it
            counts.append(text.blockCount())
            return counts[-1] < max(counts)

        qtbot.waitUntil(made_again, timeout=40000)
        # Made again once more notes were heard than the bar keeps, not before. (The most lines seen between
        # two looks is no measure: under load the lines come in batches, 1,880 seen once before a rebuild.)
        assert task.state.marks_heard >= MAX_MARKS, (task.state.marks_heard, max(counts))
        reached = task.state.marks_heard - 1  # it follows the notes on, to the latest

        def last_shown() -> int:
            last = text.toPlainText().rsplit("\n", 1)[-1]
            return int(last.removeprefix("progress ").split(":")[0].replace(",", "")) if last.startswith("progress ") \
                else -1

        qtbot.waitUntil(lambda: last_shown() >= reached, timeout=10000)
        assert len(task.state.marks) <= MAX_MARKS
        assert text.blockCount() <= 2 * MAX_MARKS + MARKS_LAST
        # Still at the end, where it was followed.
        assert text.verticalScrollBar().value() == text.verticalScrollBar().maximum()
        window.workbench.cancel_current()
        assert finished(qtbot, task).status == "cancelled"
        # What it got to stays said, as the bar kept it: the first note and the last.
        lines = text.toPlainText().splitlines()
        assert "progress 0: still here" in lines and len(lines) <= MAX_MARKS + 20
        assert lines[lines.index("progress 0: still here") + len(task.state.marks) - 1] == \
            f"progress {task.state.marks[-1].progress:,.0f}: still here"


def test_a_slow_task_that_ended_ok_shows_its_answer_not_its_progress(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    choose(window, "slow_task")
    window.workbench.arguments.set_arguments({"seconds": 0.3, "steps": 2})
    task = window.workbench.run_current_tool()
    assert finished(qtbot, task).status == "ok" and len(task.state.marks) == 2
    assert "progress" not in window.workbench.result.text.toPlainText()


def test_quitting_with_an_operation_running_leaves_no_thread_and_no_demo_server(qtbot, make_window) -> None:
    from inspector.gui.workbench.demo_service import DemoService

    window = make_window()
    demo = DemoService()  # the demo server as the window starts it: a process of its own
    assert demo.start(window.admin.registry)
    qtbot.waitUntil(lambda: demo.running, timeout=40000)
    window.demo = demo
    demo.send_output_to(window.engine.log)
    process = demo.process
    window.admin.reload_servers(select_url=demo.url)
    qtbot.waitUntil(lambda: window.workbench.tools.model.rowCount() > 0, timeout=10000)
    choose(window, "hang")
    task = window.workbench.run_current_tool()
    # The demo's process says on stderr (a line of the Server log) that the call began.
    qtbot.waitUntil(lambda: any(entry.stderr and "started" in entry.data
                                for entry in window.log_dock.view.model.entries), timeout=20000)
    worker = window.engine.thread
    began = time.monotonic()
    window.close()
    assert time.monotonic() - began < 3.0
    assert task.cancel_signal.fired
    assert not worker.is_alive()
    assert not process.alive
    names = [thread.name for thread in threading.enumerate()]
    assert not [name for name in names if name.startswith(("run-inspector-operations", "demo-"))], names


def test_structured_content_is_a_tree_and_non_text_blocks_are_named(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    choose(window, "add")
    window.workbench.arguments.set_arguments({"a": 2, "b": 3})
    outcome = finished(qtbot, window.workbench.run_current_tool())
    assert outcome.status == "ok"
    assert not window.workbench.result.tree.isHidden()
    model = window.workbench.result.structure
    assert (model.index(0, 0).data(), model.index(0, 1).data()) == ("sum", "5")
    choose(window, "describe_image")
    finished(qtbot, window.workbench.run_current_tool())
    assert "Not shown as text: 1 image." in window.workbench.result.sentence.text()
    body = window.workbench.result.text.toPlainText()
    assert "not shown as text" not in body.lower() and "Image (image/png" in body
    choose(window, "fail")
    outcome = finished(qtbot, window.workbench.run_current_tool())
    assert outcome.status == "failed"
    assert "✗ Failed: the tool fail on Demo server reported an error." in window.workbench.result.sentence.text()
    assert window.workbench.operations.detail.current_geometry().end_text.startswith("✗ failed")


def test_the_window_stores_a_run_as_the_command_line_does(qtbot, make_window, demo_server) -> None:
    from inspector.cli import main as cli_main

    assert cli_main(["call", demo_server.url, "echo", "--args", '{"text": "same"}', "--json"]) == 0
    window = make_window((demo_server.url, "Demo server"))
    choose(window, "echo")
    window.workbench.arguments.set_arguments({"text": "same"})
    outcome = finished(qtbot, window.workbench.run_current_tool())
    with RunStore.open(resolve_db_path()) as store:
        by_cli, by_window = [r for r in store.list_runs() if r.title == "tools/call echo"][::-1]
        assert by_window.id == outcome.run_id
        for field in ("title", "source", "server", "status"):
            assert getattr(by_cli, field) == getattr(by_window, field), field
        [cli_step] = list(store.iter_steps(by_cli.id))
        [window_step] = list(store.iter_steps(by_window.id))

    def shape(step):
        payload = step.payload
        # The era's probe (and the tool's definition) are legs of whichever operation first needed
        # them: the command line's call here, the window's catalogue there.
        return (sorted(payload), payload["toolName"], payload["toolOutcome"], payload["toolResult"],
                [(leg.method, leg.granted_s, leg.http_status, leg.outcome) for leg in step.step.legs
                 if leg.method not in ("server/discover", "tools/list")])

    # The CLI sends the arguments as given; the window adds the schema's defaults it shows.
    assert shape(cli_step) == shape(window_step)


def test_cancel_is_enabled_only_while_an_operation_runs(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    choose(window, "hang")
    qtbot.waitUntil(lambda: not window.engine.running_tasks(), timeout=10000)
    assert not window.workbench.cancel_button.isEnabled() and not window.cancel_action.isEnabled()
    task = window.workbench.run_current_tool()
    assert window.workbench.cancel_button.isEnabled() and window.cancel_action.isEnabled()
    assert demo_server.state.hang_started.wait(10)
    qtbot.mouseClick(window.workbench.cancel_button, Qt.MouseButton.LeftButton)
    assert finished(qtbot, task).status == "cancelled"
    assert not window.workbench.cancel_button.isEnabled() and not window.cancel_action.isEnabled()


def test_operations_on_two_servers_at_once(qtbot, make_window, demo_server, sdk_server) -> None:
    window = make_window((demo_server.url, "Demo server"), (sdk_server.url, "SDK server"))
    window.admin.reload_servers(select_url=demo_server.url)
    qtbot.waitUntil(lambda: window.workbench.tools.select_tool("hang"), timeout=10000)
    on_demo = window.workbench.run_current_tool()
    window.admin.reload_servers(select_url=sdk_server.url)
    qtbot.waitUntil(lambda: window.workbench.tools.select_tool("slow"), timeout=10000)
    window.workbench.arguments.set_arguments({"seconds": 0.3})
    on_sdk = window.workbench.run_current_tool()
    assert on_sdk.server_url == sdk_server.url and on_demo.server_url == demo_server.url
    assert finished(qtbot, on_sdk).status == "ok"
    assert on_demo.running
    window.workbench.operations.select(on_demo)
    qtbot.keyClick(window, Qt.Key.Key_Escape)
    assert finished(qtbot, on_demo).status == "cancelled"


def test_the_list_keeps_the_newest_operations_and_forgets_old_finished_ones(qtbot, make_window, demo_server,
                                                                           monkeypatch) -> None:
    from inspector.gui.workbench.operations_list import OperationsList

    monkeypatch.setattr(OperationsList, "MAX_ROWS", 3)
    window = make_window((demo_server.url, "Demo server"))
    choose(window, "echo")
    window.workbench.arguments.set_arguments({"text": "x"})
    bench = window.workbench
    tasks = [finished(qtbot, bench.run_current_tool()) and bench.operations.current for _ in range(4)]
    assert window.workbench.operations.tasks == tasks[::-1][:3]
    assert tasks[0] not in window.engine.tasks  # nor kept by the engine


def test_non_text_blocks_are_named_in_words_and_listed_with_their_details(qtbot, make_window, demo_server) -> None:
    from inspector.gui.widgets.block_text import block_lines
    from inspector.gui.workbench.result_view import ResultView, _kind_count

    window = make_window((demo_server.url, "Demo server"))
    choose(window, "describe_image")
    assert finished(qtbot, window.workbench.run_current_tool()).status == "ok"
    text = window.workbench.result.text.toPlainText()
    assert "A 16 by 8 pixel picture of coloured stripes." in text
    assert text.splitlines()[-1] == "Image (image/png, 139 bytes)."
    # Counts read as words with their plural, never the protocol's type names.
    view = ResultView()
    qtbot.addWidget(view)
    note = view.non_text_note(window.workbench.operations.current)
    assert note == "1 image"
    assert _kind_count("resource_link", 3) == "3 resource links" and _kind_count("audio", 1) == "1 audio clip"
    links = [{"type": "resource_link", "uri": "demo://a/1", "name": "first\nline", "mimeType": "text/plain"},
             {"type": "resource", "uri": "demo://b", "mimeType": "text/plain", "size": 1, "text": "one\ntwo"}]
    assert block_lines(links[0]) == ["Resource link first line: demo://a/1 (text/plain)."]
    assert block_lines(links[1]) == ["Embedded resource demo://b (text/plain, 1 byte).", "    one", "    two"]
    assert block_lines({"type": "text", "text": "already the answer"}) == []


def test_a_servers_endless_description_neither_stretches_the_window_nor_turns_text_around(make_window) -> None:
    """300,000 characters without a space and a right-to-left override in a tool's description: the
    window keeps its width, Run and Cancel stay in it, and the override is shown, not obeyed."""
    window = make_window(wait_tools=False)
    window.resize(1200, 760)
    window.show()
    hostile = {"name": "evil\u202etxt.exe", "description": "A" * 300_000 + "\u202e" + "gnp.exe",
               "inputSchema": {"type": "object", "properties": {}}}
    window.workbench._tool_selected(hostile)
    QApplication.processEvents()
    title = window.workbench.tool_title.text()
    assert "\u202e" not in title and "\ufffd" in title and len(title) < 3_000
    assert window.minimumSizeHint().width() <= 1200 and window.width() <= 1200
    for button in (window.workbench.run_button, window.workbench.cancel_button):
        corner = button.mapTo(window, button.rect().bottomRight())
        assert window.rect().contains(corner), (button.text(), corner)
    # The whole text is one action away: the title's tooltip (bounded, escaped).
    assert "AAAA" in window.workbench.tool_title.toolTip()


def test_a_servers_schema_shows_its_overrides_and_floods_visibly_in_every_part_of_the_form(make_window) -> None:
    """Right-to-left overrides and 300,000-character runs in a tool's name, property names, titles,
    descriptions, enum titles and defaults: every label, list row, box and pre-filled field shows the
    override as U+FFFD and stays bounded, the window keeps its width, and the default sent is the
    server's own (the field shows it visibly, it does not change it)."""
    window = make_window(wait_tools=False)
    window.resize(1200, 760)
    window.show()
    flood = "B" * 300_000 + "\u202e" + "fdp.exe"
    hostile = {"name": "evil\u202etxt.exe" + "N" * 300_000, "description": "x",
               "inputSchema": {"type": "object", "required": ["pick"], "properties": {
                   "path\u202egnp": {"type": "string", "description": flood, "default": "report\u202efdp.exe"},
                   "pick": {"type": "string", "oneOf": [{"const": "a", "title": "yes\u202eon"},
                                                         {"const": "b", "title": flood}]},
                   "tags": {"type": "array", "items": {"type": "string",
                                                       "enum": ["t1", "t2"], "enumNames": ["one\u202eeno", "two"]}},
                   "C" * 300_000: {"type": "boolean"}}}}
    window.workbench.tools.model.set_tools([hostile])
    index = window.workbench.tools.model.index(0, 0)
    listed = index.data()
    assert "\u202e" not in listed and len(listed) < 1_000
    window.workbench._tool_selected(hostile)
    QApplication.processEvents()
    from PySide6.QtWidgets import QAbstractButton, QComboBox, QLabel, QLineEdit
    form = window.workbench.arguments.form
    shown = [label.text() for label in form.findChildren(QLabel)]
    shown += [button.text() for button in form.findChildren(QAbstractButton)]
    shown += [combo.itemText(row) for combo in form.findChildren(QComboBox) for row in range(combo.count())]
    shown += [edit.text() for edit in form.findChildren(QLineEdit)]
    assert shown and all("\u202e" not in text for text in shown), [text[:80] for text in shown if "\u202e" in text]
    assert all(len(text) < 12_000 for text in shown), [len(text) for text in shown]
    assert any("report\ufffdfdp.exe" == text for text in shown)
    # The form fits its pane: no long title widens it past the screen (a sideways scroll to reach Run).
    assert form.minimumSizeHint().width() < 900, form.minimumSizeHint()
    assert window.minimumSizeHint().width() <= 1200 and window.width() <= 1200
    for button in (window.workbench.run_button, window.workbench.cancel_button):
        corner = button.mapTo(window, button.rect().bottomRight())
        assert window.rect().contains(corner), (button.text(), corner)
    # What is sent is the server's default, not the picture of it.
    assert form.value()["path\u202egnp"] == "report\u202efdp.exe"


def test_a_tools_answer_that_turns_text_around_is_shown_as_its_characters(qtbot, make_window, demo_server) -> None:
    """The result pane shows a server's right-to-left override as U+FFFD: "abc‮fdp.exe" cannot pose
    as "abcexe.pdf" there, as the step detail and the command line already show it."""
    window = make_window((demo_server.url, "Demo server"))
    choose(window, "echo")
    window.workbench.arguments.form.root.fields["text"].edit.setText("invoice\u202efdp.exe")
    task = window.workbench.run_current_tool()
    assert finished(qtbot, task).status == "ok"
    shown = window.workbench.result.text.toPlainText()
    assert "invoice\ufffdfdp.exe" in shown and "\u202e" not in shown


def test_a_docstring_description_reads_as_one_paragraph_in_the_tool_title(make_window) -> None:
    """A description written as an indented docstring (line breaks, eight spaces) is shown as one
    paragraph: the title wraps where the pane ends, not where the server's source code did."""
    window = make_window(wait_tools=False)
    tool = {"name": "log_to_listeners", "inputSchema": {"type": "object"},
            "description": ("Send one log message to every session,\n        honouring its level.\n\n"
                            "    Returns: a count.")}
    window.workbench._tool_selected(tool)
    assert window.workbench.tool_title.text() == (
        "log_to_listeners — Send one log message to every session, honouring its level. Returns: a count.")
    assert "\n        honouring" in window.workbench.tool_title.toolTip().replace("&nbsp;", " ")


def test_ctrl_enter_outside_the_workbench_runs_where_the_operation_is_seen(qtbot, make_window, demo_server) -> None:
    """Ctrl+Enter pressed while the Runs tab was shown (the focus in its search) started the
    Workbench's tool out of sight: no operation, no budget bar, only a new row in the list. The
    operation now starts in the Workbench, shown with its bar."""
    window = make_window((demo_server.url, "Demo server"))
    choose(window, "echo")
    window.workbench.arguments.set_arguments({"text": "from the Runs tab"})
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)  # a shortcut is the active window's
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    tab.search.setFocus()
    qtbot.keyClick(tab.search, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    task = window.workbench.operations.current
    assert task is not None and task.title == "tools/call echo"
    assert window.tabs.currentWidget() is window.workbench
    assert finished(qtbot, task).status == "ok"
