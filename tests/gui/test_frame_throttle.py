"""FrameThrottle: a refresh asked for many times within a frame is done once, and late by at most a frame;
the operations list shows a burst of new operations that way, and the user's own moves at once."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt

from inspector.gui.widgets.budget_bar import FRAME_MS
from inspector.gui.widgets.frame_throttle import FrameThrottle
from inspector.gui.workbench.operation_task import OperationTask
from inspector.mcp import ServerEndpoint


def test_a_request_after_a_quiet_frame_is_done_at_once(qtbot) -> None:
    done = []
    throttle = FrameThrottle(lambda: done.append(time.monotonic()))
    throttle.request()
    assert len(done) == 1 and not throttle.pending
    qtbot.wait(FRAME_MS + 10)
    throttle.request()
    assert len(done) == 2  # a frame later: at once again


def test_requests_within_a_frame_are_done_once_at_its_end_with_what_is_current_then(qtbot) -> None:
    value, seen = [0], []
    throttle = FrameThrottle(lambda: seen.append(value[0]))
    began = time.monotonic()
    for number in range(1, 11):
        value[0] = number
        throttle.request()
    assert seen == [1] and throttle.pending  # the first at once; nine wait for the frame's end
    qtbot.waitUntil(lambda: len(seen) == 2, timeout=1000)
    assert seen == [1, 10]  # once, showing the last
    assert time.monotonic() - began >= (FRAME_MS - 2) / 1000  # not before the frame ended
    qtbot.wait(3 * FRAME_MS)
    assert seen == [1, 10]  # nothing more was asked


def test_now_does_it_at_once_and_takes_the_waiting_request_with_it(qtbot) -> None:
    seen = []
    throttle = FrameThrottle(lambda: seen.append(len(seen)))
    throttle.request()
    throttle.request()
    assert throttle.pending
    throttle.now()
    assert seen == [0, 1] and not throttle.pending
    qtbot.wait(3 * FRAME_MS)
    assert seen == [0, 1]


#: A frame long enough that a burst made by the test surely falls within one, on a machine as loaded as
#: a full parallel run makes it (eight adds once took more than a 16 ms frame there): what is checked is
#: the gathering, not the frame's length.
LONG_FRAME_MS = 1000


def _long_frames(throttle) -> None:
    throttle._frame_ms = LONG_FRAME_MS


def _tasks(count: int) -> list[OperationTask]:
    server = ServerEndpoint("http://127.0.0.1:9/mcp", name="nowhere")
    return [OperationTask(number, "call", f"tools/call t{number}", server, 20.0, tool=f"t{number}")
            for number in range(count)]


def test_a_burst_of_new_operations_shows_the_detail_once_a_frame_and_ends_on_the_newest(qtbot) -> None:
    from inspector.gui.workbench.operations_list import OperationsList

    operations = OperationsList()
    qtbot.addWidget(operations)
    _long_frames(operations._detail_shown)
    shown = []
    operations.current_changed.connect(shown.append)
    tasks = _tasks(8)
    for task in tasks:  # as Run pressed eight times within one frame
        operations.add(task)
    assert operations.current is tasks[-1]  # the selection moves with every press
    assert shown == [tasks[0]]  # the detail: the first at once, the rest at the frame's end
    qtbot.waitUntil(lambda: len(shown) == 2, timeout=5000)
    assert shown == [tasks[0], tasks[-1]]
    assert operations.detail.state is tasks[-1].state


def test_the_users_own_move_shows_the_detail_at_once_even_within_a_burst(qtbot) -> None:
    from inspector.gui.workbench.operations_list import OperationsList

    operations = OperationsList()
    qtbot.addWidget(operations)
    operations.show()
    qtbot.waitExposed(operations)
    _long_frames(operations._detail_shown)
    tasks = _tasks(3)
    for task in tasks:
        operations.add(task)
    assert operations.detail.state is not tasks[-1].state  # the burst's last waits for the frame's end
    qtbot.keyClick(operations.view, Qt.Key.Key_Down)  # the user moves: shown at once
    assert operations.current is tasks[1]
    assert operations.detail.state is tasks[1].state
    qtbot.wait(LONG_FRAME_MS + 3 * FRAME_MS)
    assert operations.detail.state is tasks[1].state  # the burst's waiting request did not come back


def test_twenty_operations_ending_together_say_the_sign_in_again_once_a_frame(qtbot, make_window) -> None:
    from inspector.gui.workbench.operation_task import OperationOutcome

    window = make_window()
    room = window.signin
    said = []
    line = room.strip.line
    real = line.setText
    line.setText = lambda text: (said.append(text), real(text))  # the strip's sentence, said again
    tasks = _tasks(20)
    for task in tasks:
        room._submitted(task)  # as the engine announces each operation
    qtbot.wait(3 * FRAME_MS)
    _long_frames(room._ends_seen)
    said.clear()
    for task in tasks:  # all twenty end within one frame
        task.finished.emit(OperationOutcome(None, None))
    assert len(said) == 1  # the first at once, the rest gathered
    qtbot.waitUntil(lambda: len(said) == 2, timeout=5000)
    qtbot.wait(3 * FRAME_MS)
    assert len(said) == 2
