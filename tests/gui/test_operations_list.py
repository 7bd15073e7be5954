"""The operations list with many operations: compact rows, one Tab stop, arrows inside, cancel per row.

Real demo-server operations (`hang` answers only by being cancelled), the window at its default size.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QApplication

from inspector.gui.main_window import DEFAULT_SIZE
from inspector.gui.workbench.operation_task import OperationTask
from inspector.gui.workbench.operations_model import OperationsModel, title_text
from inspector.mcp import ServerEndpoint
from tests.gui.test_screenshots import save


def start_hangs(qtbot, window, demo_server, count: int) -> list[OperationTask]:
    assert window.workbench.tools.select_tool("hang")
    tasks = [window.workbench.run_current_tool() for _ in range(count)]
    # Each has sent its tools/call: the server holds them all.
    qtbot.waitUntil(lambda: all(t.state.legs and t.state.legs[-1].method == "tools/call" and t.state.legs[-1].running
                                for t in tasks), timeout=20000)
    return tasks


def cancel_all(qtbot, tasks: list[OperationTask]) -> None:
    for task in tasks:
        task.cancel()
    qtbot.waitUntil(lambda: not any(t.running for t in tasks), timeout=20000)


def fully_visible_rows(window) -> int:
    view = window.workbench.operations.view
    seen = view.viewport().rect()
    rects = [view.visualRect(window.workbench.operations.model.index(row, 0)) for row in range(view.model().rowCount())]
    return sum(1 for rect in rects if seen.contains(rect))


def test_twenty_operations_show_at_least_twelve_rows_at_the_default_size(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    # The size the first window opens at on a screen that has room for it (offscreen's is 800 px).
    window.resize(DEFAULT_SIZE)
    qtbot.waitUntil(lambda: (window.width(), window.height()) == (1200, 760))
    tasks = start_hangs(qtbot, window, demo_server, 20)
    QApplication.processEvents()
    assert fully_visible_rows(window) >= 12
    # The selected operation's full bar is shown too, below the list, and runs.
    assert window.workbench.operations.detail.isVisible() and window.workbench.operations.detail.animating
    assert window.workbench.operations.detail.state is tasks[-1].state
    # The running rows move: their countdowns and mini bars are repainted as the clock runs.
    painted = window.workbench.operations.delegate.frames
    qtbot.waitUntil(lambda: window.workbench.operations.delegate.frames >= painted + 12, timeout=3000)
    # The full bar's running leg says what it spent of its grant.
    qtbot.waitUntil(lambda: any(re.fullmatch(r"tools/call [\d.]+ (ms|s) / grant \d+ s", label)
                                for label in window.workbench.operations.detail.labels_shown), timeout=3000)
    save(window, "twenty-operations")
    cancel_all(qtbot, tasks)
    assert all(t.outcome.status == "cancelled" for t in tasks)
    assert all("cancelled" in window.workbench.operations.row_for(t).state_text for t in tasks)
    # Nothing runs: nothing is repainted by the clock any more.
    qtbot.waitUntil(lambda: not window.workbench.operations.animating, timeout=1000)
    assert not window.workbench.operations.detail.animating


def _tab_stops(qtbot, window, start) -> list:
    """Every widget Tab reaches from ``start`` until it comes back (or 120 presses)."""
    start.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is start)
    stops = []
    for _ in range(120):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        widget = QApplication.focusWidget()
        if widget is start:
            break
        stops.append(widget)
    return stops


def test_the_list_is_one_tab_stop_and_arrows_move_the_selection_and_the_full_bar(qtbot, make_window,
                                                                                 demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    tasks = start_hangs(qtbot, window, demo_server, 6)
    operations = window.workbench.operations
    stops = _tab_stops(qtbot, window, window.workbench.tools.filter)
    inside = [widget for widget in stops if widget is operations or operations.isAncestorOf(widget)]
    assert len(inside) == 1, f"{len(inside)} Tab stops in the operations list"
    assert inside == [operations.view]
    view = operations.view
    view.setFocus()
    newest_first = tasks[::-1]
    assert operations.current is newest_first[0]
    qtbot.keyClick(view, Qt.Key.Key_Down)
    assert operations.current is newest_first[1]
    assert operations.detail.state is newest_first[1].state  # the full bar follows the selection
    qtbot.keyClick(view, Qt.Key.Key_End)
    oldest = operations.model.task_at(operations.model.rowCount() - 1)
    assert operations.current is oldest and operations.detail.state is oldest.state
    qtbot.keyClick(view, Qt.Key.Key_Home)
    assert operations.current is newest_first[0]
    qtbot.keyClick(view, Qt.Key.Key_Up)
    assert operations.current is newest_first[0]  # already at the top: stays
    # Delete cancels the selected operation, and only it.
    qtbot.keyClick(view, Qt.Key.Key_Down)
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    with qtbot.waitSignal(newest_first[1].finished, timeout=10000):
        pass
    assert newest_first[1].outcome.status == "cancelled"
    assert [t.running for t in newest_first] == [True, False, True, True, True, True]
    # Esc with the focus in the list: the window's action cancels the selected one.
    qtbot.keyClick(view, Qt.Key.Key_Down)
    assert operations.current is newest_first[2]
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    with qtbot.waitSignal(newest_first[2].finished, timeout=10000):
        pass
    assert newest_first[2].outcome.status == "cancelled" and newest_first[3].running
    cancel_all(qtbot, tasks)


def test_each_row_cancels_its_own_operation_with_the_mouse_and_the_context_menu(qtbot, make_window,
                                                                                demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    first, second, third = start_hangs(qtbot, window, demo_server, 3)
    operations = window.workbench.operations
    row = operations.row_for(second)
    assert row.cancellable and isinstance(row.cancel_rect, QRect) and not row.cancel_rect.isEmpty()
    qtbot.mouseClick(operations.view.viewport(), Qt.MouseButton.LeftButton, pos=row.cancel_rect.center())
    with qtbot.waitSignal(second.finished, timeout=10000):
        pass
    assert second.outcome.status == "cancelled" and first.running and third.running
    assert not operations.row_for(second).cancellable
    # A click beside the button selects the row and cancels nothing.
    beside = operations.view.visualRect(operations.row_for(first).index).center()
    qtbot.mouseClick(operations.view.viewport(), Qt.MouseButton.LeftButton, pos=beside)
    assert operations.current is first and first.running
    # The context menu's action (Delete) is the keyboard's way; it is off for a finished row.
    assert operations.cancel_action in operations.view.actions()
    assert operations.cancel_action.shortcut().toString() == "Del"
    operations.select(second)
    assert not operations.cancel_action.isEnabled()
    operations.select(first)
    assert operations.cancel_action.isEnabled()
    operations.cancel_action.trigger()
    with qtbot.waitSignal(first.finished, timeout=10000):
        pass
    assert first.outcome.status == "cancelled" and third.running
    cancel_all(qtbot, [third])


def test_the_list_and_its_rows_speak(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    [task] = start_hangs(qtbot, window, demo_server, 1)
    view = window.workbench.operations.view
    assert view.accessibleName() == "Running and recent operations"
    index = window.workbench.operations.row_for(task).index
    spoken = index.data(Qt.ItemDataRole.AccessibleTextRole)
    assert re.fullmatch(r"tools/call hang, running: [\d.]+ (ms|s) of 20 s spent", spoken), spoken
    # What a screen reader is given for the row (Qt's accessible tree over the view).
    interface = QAccessible.queryAccessibleInterface(view)
    names = [interface.child(i).text(QAccessible.Text.Name) for i in range(interface.childCount())]
    assert any(name.startswith("tools/call hang, running: ") for name in names), names
    # The full bar says the same as gui.md asks: the leg's spent time and grant, and what is left.
    description = window.workbench.operations.detail.accessibleDescription()
    assert re.fullmatch(r"tools/call: .+ spent of a \d+ s grant; [\d.]+ s of 20 s left", description), description
    cancel_all(qtbot, [task])
    spoken = window.workbench.operations.row_for(task).index.data(Qt.ItemDataRole.AccessibleTextRole)
    assert spoken.startswith("tools/call hang, cancelled: ") and "of 20 s spent" in spoken


def test_the_operations_model(qtmodeltester) -> None:
    model = OperationsModel()
    server = ServerEndpoint("http://127.0.0.1:9/mcp", name="nowhere")
    tasks = [OperationTask(number, "call", f"tools/call t{number}", server, 20.0, tool=f"t{number}")
             for number in range(3)]
    for task in tasks:
        model.insert(task)
    qtmodeltester.check(model)
    assert [model.index(row, 0).data() for row in range(3)] == [title_text(t) for t in tasks[::-1]]
    model.remove(tasks[1])
    assert model.tasks == [tasks[2], tasks[0]]
    qtmodeltester.check(model)
