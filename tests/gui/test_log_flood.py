"""The Server log under a flood (issue 18, item 7): a server sending 100,000 ``notifications/message``
froze the window for seconds (one queued signal and one model update per line) and grew the
process by hundreds of megabytes, though the log keeps 5,000 lines. The log stays bounded in
memory and in work per tick, and says how many earlier lines it dropped."""

from __future__ import annotations

import threading
import time
from datetime import datetime, timezone

from PySide6.QtCore import QElapsedTimer, Qt, QTimer

from inspector.gui.language import switch_language
from inspector.gui.workbench.listening import LogEntry
from inspector.gui.workbench.server_log import MAX_ENTRIES, ServerLogModel, ServerLogView
from inspector.mcp.listening import ListenerState
from tests.support.log_flood import LogFlood

LINES = 100_000


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def last_line(model) -> str:
    rows = model.rowCount()
    return (model.index(rows - 1, model.columnCount() - 1).data() or "") if rows else ""


def test_a_flood_on_the_listening_stream_is_bounded_batched_and_counted(qtbot, make_window) -> None:
    # Long lines: what a flood holds anywhere shows in the process's memory.
    with LogFlood(pad=300) as flood:
        window = make_window((flood.url, "flooder"))
        qtbot.waitUntil(lambda: window.listener.status is not None
                        and window.listener.status.state is ListenerState.LISTENING, timeout=10000)
        qtbot.waitUntil(lambda: not window.engine.running_tasks(), timeout=10000)
        view = window.log_dock.view
        model = view.model
        updates: list[int] = []
        model.rowsInserted.connect(lambda *_args: updates.append(1))
        model.modelReset.connect(lambda: updates.append(1))
        gaps: list[int] = []
        peak = [rss_mb()]
        before = peak[0]
        clock, heartbeat = QElapsedTimer(), QTimer()
        heartbeat.setInterval(10)

        def beat() -> None:
            gaps.append(clock.restart())
            if len(gaps) % 5 == 0:
                peak[0] = max(peak[0], rss_mb())

        heartbeat.timeout.connect(beat)
        clock.start()
        heartbeat.start()
        began = time.monotonic()
        writer = threading.Thread(target=flood.flood_listening, args=(LINES,))
        writer.start()
        try:
            qtbot.waitUntil(lambda: last_line(model).startswith(f"line {LINES} of {LINES}:"), timeout=150_000)
        finally:
            heartbeat.stop()
            writer.join(30)
        elapsed_s = time.monotonic() - began
        peak[0] = max(peak[0], rss_mb())
        # Batched: one update of the model per tick (100 ms), not one per line; bound generously.
        assert len(updates) <= elapsed_s * 20 + 5, (len(updates), elapsed_s)
        # The GUI thread went on beating (a frame budget per batch; generous for a shared machine).
        assert max(gaps) < 2000, sorted(gaps)[-5:]
        # Bounded: nothing held the flood (100,000 lines of ~450 characters) anywhere.
        assert peak[0] - before < 60, (before, peak[0])
        assert model.rowCount() == MAX_ENTRIES
        assert model.dropped == LINES - MAX_ENTRIES
        assert view.dropped.isVisibleTo(view)
        assert view.dropped.text() == "95,000 earlier lines dropped"
        assert model.index(0, 5).data().startswith(f"line {LINES - MAX_ENTRIES + 1} of {LINES}:")


def test_a_flood_during_a_tool_call_is_counted_to_the_line(qtbot, make_window) -> None:
    lines = 30_000
    with LogFlood() as flood:
        window = make_window((flood.url, "flooder"))
        task = window.engine.call_tool(window.admin.endpoint_for(window.servers.current()), "flood",
                                       {"lines": lines}, budget_s=60)
        with qtbot.waitSignal(task.finished, timeout=90_000):
            pass
        assert task.outcome.status == "ok"
        view = window.log_dock.view
        model = view.model
        # What the session read before the call ended reaches the log (its last batch within a tick).
        qtbot.waitUntil(lambda: model.rowCount() == MAX_ENTRIES and view.dropped.isVisible(), timeout=10_000)
        ours = [entry for entry in model.entries if entry.operation is not None]
        first, last = (int(entry.data.split()[1]) for entry in (ours[0], ours[-1]))
        # The newest lines, without a gap; every earlier line counted as dropped.
        assert last - first + 1 == len(ours) == MAX_ENTRIES
        assert model.dropped == last - MAX_ENTRIES
        assert view.dropped.text() == f"{model.dropped:,} earlier lines dropped"
        assert ours[-1].operation == f"#{task.outcome.run_id} tools/call flood"


def entry(number: int) -> LogEntry:
    return LogEntry(datetime.now(timezone.utc), "info", "flood", f"line {number}", "server")


def test_the_feed_keeps_at_most_the_cap_waiting_and_hands_on_one_batch_per_tick(qtbot) -> None:
    from inspector.gui.workbench.log_feed import FLUSH_INTERVAL_MS, MAX_WAITING, LogFeed

    feed = LogFeed()
    batches: list[tuple[list[LogEntry], int, float]] = []
    feed.entries.connect(lambda batch, dropped: batches.append((batch, dropped, time.monotonic())))
    wakes: list[int] = []
    feed._wake.connect(lambda: wakes.append(1), Qt.ConnectionType.DirectConnection)  # counted as posted

    def worker(first: int, count: int) -> None:
        for number in range(first, first + count):
            feed.add(entry(number))

    # The GUI thread is busy (it handles no events) while a worker hands on 100,000 lines.
    thread = threading.Thread(target=worker, args=(1, LINES))
    thread.start()
    thread.join()
    assert len(feed._waiting) == MAX_WAITING
    assert len(wakes) == 1  # one wake-up posted while lines waited, not one per line
    qtbot.waitUntil(lambda: len(batches) == 1, timeout=5000)
    batch, dropped, first_at = batches[0]
    assert len(batch) == MAX_WAITING and dropped == LINES - MAX_WAITING
    assert batch[0].data == f"line {LINES - MAX_WAITING + 1}" and batch[-1].data == f"line {LINES}"
    # More lines at once after it: the next batch waits for the tick, and takes them all.
    worker(LINES + 1, 3)
    qtbot.waitUntil(lambda: len(batches) == 2, timeout=5000)
    batch, dropped, second_at = batches[1]
    assert [line.data for line in batch] == [f"line {LINES + n}" for n in (1, 2, 3)] and dropped == 0
    assert (second_at - first_at) * 1000 >= FLUSH_INTERVAL_MS * 0.9


def test_the_model_counts_what_it_drops_and_the_view_says_so(qtbot) -> None:
    view = ServerLogView()
    qtbot.addWidget(view)
    view.show()
    model = view.model
    assert not view.dropped.isVisible()
    view.add_many([entry(n) for n in range(1, 4001)])
    assert model.rowCount() == 4000 and model.dropped == 0 and not view.dropped.isVisible()
    # Removing the oldest rows, inserting the new: 1,000 dropped, and 12 more before they came.
    view.add_many([entry(n) for n in range(4001, 6001)], 12)
    assert model.rowCount() == MAX_ENTRIES and model.dropped == 1012
    assert model.entries[0].data == "line 1001"
    assert view.dropped.isVisible() and view.dropped.text() == "1,012 earlier lines dropped"
    # A batch larger than the log replaces every row at once.
    resets: list[int] = []
    model.modelReset.connect(lambda: resets.append(1))
    view.add_many([entry(n) for n in range(6001, 6001 + MAX_ENTRIES + 5)])
    assert resets == [1] and model.rowCount() == MAX_ENTRIES
    assert model.dropped == 1012 + MAX_ENTRIES + 5
    assert model.entries[0].data == "line 6006"
    switch_language("de")
    try:
        assert view.dropped.text() == "6.017 frühere Zeilen verworfen"
    finally:
        switch_language("en")
    view.clear_button.click()
    assert model.rowCount() == 0 and model.dropped == 0 and not view.dropped.isVisible()
    single = ServerLogModel()
    single.extend([entry(1)], 1)
    assert single.dropped == 1


def test_a_huge_message_is_kept_cut() -> None:
    from inspector.gui.workbench.log_entry import MAX_DATA_CHARS, message_entry
    from inspector.mcp.standalone import ServerNotification

    huge = ServerNotification("notifications/message", {"level": "info", "data": "x" * 2_000_000}, "GET")
    kept = message_entry(huge, "server")
    assert len(kept.data) == MAX_DATA_CHARS + 1 and kept.data.endswith("…")
    structured = message_entry(ServerNotification("notifications/message", {"data": {"n": [1, 2]}}, "GET"),
                               "server", "#3 ping")
    assert structured.data == '{"n":[1,2]}' and structured.level == "info" and structured.operation == "#3 ping"


def test_with_a_minimum_level_the_rows_follow_the_kept_entries(qtmodeltester) -> None:
    model = ServerLogModel()
    levels = ("debug", "info", "warning", "error", None)

    def line(number: int) -> LogEntry:
        level = levels[number % len(levels)]
        if level is None:
            return LogEntry(datetime.now(timezone.utc), None, None, {"roots": []}, "server", request="roots/list")
        return LogEntry(datetime.now(timezone.utc), level, "flood", f"line {number}", "server")

    model.set_minimum("warning")
    number = 0
    for size in (7, 3000, 2500, 1, 4999, 6000, 12):
        model.extend([line(n) for n in range(number, number + size)])
        number += size
        assert len(model.entries) == min(number, MAX_ENTRIES)
        assert model.rows == [entry for entry in model.entries if entry.level in ("warning", "error", None)]
    assert model.dropped == number - MAX_ENTRIES
    assert model.rowCount() == len(model.rows) == MAX_ENTRIES * 3 // 5
    model.set_minimum("debug")
    assert model.rowCount() == MAX_ENTRIES and model.rows == model.entries
    qtmodeltester.check(model)


def test_a_repaint_asks_the_model_once_per_cell_not_once_per_role(qtbot) -> None:
    # During a flood every call into Python waits for the interpreter lock the worker holds: Qt's
    # own delegate asked seven roles of each painted cell.
    calls = {"data": 0, "cell": 0}

    class Counting(ServerLogModel):
        def data(self, index, role=0):  # noqa: ANN001, ANN202
            calls["data"] += 1
            return super().data(index, role)

        def cell(self, row, column):  # noqa: ANN001, ANN202
            calls["cell"] += 1
            return super().cell(row, column)

    view = ServerLogView()
    qtbot.addWidget(view)
    view.model = Counting()
    view.table.setModel(view.model)
    view.resize(900, 300)
    view.show()
    qtbot.waitExposed(view)
    view.add_many([entry(n) for n in range(1, 201)])
    qtbot.waitUntil(lambda: view.table.rowAt(0) >= 0)  # laid out
    calls.update(data=0, cell=0)
    view.grab()  # paints every visible cell now
    shown = view.table.rowAt(view.table.viewport().height() - 1) - view.table.rowAt(0) + 1
    assert calls["data"] == 0
    assert 0 < calls["cell"] <= (shown + 1) * ServerLogModel.columnCount(view.model)
