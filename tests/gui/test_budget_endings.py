"""Budget endings from the window: a leg refused after a slow handshake, a stalled tool timed out."""

from __future__ import annotations

import time

from inspector.demo import DemoOptions, DemoServer
from inspector.gui.language import switch_language
from inspector.gui.workbench.operations_model import state_text
from inspector.store import RunStore, resolve_db_path
from tests.support.fault_server import Exchange, FaultServer


def finished(qtbot, task, timeout: int = 10000):
    if task.running:
        with qtbot.waitSignal(task.finished, timeout=timeout):
            pass
    return task.outcome


def test_a_slow_handshake_uses_the_budget_and_the_call_is_refused(qtbot, make_window) -> None:
    # Budget 1 s; each handshake leg takes 0.8 s: tools/call finds nothing left and is not sent.
    # The handshake era, pinned: the legs of its handshake are what this test counts (in the
    # stateless era the probe is made once, by the catalogue, and remembered).
    with DemoServer(DemoOptions(handshake_delay_s=0.8)) as demo:
        window = make_window((demo.url, "slow handshake"), budget_s=30, era="handshake")
        assert window.workbench.tools.select_tool("echo")
        window.admin.registry.save_server(demo.url, budget_s=1)
        window.admin.reload_servers()
        window.workbench.arguments.set_arguments({"text": "never sent"})
        calls_before = demo.state.calls["echo"]
        task = window.workbench.run_current_tool()
        outcome = finished(qtbot, task)
        assert outcome.status == "failed"
        assert outcome.record.error.kind.value == "exhausted_budget"
        assert task.state.ending == "refused"
        methods = [(leg.method, leg.outcome) for leg in task.state.legs]
        assert methods == [("initialize", "ok"), ("notifications/initialized", "ok"), ("tools/call", "not_sent")]
        window.workbench.operations.select(task)
        bar = window.workbench.operations.detail
        geometry = bar.current_geometry()
        refused = geometry.segments[-1]
        assert refused.kind == "not_sent" and refused.x > geometry.deadline_x
        assert geometry.end_text == "✗ failed: not sent"
        assert demo.state.calls["echo"] == calls_before  # the server was never asked
        window.shut_down()


def test_a_stalled_tool_with_budget_3_times_out_at_3_seconds(qtbot, make_window) -> None:
    def work(exchange: Exchange) -> None:
        if exchange.request.rpc_method == "tools/list":
            exchange.send_result({"tools": [{"name": "stall", "inputSchema": {"type": "object"}}]})
        else:
            exchange.stall()

    # The handshake era, pinned: this fault server speaks only the handshake and stalls on every
    # other method, server/discover too (a real server of that era refuses a method it does not know).
    with FaultServer(work=work) as server:
        window = make_window((server.url, "stalling"), budget_s=3, era="handshake")
        assert window.workbench.tools.select_tool("stall")
        began = time.monotonic()
        task = window.workbench.run_current_tool()
        outcome = finished(qtbot, task)
        took = time.monotonic() - began
        assert outcome.status == "failed"
        # At its budget (a grant of 4 s, or a leg that ran on, would be a second later); generous above
        # for a loaded machine (3.21 s seen in CI; benchmarks/deadline_precision.py measures it). The
        # GUI thread hears of it later still on a loaded machine (3.73 s seen with four test processes
        # on two cores): below 4 s, which a grant of 4 s could not be.
        assert 3.0 <= outcome.record.latency_ms / 1000 <= 3.5
        assert 3.0 <= took < 4.0
        assert task.state.ending == "timed_out"
        call = task.state.legs[-1]
        assert call.method == "tools/call" and call.granted_s == 3 and call.timed_out
        window.workbench.operations.select(task)
        geometry = window.workbench.operations.detail.current_geometry()
        assert geometry.segments[-1].kind == "timed_out"
        assert geometry.end_text == "✗ failed: timed out"
        # The Result tab's text is the stored time-out sentence: in German it is said in German.
        result = window.workbench.detail.result
        assert result.text.toPlainText().startswith("The server stalling did not finish answering tools/call")
        switch_language("de")
        try:
            result.show_task(task)
            assert result.text.toPlainText().startswith("Der Server stalling hat tools/call nicht innerhalb ")
        finally:
            switch_language("en")
        window.shut_down()
        with RunStore.open(resolve_db_path()) as store:
            assert store.get_run(outcome.run_id).status == "failed"


def test_a_grant_rounded_up_past_the_budget_is_said_so(qtbot, make_window, demo_server) -> None:
    """A budget of 1.5 s: tools/call is granted 2 s (what was left, rounded up to whole seconds) and runs
    past the deadline. While it does, the bar says how far past, not "0.0 s left", and its words say the
    grant was the rest of the budget rounded up (they read "0.3 s spent of a 2 s grant; 0.0 s of 1.5 s
    left"), in English and in German."""
    window = make_window((demo_server.url, "Demo server"), budget_s=1.5)
    assert window.workbench.tools.select_tool("hang")
    task = window.workbench.run_current_tool()
    window.workbench.operations.select(task)
    bar = window.workbench.operations.detail
    qtbot.waitUntil(lambda: task.running and bool(task.state.legs) and task.state.legs[-1].method == "tools/call"
                    and bar.now_s() > 1.7, timeout=10000)
    call = task.state.legs[-1]
    assert call.granted_s == 2 and call.running
    geometry = bar.current_geometry()
    assert geometry.end_text.endswith(" s over"), geometry.end_text
    assert "left of the budget, rounded up to whole seconds" in geometry.description
    assert "past the 1.5 s budget" in geometry.description, geometry.description
    segment = geometry.segments[-1]
    assert "grant 2 s (the " in segment.tooltip and " left of the budget, rounded up" in segment.tooltip
    # The operations list's row says it as the bar does.
    assert state_text(task).endswith(" s over"), state_text(task)
    switch_language("de")
    try:
        geometry = bar.current_geometry()
        assert geometry.end_text.endswith(" s überzogen") and "über dem Budget von 1,5 s" in geometry.description
    finally:
        switch_language("en")
    assert finished(qtbot, task).status == "failed"
    assert task.state.ending == "timed_out"
