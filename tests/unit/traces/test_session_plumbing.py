"""Traces of a session's plumbing alone, as real software writes them (tests/fixtures/otel/), are plumbing traces:
their spans are marked ``raw.otlp.plumbing`` and ``runs list`` leaves their runs out (``--all`` lists them); every
run with a step of anyone's work stays a run as before, and nothing of a span is lost (the round trip:
test_otlp_foreign_roundtrip.py reads these files too).

- OpenLIT on ``mcp`` 2.x (``openlit_mcp2.jsonl``): its server writes a ``mcp session/init`` span around each message
  a session dispatches, each a trace of its own: nine one-step runs beside the agent's. On ``mcp`` 1.x
  (``openlit.jsonl``) its server's set-up (the registration of each handler, ``mcp fastmcp/add_tool``) is seven
  more, and ``mcp session/init`` sits inside its server's run.
- The ``mcp`` SDK's server span of a notification received outside a request (``notifications/initialized``,
  ``notifications/cancelled``): a trace of its own, linked to no call (the client sends no trace context with it).
- Logfire's "Found propagated trace context" warning (``logfire_mcp2.jsonl``): a log in a trace of its own."""

from __future__ import annotations

import pytest

from inspector.store import RunStore
from inspector.store.plumbing_traces import plumbing_traces_among
from inspector.transfer.importing import import_trace
from tests.unit.traces.test_otel_agents import FIXTURES


def imported(store: RunStore, fixture: str) -> dict[str, list[tuple[str, str, bool]]]:
    """Each run of the file by its title and id, with its steps: (kind, span name, marked plumbing)."""
    run_ids = import_trace(store, FIXTURES / fixture).run_ids
    runs: dict[str, list[tuple[str, str, bool]]] = {}
    for run in store.list_runs(run_ids=list(run_ids), limit=None):
        steps = [(step.payload["kind"], step.payload["raw"]["otlp"]["name"],
                  step.payload["raw"]["otlp"].get("plumbing") is True) for step in store.iter_steps(run.id)]
        runs[f"{run.title} #{run.id}"] = steps
    return runs


def plumbing_titles(store: RunStore, run_ids: range) -> list[str]:
    hidden = plumbing_traces_among(store.db.conn, run_ids)
    return sorted(run.title for run in store.list_runs(run_ids=list(run_ids), limit=None) if run.id in hidden)


def test_openlit_session_init_traces_on_mcp2_are_plumbing_traces(empty_store: RunStore) -> None:
    runs = imported(empty_store, "openlit_mcp2.jsonl")
    assert len(runs) == 13
    alone = {title: steps for title, steps in runs.items() if len(steps) == 1}
    assert sorted(steps[0][1] for steps in alone.values()) == (
        ["mcp session/init"] * 9 + ["notifications/cancelled"] * 2 + ["notifications/initialized"])
    assert all(steps == [("request", steps[0][1], True)] for steps in alone.values())
    [agent] = [steps for title, steps in runs.items() if title.startswith("invoke_agent support-agent")]
    # The agent's run: its calls are steps as before (OpenLIT's transport/request and the spans around the making of
    # a call's coroutine were its plumbing already).
    assert sum(1 for kind, _, plumbing in agent if kind == "tool" and not plumbing) >= 4
    assert plumbing_titles(empty_store, range(1, 14)) == sorted(
        ["mcp session/init"] * 9 + ["notifications/cancelled"] * 2 + ["notifications/initialized"])
    assert empty_store.count_runs(plumbing_traces=False) == 1
    assert [run.title for run in empty_store.list_runs(plumbing_traces=False)] == ["invoke_agent support-agent"]


def test_openlit_server_set_up_on_mcp1_is_plumbing_and_its_run_stays(empty_store: RunStore) -> None:
    runs = imported(empty_store, "openlit.jsonl")
    setup = [steps for steps in runs.values() if len(steps) == 1]
    assert sorted(steps[0][1] for steps in setup) == sorted(
        ["mcp tools/list", "mcp tools/call", "mcp resources/list", "mcp resources/read"]
        + ["mcp fastmcp/add_tool"] * 3)
    assert all(steps[0][2] for steps in setup)
    # The server's run: session/init hidden in it, its calls' steps are not.
    [server] = [steps for steps in runs.values() if any(name == "mcp server/run" for _, name, _ in steps)]
    assert [plumbing for _, name, plumbing in server if name == "mcp session/init"] == [True]
    assert sorted(plumbing for _, name, plumbing in server if name == "mcp server/run") == [False, True]  # a coroutine
    assert sum(1 for kind, _, plumbing in server if kind == "tool" and not plumbing) >= 4
    assert empty_store.count_runs(plumbing_traces=False) == 2  # the agent's and the server's


@pytest.mark.parametrize(("fixture", "notifications"), [
    ("mcp_sdk.jsonl", 3), ("mcp_sdk_crash.jsonl", 1), ("google_adk.jsonl", 3), ("google_adk_legacy.jsonl", 3)])
def test_notifications_outside_a_request_are_plumbing_traces(empty_store: RunStore, fixture: str,
                                                             notifications: int) -> None:
    runs = imported(empty_store, fixture)
    alone = [steps for steps in runs.values() if all(name.startswith("notifications/") for _, name, _ in steps)]
    assert len(alone) == notifications and all(steps[0][2] for steps in alone)
    # The SDK's requests (initialize, tools/list, tools/call) are no plumbing: in the agent's runs as before.
    requests = [name for steps in runs.values() for _, name, plumbing in steps
                if plumbing and not name.startswith("notifications/")]
    assert requests == []
    assert empty_store.count_runs(plumbing_traces=True) == notifications
    assert empty_store.count_runs(plumbing_traces=False) == len(runs) - notifications > 0


def test_logfires_propagated_context_warning_is_a_plumbing_trace(empty_store: RunStore) -> None:
    runs = imported(empty_store, "logfire_mcp2.jsonl")
    [warning] = [steps for title, steps in runs.items() if title.startswith("Found propagated trace context")]
    assert warning == [("request", warning[0][1], True)]
    assert sorted(title.split(" #")[0] for title in runs if runs[title][0][2]) == [
        "Found propagated trace context. See https://logfire.pydantic.dev/docs/how-to-guides/distributed-tracing/"
        "#unintentional-distributed-tracing.", "notifications/cancelled", "notifications/cancelled",
        "notifications/initialized"]
    assert [run.title for run in empty_store.list_runs(plumbing_traces=False)] == ["support run for ACME"]


def test_no_run_of_anyones_work_is_a_plumbing_trace(empty_store: RunStore) -> None:
    """Of every real trace: a run with a tool or a model step, or a request that is no plumbing, is listed."""
    for fixture in sorted(path.name for path in FIXTURES.glob("*.jsonl")):
        run_ids = import_trace(empty_store, FIXTURES / fixture).run_ids
        hidden = plumbing_traces_among(empty_store.db.conn, run_ids)
        for run_id in run_ids:
            payloads = [step.payload for step in empty_store.iter_steps(run_id)]
            plumbing = all(payload["kind"] == "request" and payload["raw"]["otlp"].get("plumbing") is True
                           for payload in payloads)
            assert (run_id in hidden) == plumbing, (fixture, run_id)


def test_a_run_of_ours_and_an_empty_run_are_no_plumbing_traces(empty_store: RunStore) -> None:
    run_ids = import_trace(empty_store, FIXTURES / "mcp_sdk.jsonl").run_ids
    own = empty_store.start_run("call echo", "live", "http://127.0.0.1:1/mcp", status="ok")
    empty = empty_store.start_run("nothing yet", "imported", None, status="ok")
    hidden = plumbing_traces_among(empty_store.db.conn, [*run_ids, own, empty])
    assert own not in hidden and empty not in hidden and len(hidden) == 3
