"""The GUI thread's frame budget (issue 27): the worker's reports reach the GUI thread in batches
(at most one delivery per frame, the end at once, nothing lost or reordered), and a bar with a
long history paints a bounded number of parts and lays out its ended legs once per change."""

from __future__ import annotations

import threading

from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter

from inspector.gui.widgets.budget_bar import BudgetBar
from inspector.gui.widgets.budget_bar_layout import LEG_GAP_PX, MIN_LEG_PX, layout
from inspector.gui.widgets.budget_state import BarState, ProgressMark
from inspector.gui.widgets.mini_bar import paint_mini_bar, spans
from inspector.gui.workbench.operation_log import OperationLog
from inspector.gui.workbench.operation_reports import OperationObserver
from inspector.gui.workbench.operation_task import OperationOutcome, OperationTask
from inspector.mcp import LegFinished, LegStarted, OperationStarted, ProgressSeen, ServerEndpoint
from inspector.mcp.reports import LegOutcome

LEGS = 500  # each a started and a finished report: 1,000 reports, and as many progress notes
NOTES = 1000
WIDTH = 600.0


def _task() -> OperationTask:
    server = ServerEndpoint("http://127.0.0.1:9/mcp", name="nowhere")
    return OperationTask(1, "call", "tools/call poll", server, 20.0, tool="poll")


def _numbered(count: int) -> list[OperationTask]:
    server = ServerEndpoint("http://127.0.0.1:9/mcp", name="nowhere")
    return [OperationTask(number, "call", f"tools/call t{number}", server, 20.0, tool=f"t{number}")
            for number in range(count)]


def _listed(qtbot, tasks: list[OperationTask]):
    """An operations list (not shown yet) holding ``tasks``, the last one newest."""
    from inspector.gui.workbench.operations_list import OperationsList

    operations = OperationsList()
    qtbot.addWidget(operations)
    for task in tasks:
        operations.add(task)
    return operations


def _burst(task: OperationTask) -> None:
    """What a task polled 500 times reports, from a thread of its own (as the worker does)."""
    observer = OperationObserver(task._reports, OperationLog(), task.title, task.server.label)
    observer.operation_started(OperationStarted("tools/call", task.server_url, 20.0))
    for number in range(LEGS):
        observer.leg_started(LegStarted("tasks/get", 19, number * 0.01))
        observer.leg_finished(LegFinished("tasks/get", 19, 5.0, 200, 10, LegOutcome.OK))
        observer.progress(ProgressSeen("tools/call", number, NOTES, f"note {number}"))
        observer.progress(ProgressSeen("tools/call", number + 0.5, NOTES, None))


def test_a_burst_of_reports_reaches_the_gui_thread_as_a_bounded_number_of_updates(qtbot) -> None:
    task = _task()
    changes: list[int] = []
    task.changed.connect(lambda: changes.append(len(task.state.legs)))
    courier = task._courier
    deliveries, wakes = courier.deliveries, courier.wakes
    worker = threading.Thread(target=_burst, args=(task,))
    worker.start()
    worker.join()
    # 2,001 reports buffered: the GUI thread was woken once, and takes them in one or two batches.
    assert courier.wakes - wakes == 1
    qtbot.waitUntil(lambda: len(task.state.marks) == NOTES, timeout=5000)
    assert 1 <= len(changes) <= 2 and courier.deliveries - deliveries <= 2
    # Nothing lost, nothing out of order.
    state = task.state
    assert len(state.legs) == LEGS and all(leg.outcome == "ok" and leg.elapsed_s == 0.005 for leg in state.legs)
    assert [leg.start_s for leg in state.legs] == [number * 0.01 for number in range(LEGS)]
    assert [mark.progress for mark in state.marks] == [n + half for n in range(LEGS) for half in (0, 0.5)]
    assert state.marks[0].message == "note 0" and len(task.finished_legs) == LEGS


def test_the_end_is_delivered_at_once_after_the_reports_before_it(qtbot) -> None:
    task = _task()
    worker = threading.Thread(target=_burst, args=(task,))
    worker.start()
    worker.join()
    outcome = OperationOutcome(None, None, internal_error="a bug")
    with qtbot.waitSignal(task.finished, timeout=5000) as ended:
        threading.Thread(target=task._reports.done, args=(outcome,)).start()
    assert ended.args == [outcome]
    # Every report made before the end was taken before it: the bar ends with all its legs.
    assert len(task.state.legs) == LEGS and len(task.state.marks) == NOTES
    assert task.state.ending == "failed" and task.state.reason == "internal_error" and not task.running


def test_flush_takes_what_is_buffered_now(qtbot) -> None:
    task = _task()
    worker = threading.Thread(target=_burst, args=(task,))
    worker.start()
    worker.join()
    task.flush_reports()  # as a sign-in's crossing does, before it clears the bar
    assert len(task.state.legs) == LEGS
    marks = len(task.state.marks)
    qtbot.wait(50)  # the courier's own delivery then finds nothing more for the task
    assert len(task.state.marks) == marks == NOTES


def _polled(legs: int = 1000) -> BarState:
    """A task polled ``legs`` times (10 ms each, 10 ms apart) and still running, with a note per poll."""
    state = BarState(20)
    for method in ("initialize", "notifications/initialized"):
        state.leg_started(method, 20, 0.0)
        state.leg_finished(method, 20, 0.004, "ok", 200)
    for number in range(legs):
        start = 0.01 + number * 0.015
        state.leg_started("tasks/get", 19, start)
        state.leg_finished("tasks/get", 19, 0.01, "ok", 200)
        state.add_mark(ProgressMark(start, number, legs, None))
    state.leg_started("tasks/result", 4, 0.01 + legs * 0.015)
    return state


def test_a_thousand_legs_lay_out_as_a_bounded_number_of_segments_that_count_them_all() -> None:
    state = _polled()
    geometry = layout(state, 16.0, WIDTH)
    assert len(geometry.segments) <= WIDTH / (MIN_LEG_PX + LEG_GAP_PX)
    assert len(geometry.ticks) <= WIDTH / 4 + 1
    # Every leg is in one segment: each segment starts at its first leg, the next at the one after its last.
    firsts = [segment.index for segment in geometry.segments]
    assert firsts[0] == 0 and firsts == sorted(set(firsts)) and firsts[-1] == len(state.legs) - 1
    merged = [segment for segment in geometry.segments if "legs" in segment.label]
    assert merged and all("too short to draw alone" in segment.tooltip for segment in merged)
    assert geometry.segments[-1].kind == "running" and geometry.segments[-1].method == "tasks/result"
    # The mini bar of the list's row: as bounded.
    _deadline, drawn = spans(state, 16.0, 300)
    assert len(drawn) <= 300 / 2 and drawn[-1].kind == "running"


def test_a_frame_lays_out_only_the_running_leg_the_history_is_kept_until_it_moves() -> None:
    state = _polled()
    first = layout(state, 16.0, WIDTH)
    later = layout(state, 16.5, WIDTH)
    assert all(a is b for a, b in zip(first.segments[:-1], later.segments[:-1], strict=True))
    assert later.segments[-1].width > first.segments[-1].width
    state.leg_finished("tasks/result", 4, 0.7, "ok", 200)
    state.finish(16.7, "ok")
    ended = layout(state, 99.0, WIDTH)
    assert ended.segments[-1].kind == "ok" and ended.end_text == "✓ ok"
    assert ended.segments[0] is not first.segments[0]  # laid out afresh for the new state


def test_a_few_legs_are_still_drawn_one_by_one() -> None:
    state = BarState(20)
    for method in ("initialize", "notifications/initialized", "ping"):
        state.leg_started(method, 20, 0.0)
        state.leg_finished(method, 20, 0.004, "ok", 200)
    assert [segment.method for segment in layout(state, 0.1, WIDTH).segments] == [
        "initialize", "notifications/initialized", "ping"]


def test_the_full_bar_and_a_row_paint_a_long_history_in_bounded_parts(qtbot) -> None:
    state = _polled(2000)
    bar = BudgetBar(clock=lambda: 100.0)
    qtbot.addWidget(bar)
    bar.resize(int(WIDTH), bar.minimumHeight())
    bar.show_live(state, 100.0 - 31.0)
    image = QImage(bar.size(), QImage.Format.Format_ARGB32)
    bar.render(image)
    assert bar.frames >= 1 and len(bar.labels_shown) <= len(bar.current_geometry().segments) <= WIDTH / 4
    picture = QImage(300, 12, QImage.Format.Format_ARGB32)
    painter = QPainter(picture)
    paint_mini_bar(painter, QRectF(0, 0, 300, 12), state, 31.0)
    painter.end()


def _legs(task: OperationTask, first: int, count: int) -> None:
    observer = OperationObserver(task._reports, OperationLog(), task.title, task.server.label)
    if first == 0:
        observer.operation_started(OperationStarted("tools/call", task.server_url, 20.0))
    for number in range(first, first + count):
        observer.leg_started(LegStarted("tasks/get", 19, number * 0.01))
        observer.leg_finished(LegFinished("tasks/get", 19, 5.0, 200, 10, LegOutcome.OK))
        observer.progress(ProgressSeen("tools/call", number, 100, f"note {number}"))


def test_the_selected_operation_s_detail_adds_what_is_new_and_keeps_what_it_shows(qtbot) -> None:
    from inspector.gui.workbench.operation_detail import OperationDetail

    task = _task()
    detail = OperationDetail()
    qtbot.addWidget(detail)
    detail.show_task(task)
    tree = detail.wire.tree
    _legs(task, 0, 3)
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 3, timeout=5000)
    shown = [tree.topLevelItem(row) for row in range(3)]
    tree.setCurrentItem(shown[1])
    picked = detail.wire.text.toPlainText()
    _legs(task, 3, 2)
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 5, timeout=5000)
    # The legs shown were not made again: the one the reader picked stays picked, its text stays.
    assert [tree.topLevelItem(row) for row in range(3)] == shown and tree.currentItem() is shown[1]
    assert detail.wire.text.toPlainText() == picked
    assert detail.result.text.toPlainText().splitlines() == [
        line for line in detail.result.text.toPlainText().splitlines() if line] and len(
        detail.result.text.toPlainText().splitlines()) == 5
    assert "note 4" in detail.result.text.toPlainText().splitlines()[-1]


def test_merged_legs_say_how_many_they_are_in_english_and_german(qtbot) -> None:
    from inspector.gui.language import switch_language
    from tests.gui.test_screenshots import save

    state = _polled(1000)
    bar = BudgetBar(clock=lambda: 100.0)
    qtbot.addWidget(bar)
    bar.set_title("tools/call poll @ Demo server")
    bar.resize(760, bar.minimumHeight())
    bar.show_live(state, 100.0 - 16.0)
    bar.show()
    try:
        for language, word in (("en", "legs"), ("de", "Etappen")):
            switch_language(language)
            bar.repaint()
            save(bar, f"budget-bar-merged-legs-{language}")
            assert any(word in text for text in bar.labels_shown), bar.labels_shown
            merged = next(s for s in bar.current_geometry().segments if word in s.label)
            assert bar.tooltip_at(merged.x + 2 + merged.width / 2, bar.height() - 8) == merged.tooltip
    finally:
        switch_language("en")


def test_a_delivery_inside_a_delivery_keeps_each_task_s_reports_in_order(qtbot) -> None:
    first, second = _task(), _task()
    courier = first._courier
    courier.deliver()  # nothing left from before
    first._reports.put("leg_started", LegStarted("one", 19, 0.0))
    second._reports.put("leg_started", LegStarted("early", 19, 0.0))

    def nested() -> None:  # a slot that spins the event loop while a batch is handed out
        second._reports.put("leg_started", LegStarted("late", 19, 0.1))
        courier.deliver()

    first.changed.connect(nested)
    courier.deliver()
    qtbot.waitUntil(lambda: len(second.state.legs) == 2, timeout=5000)
    assert [leg.method for leg in second.state.legs] == ["early", "late"]


class _SlowSink:
    """A task whose reports take ``cost_s`` to take (an ending: its row, the detail, the status), on
    the courier's clock (``clock``: a list holding the time, advanced here; a loaded machine's sleep
    would overrun the budget by itself)."""

    def __init__(self, name: str, taken: list, cost_s: float, clock: list[float]) -> None:
        self.name, self._taken, self._cost_s, self._clock = name, taken, cost_s, clock

    def take_reports(self, entries) -> None:
        self._clock[0] += self._cost_s
        self._taken.append((self.name, [report for _kind, report, _at in entries]))


def test_a_delivery_that_spent_its_budget_serves_the_other_tasks_at_the_next_turn_in_order(qtbot) -> None:
    from inspector.gui.workbench.report_courier import ReportCourier

    clock = [1000.0]
    courier = ReportCourier(budget_ms=8, clock=lambda: clock[0])
    taken: list = []
    sinks = [_SlowSink(f"task {number}", taken, 0.005, clock) for number in range(5)]
    for sink in sinks:
        courier.put(sink, "progress", "first", 0.0, urgent=True)
    courier.deliver()
    # 5 ms each against a budget of 8 ms: two were served, the rest wait for the loop's next turn.
    assert [name for name, _ in taken] == ["task 0", "task 1"] and courier.put_backs == 1
    courier.put(sinks[4], "progress", "second", 0.0)
    courier.put(sinks[0], "progress", "second", 0.0)
    qtbot.waitUntil(lambda: sum(len(reports) for _, reports in taken) == 7, timeout=5000)
    # Each task took its reports in the order they were put; those put back went before the newer.
    for sink in sinks:
        said = [report for name, reports in taken if name == sink.name for report in reports]
        assert said == (["first", "second"] if sink in (sinks[0], sinks[4]) else ["first"])
    assert [name for name, _ in taken].index("task 2") < [name for name, _ in taken].index("task 0", 1)
    assert courier.deliveries >= 2


def test_a_frame_of_the_bar_repaints_the_bar_alone_not_the_panels_under_it(qtbot) -> None:
    """The bar paints every pixel of itself: its animation repaints no parent (the window,
    splitters and panels under it cost a paint event each, every frame, when it did not)."""
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QVBoxLayout, QWidget

    panel = QWidget()
    qtbot.addWidget(panel)
    bar = BudgetBar()
    QVBoxLayout(panel).addWidget(bar)
    panel.resize(500, 120)
    panel.show()
    qtbot.waitExposed(panel)
    painted: list[str] = []

    class Watch(QObject):
        def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
            if event.type() == QEvent.Type.Paint:
                painted.append("bar" if watched is bar else "panel")
            return False

    watch = Watch()
    panel.installEventFilter(watch)
    bar.installEventFilter(watch)
    qtbot.wait(50)  # the first paint of both, after the panel was shown
    painted.clear()
    for _ in range(3):
        bar.update()
        qtbot.waitUntil(lambda: painted.count("bar") >= 1, timeout=2000)
    bar.repaint()
    assert painted.count("bar") >= 2 and "panel" not in painted
    # Its background is the window's colour, as the panel's would have shown under it.
    image = bar.grab().toImage()
    assert image.pixelColor(2, 1) == bar.palette().color(bar.backgroundRole())


def test_a_row_that_changed_repaints_alone_not_every_row_seen(qtbot) -> None:
    """Qt's list view repaints its whole viewport when one row's data changes; the operations list
    repaints that row only (every report of one running operation had repainted all the rows seen)."""
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication

    tasks = _numbered(12)
    operations = _listed(qtbot, tasks)
    operations.resize(500, 400)
    operations.show()
    qtbot.waitExposed(operations)
    regions: list[list[tuple[int, int, int, int]]] = []

    class Watch(QObject):
        def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
            if event.type() == QEvent.Type.Paint:
                regions.append([(r.x(), r.y(), r.width(), r.height()) for r in event.region()])
            return False

    viewport = operations.view.viewport()
    watch = Watch()
    viewport.installEventFilter(watch)
    # The list settles first: at the burst's frame end the detail below the rows shows the newest
    # operation and takes the viewport's lower part, which is then painted whole at the height it
    # keeps. A fixed wait of 50 ms missed that repaint on a loaded machine (5 of 10 failed at load 6).
    qtbot.waitUntil(lambda: operations.detail.state is tasks[-1].state, timeout=10000)
    QApplication.sendPostedEvents()  # the layout the detail asked for: the viewport at its height

    def settled() -> bool:  # painted whole at its height, then nothing more for 300 ms
        whole = any((0, 0, viewport.width(), viewport.height()) in paint for paint in regions)
        painted = len(regions)
        qtbot.wait(300)
        return whole and len(regions) == painted

    qtbot.waitUntil(settled, timeout=20000)
    regions.clear()
    changed = tasks[5]
    row = operations.view.visualRect(operations.model.index(operations.model.row_of(changed), 0))
    changed.changed.emit()  # what a batch of its reports emits
    qtbot.waitUntil(lambda: bool(regions), timeout=2000)
    qtbot.wait(100)  # anything else it would repaint
    assert all(region == [(row.x(), row.y(), row.width(), row.height())] for region in regions), regions
    assert row.height() < viewport.height() / 4  # a row, not the list


def test_rows_moved_by_a_new_operation_are_copied_and_a_row_that_changed_is_drawn_anew(qtbot) -> None:
    """A new operation goes in at the top and the list repaints every row under it: each row is kept
    as a picture, drawn again only when what it shows changed (its countdown's tenth, its mini bar's
    pixel, its state), so a row that only moved is one copy, not its texts and rectangles again."""
    from inspector.gui.workbench.operations_list import OperationsList

    operations = OperationsList()
    qtbot.addWidget(operations)
    clock = [1000.0]
    delegate = operations.delegate
    delegate._clock = lambda: clock[0]
    server = ServerEndpoint("http://127.0.0.1:9/mcp", name="nowhere")

    def started(number: int) -> OperationTask:
        task = OperationTask(number, "call", f"tools/call t{number}", server, 20.0, tool=f"t{number}")
        task.started_at = clock[0] - 1.0
        task.state.leg_started("tools/call", 20, 0.0)
        return task

    tasks = [started(number) for number in range(8)]
    for task in tasks:
        operations.add(task)
    operations.resize(500, 400)
    operations.show()
    qtbot.waitExposed(operations)
    qtbot.wait(50)  # the rows laid out
    viewport = operations.view.viewport()

    def repaint() -> tuple[int, int]:
        frames, made = delegate.frames, delegate.pictures_made
        viewport.repaint()
        return delegate.frames - frames, delegate.pictures_made - made

    repaint()
    # The same moment again: every row painted, none drawn anew.
    assert repaint() == (len(tasks), 0)
    # A new operation at the top (selected): every row moves; the new one and the one that lost the
    # selection are drawn, the others are copied.
    newest = started(8)
    made_before = delegate.pictures_made
    operations.add(newest)
    qtbot.wait(50)  # the rows laid out again, and painted
    painted, _made = repaint()
    assert painted == len(tasks) + 1 and 1 <= delegate.pictures_made - made_before <= 2
    # A tenth of a second later every running row's countdown says something else: all drawn anew.
    clock[0] += 0.1
    assert repaint() == (len(tasks) + 1, len(tasks) + 1)
    # A row that ended is drawn anew once, then copied.
    tasks[3].state.finish(1.2, "ok")
    tasks[3].outcome = OperationOutcome(None, None)
    assert repaint() == (len(tasks) + 1, 1)
    assert repaint() == (len(tasks) + 1, 0)


def test_a_frame_repaints_the_running_rows_seen_where_the_view_has_them_when_scrolled(qtbot) -> None:
    """The frame works out which rows are seen and where (all rows are one height) instead of asking
    the view row by row; scrolled halfway, it repaints exactly the rectangles the view gives them."""
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtGui import QRegion

    tasks = _numbered(30)
    for number, task in enumerate(tasks):
        task.started_at = 0.0
        if number % 3 == 0:  # every third has ended: not repainted by the frame
            task.outcome = OperationOutcome(None, None)
    operations = _listed(qtbot, tasks)
    operations._frames.stop()  # frames are driven by hand below
    operations.resize(500, 200)
    operations.show()
    qtbot.waitExposed(operations)
    view = operations.view
    bar = view.verticalScrollBar()
    bar.setValue(bar.maximum() // 2 + 7)  # a row cut at the top and one at the bottom
    qtbot.wait(50)
    viewport = view.viewport()
    expected = QRegion()
    for row, task in enumerate(operations.model.tasks):
        rect = view.visualRect(operations.model.index(row, 0))
        if task.running and rect.intersects(viewport.rect()):
            expected += rect.intersected(viewport.rect())
    assert not expected.isEmpty() and expected != QRegion(viewport.rect())
    painted = QRegion()

    class Watch(QObject):
        def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
            nonlocal painted
            if event.type() == QEvent.Type.Paint:
                painted += event.region()
            return False

    watch = Watch()
    viewport.installEventFilter(watch)
    operations._shown.clear()  # as if every running row's look had moved
    operations._tick()
    qtbot.waitUntil(lambda: not painted.isEmpty(), timeout=2000)
    qtbot.wait(50)
    assert painted == expected


def test_the_rows_pictures_follow_a_new_palette(qtbot) -> None:
    """Each row is kept as a picture on the list's background: a new palette (a dark theme, say)
    draws them anew on the new background, not the old one."""
    from PySide6.QtGui import QColor, QPalette

    tasks = _numbered(3)
    for task in tasks:
        task.outcome = OperationOutcome(None, None)
    operations = _listed(qtbot, tasks)
    operations.resize(500, 200)
    operations.show()
    qtbot.waitExposed(operations)
    qtbot.wait(50)
    view = operations.view
    row = view.visualRect(operations.model.index(2, 0))  # not the selected (newest) one
    made = operations.delegate.pictures_made
    palette = view.palette()
    palette.setColor(QPalette.ColorRole.Base, QColor("#204060"))
    view.setPalette(palette)
    qtbot.waitUntil(lambda: operations.delegate.pictures_made > made, timeout=2000)
    image = view.viewport().grab().toImage()
    assert image.pixelColor(row.left() + 2, row.center().y()) == QColor("#204060")


def test_a_new_operation_s_empty_result_clears_the_text_once_not_at_every_run(qtbot) -> None:
    """Each Run shows the new operation's result, empty while nothing came: the text is emptied
    when it held something, and left alone when it is empty already (each new document was a layout
    and a repaint in the middle of the bars' frames)."""
    from inspector.gui.workbench.result_view import ResultView

    view = ResultView()
    qtbot.addWidget(view)
    noted, *fresh = _numbered(4)
    noted.state.add_mark(ProgressMark(0.1, 1, 2, "half way"))
    view.show_task(noted)
    assert "half way" in view.text.toPlainText()
    changes: list[int] = []
    view.text.textChanged.connect(lambda: changes.append(1))
    for task in fresh:
        view.show_task(task)
        assert view.text.toPlainText() == ""
    assert len(changes) == 1  # emptied once
