"""The operations engine: one worker loop, queued reports, cancel at once, runs stored like the CLI."""

from __future__ import annotations

import threading
import time

import pytest

from inspector.gui.workbench.engine import OperationsEngine
from inspector.gui.workbench.operation_task import OperationTask
from inspector.store import RunStore, ServerRegistry, resolve_db_path


@pytest.fixture
def engine(qtbot):
    engine = OperationsEngine(resolve_db_path())
    engine.start()
    yield engine
    engine.shutdown()


def finish(qtbot, task: OperationTask, timeout_ms: int = 10000):
    if task.running:
        with qtbot.waitSignal(task.finished, timeout=timeout_ms):
            pass
    return task.outcome


def test_reports_arrive_on_the_gui_thread_and_the_run_is_stored(qtbot, engine, sdk_server) -> None:
    threads = []
    task = engine.call_tool(sdk_server.endpoint, "echo", {"text": "hello"}, budget_s=10)
    task.changed.connect(lambda: threads.append(threading.current_thread()))
    outcome = finish(qtbot, task)
    assert outcome.status == "ok"
    assert outcome.record.tool_result.content == "hello"
    assert set(threads) == {threading.main_thread()}
    assert [leg.method for leg in task.state.legs] == ["initialize", "notifications/initialized", "tools/call"]
    assert task.state.ending == "ok"
    with RunStore.open(resolve_db_path()) as store:
        run = store.get_run(outcome.run_id)
        assert (run.title, run.source, run.status, run.server) == ("tools/call echo", "live", "ok", sdk_server.url)
        [stored] = list(store.iter_steps(run.id))
        assert [leg.method for leg in stored.step.legs] == ["initialize", "notifications/initialized", "tools/call"]
        health = ServerRegistry(store.db).get(sdk_server.url)
        assert (health.ok_count, health.failed_count, health.cancelled_count) == (1, 0, 0)


def test_cancel_reaches_the_operation_at_once_and_is_never_a_failure(qtbot, engine, sdk_server) -> None:
    task = engine.call_tool(sdk_server.endpoint, "slow", {"seconds": 30}, budget_s=40)
    assert sdk_server.events.started.wait(10)
    fired = time.monotonic()
    task.cancel()
    outcome = finish(qtbot, task)
    assert time.monotonic() - fired < 1.0
    assert outcome.status == "cancelled"
    assert task.state.ending == "cancelled"
    assert task.state.legs[-1].outcome == "cancelled"
    assert sdk_server.events.cancelled.wait(5), "the server never saw the cancel"
    with RunStore.open(resolve_db_path()) as store:
        assert store.get_run(outcome.run_id).status == "cancelled"
        health = ServerRegistry(store.db).get(sdk_server.url)
        assert (health.ok_count, health.failed_count, health.cancelled_count) == (0, 0, 1)


def test_three_operations_at_once_each_end_on_its_own(qtbot, engine, sdk_server) -> None:
    first = engine.call_tool(sdk_server.endpoint, "slow", {"seconds": 30}, budget_s=40)
    second = engine.call_tool(sdk_server.endpoint, "slow", {"seconds": 0.5}, budget_s=40)
    third = engine.call_tool(sdk_server.endpoint, "echo", {"text": "three"}, budget_s=40)
    assert finish(qtbot, third).status == "ok"
    assert finish(qtbot, second).status == "ok"
    assert first.running
    first.cancel()
    assert finish(qtbot, first).status == "cancelled"
    assert len({first.outcome.run_id, second.outcome.run_id, third.outcome.run_id}) == 3


def test_shutdown_cancels_what_runs_and_leaves_no_thread(qtbot, sdk_server) -> None:
    engine = OperationsEngine(resolve_db_path())
    engine.start()
    thread = engine.thread
    task = engine.call_tool(sdk_server.endpoint, "slow", {"seconds": 30}, budget_s=40)
    assert sdk_server.events.started.wait(10)
    began = time.monotonic()
    assert engine.shutdown()
    assert time.monotonic() - began < 2.5
    assert not thread.is_alive()
    assert sdk_server.events.cancelled.wait(5)
    with RunStore.open(resolve_db_path()) as store:
        [run] = store.list_runs()
        assert run.status == "cancelled"
    assert task.cancel_signal.fired


def test_without_a_database_nothing_is_stored(qtbot, sdk_server) -> None:
    engine = OperationsEngine(None)
    try:
        task = engine.ping(sdk_server.endpoint, budget_s=5)
        outcome = finish(qtbot, task)
        assert outcome.status == "ok" and outcome.run_id is None
        assert outcome.record.result.protocol_version
    finally:
        engine.shutdown()


def test_cancel_sends_notifications_cancelled_for_the_request_on_the_wire(qtbot, engine) -> None:
    from inspector.mcp import ServerEndpoint
    from tests.support.fault_server import FaultServer

    def work(exchange) -> None:
        exchange.stall()

    # A session id lets the notice name the request (without one, no notice is sent at all).
    # The handshake era, pinned: notifications/cancelled is that era's cancel (the stateless era
    # closes the response stream), and this fault server stalls on server/discover as on all else.
    with FaultServer("session", work=work) as server:
        submitted = time.monotonic()
        task = engine.call_tool(ServerEndpoint(server.url, era="handshake"), "stall", {}, budget_s=30)
        # The GUI thread only hands the work over: 0.5 ms, 36 ms seen on a loaded machine. Were it to do
        # the work, it would wait for this server, which stalls (the whole 30 s budget).
        assert time.monotonic() - submitted < 1.0
        assert server.wait_until(lambda: bool(server.posts("tools/call")), 10)
        task.cancel()
        assert finish(qtbot, task).status == "cancelled"
        [call] = server.posts("tools/call")
        assert server.wait_until(lambda: bool(server.posts("notifications/cancelled")), 5)
        [notice] = server.posts("notifications/cancelled")
        assert notice.params["requestId"] == call.rpc_id
        assert task.outcome.record.error.in_flight


def test_a_stored_operations_requests_name_its_runs_trace_and_legs(qtbot, engine) -> None:
    from inspector.mcp import ServerEndpoint
    from inspector.runs.trace_ids import leg_span_id, trace_id
    from tests.support.fault_server import FaultServer

    server = FaultServer("session")
    try:
        task = engine.call_tool(ServerEndpoint(server.url, era="handshake"), "echo", {"text": "hi"}, budget_s=10)
        outcome = finish(qtbot, task)
        assert outcome.status == "ok"
        requests = [got for got in server.posts() if got.rpc_id is not None]
    finally:
        server.close()
    with RunStore.open(resolve_db_path()) as store:
        uid = store.get_run(outcome.run_id).uid
        [stored] = list(store.iter_steps(outcome.run_id))
    positions = {leg.method: position for position, leg in enumerate(stored.step.legs)}
    assert [got.rpc_method for got in requests] == ["initialize", "tools/call"]
    for got in requests:
        expected = f"00-{trace_id(uid)}-{leg_span_id(uid, stored.sequence, positions[got.rpc_method])}-01"
        assert got.headers["traceparent"] == got.params["_meta"]["traceparent"] == expected


def test_a_database_that_cannot_be_written_still_runs_the_call_and_says_so(qtbot, monkeypatch, sdk_server) -> None:
    """SQLite's refusal to write (a full disk, a read-only file) ended the operation before it was sent,
    as "The operation stopped on an internal error: OperationalError", with no result."""
    from tests.integration.test_cli_notes import stores_only_read

    RunStore.open(resolve_db_path()).close()
    stores_only_read(monkeypatch)
    engine = OperationsEngine(resolve_db_path())
    engine.start()
    try:
        outcome = finish(qtbot, engine.call_tool(sdk_server.endpoint, "echo", {"text": "hello"}, budget_s=10))
    finally:
        engine.shutdown()
    assert outcome.internal_error is None and outcome.status == "ok"
    assert outcome.record.tool_result.content == "hello" and outcome.run_id is None
    side_file = resolve_db_path().parent / "unsaved-runs" / outcome.store_problem.split("written to ")[1].split(
        " instead")[0].rpartition("/")[2]
    assert outcome.store_problem == (
        f"The run could not be stored in {resolve_db_path()} (attempt to write a readonly database): it was "
        f"written to {side_file} instead; File › Open trace… adds it to the database later.")
    assert side_file.is_file()


def test_a_lock_at_the_end_keeps_the_record_in_a_side_file_that_imports_whole(qtbot, sdk_server) -> None:
    """Another program takes the lock while the operation runs: the steps, the run's end and the health
    were three transactions, and the record was lost ("The run could not be stored completely: database is
    locked"), its run left "running" with no step until the window ended. Now it is one transaction, and the
    record goes to a side file, which the window's import brings back whole under the run's uid."""
    import subprocess
    import sys
    from pathlib import Path

    from inspector.transfer import import_trace
    from tests.integration.test_damaged_database import HOLDER

    path = resolve_db_path()
    RunStore.open(path).close()
    engine = OperationsEngine(path)
    engine.start()
    assert engine.worker.store is not None
    sdk_server.events.started.clear()
    holder = None
    try:
        task = engine.call_tool(sdk_server.endpoint, "slow", {"seconds": 0.5}, budget_s=10)
        assert sdk_server.events.started.wait(10)  # the run's first row is written before the call is sent
        holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        outcome = finish(qtbot, task)
    finally:
        if holder is not None:
            holder.communicate(timeout=10)
    assert outcome.status == "ok" and outcome.run_id is None
    assert outcome.store_problem.startswith(f"The run could not be stored in {path} (database is locked): it was "
                                            "written to ")
    side_file = Path(outcome.store_problem.split("written to ")[1].split(" instead")[0])
    assert side_file.parent == path.parent / "unsaved-runs"
    try:
        with RunStore.open(path) as store:
            (first,) = store.list_runs()  # the lock kept the first row: running, this process's, no step
            assert first.status == "running" and store.get_run(first.id).step_count == 0
            report = import_trace(store, side_file)
            (run,) = store.list_runs()
            assert report.runs_imported == 1 and run.uid == first.uid and run.status == "ok"
            assert [stored.step.kind for stored in store.iter_steps(run.id)] == ["tool"]
    finally:
        engine.shutdown()


def test_a_database_deleted_while_the_window_has_it_open_gets_no_more_runs(qtbot, sdk_server) -> None:
    """SQLite goes on writing into a deleted file (WAL mode notices nothing): the result said "Stored as run
    3" of a run no one would ever read again. Now the record goes to a side file, and the result says why."""
    path = resolve_db_path()
    RunStore.open(path).close()
    engine = OperationsEngine(path)
    engine.start()
    try:
        path.unlink()
        outcome = finish(qtbot, engine.call_tool(sdk_server.endpoint, "echo", {"text": "kept"}, budget_s=10))
    finally:
        engine.shutdown()
    assert outcome.status == "ok" and outcome.run_id is None
    assert outcome.store_problem.startswith(f"The run could not be stored in {path} (the file was deleted or replaced "
                                            "while it was open): it was written to ")
    (side_file,) = (path.parent / "unsaved-runs").iterdir()
    assert str(side_file) in outcome.store_problem and not path.exists()


def test_a_database_locked_before_the_call_does_not_hold_the_call_back(qtbot, sdk_server) -> None:
    """The run's first row waited the store's 10 s for the lock on the worker's loop, before anything was sent
    (every other operation and every cancel waited too), and its end 10 s more: 10.4 s to the first leg, 20.8 s
    to the end of an echo. Now 0.1 s and 1 s, as the command line waits; the record goes to a side file."""
    import subprocess
    import sys

    from tests.integration.test_damaged_database import HOLDER

    path = resolve_db_path()
    RunStore.open(path).close()
    engine = OperationsEngine(path)
    engine.start()
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        began = time.monotonic()
        outcome = finish(qtbot, engine.call_tool(sdk_server.endpoint, "echo", {"text": "hello"}, budget_s=5),
                         timeout_ms=30000)
        took = time.monotonic() - began
    finally:
        holder.communicate(timeout=10)
        engine.shutdown()
    assert outcome.status == "ok" and outcome.run_id is None and "(database is locked)" in outcome.store_problem
    assert took < 8, took
