"""What a replay of a stored step sends (inspector.runs.replaying), and the links between runs
(inspector.store.replays) in a real SQLite file."""

from __future__ import annotations

import pytest

from inspector.runs import Leg, RunStep, StepKind
from inspector.runs.replaying import NotReplayable, ReplayLink, plan_replay
from inspector.store import RunStore
from inspector.store.replays import note_replay, replay_step_ids, replayed_step_id, replays_by_step


def _tool(**fields) -> RunStep:
    return RunStep(kind=StepKind.TOOL, round=0, duration_ms=5.0, tool_name="echo", **fields)


def test_the_plan_keeps_tool_arguments_and_the_recorded_budget() -> None:
    step = _tool(tool_arguments={"text": "a", "nested": {"list": [1, 2]}}, budget_s=7.5,
                 legs=(Leg("tools/call", 8, 3.0, 200, "ok"),))
    plan = plan_replay("uid1", "live", "http://127.0.0.1:1/mcp", 3, step)
    assert (plan.tool, plan.arguments, plan.budget_s, plan.server) == (
        "echo", {"text": "a", "nested": {"list": [1, 2]}}, 7.5, "http://127.0.0.1:1/mcp")
    assert plan.link == ReplayLink("uid1", 3) and plan.link.key() == "uid1:3"
    assert isinstance(plan.arguments["nested"]["list"], list)  # plain JSON again, ready to send


def test_without_a_recorded_budget_the_first_legs_grant_is_the_budget_else_none() -> None:
    step = _tool(legs=(Leg("initialize", 4, 1.0, 200, "ok"), Leg("tools/call", 3, 1.0, 200, "ok")))
    assert plan_replay("u", "scenario", None, 1, step).budget_s == 4.0
    assert plan_replay("u", "live", None, 1, _tool()).budget_s is None


def test_an_imported_step_names_no_server_and_an_empty_reference_array_is_no_arguments() -> None:
    plan = plan_replay("u", "imported", "http://somewhere/mcp", 1, _tool(tool_arguments=()))
    assert plan.server is None and plan.arguments == {}


def test_a_step_that_called_no_tool_cannot_be_replayed() -> None:
    with pytest.raises(NotReplayable):
        plan_replay("u", "live", None, 1, RunStep(kind=StepKind.LLM, round=1, duration_ms=1.0))
    with pytest.raises(NotReplayable):
        plan_replay("u", "live", None, 1, RunStep(kind=StepKind.TOOL, round=1, duration_ms=1.0))


@pytest.mark.parametrize("value", [None, [], "uid:1", {"run": "", "step": 1}, {"run": "u", "step": 0},
                                   {"run": "u", "step": True}, {"run": 5, "step": 1}, {"run": "u", "step": "1"}])
def test_a_link_that_makes_no_sense_is_no_link(value: object) -> None:
    assert ReplayLink.from_payload(value) is None


def test_replays_are_found_by_step_and_the_replayed_step_by_link(tmp_path) -> None:
    with RunStore.open(tmp_path / "runs.db") as store:
        original = store.start_run("tools/call echo", "live", "http://x/mcp", uid="a" * 32)
        store.append_step(original, _tool())
        store.append_step(original, _tool())
        other = store.start_run("tools/call echo", "live", "http://x/mcp", uid="a" * 31 + "b")  # a uid sharing a prefix
        store.append_step(other, _tool())
        link = ReplayLink("a" * 32, 2)
        replays = []
        for _ in range(2):
            replay = store.start_run("tools/call echo", "live", "http://x/mcp")
            step_id = store.append_step(replay, link.marked(_tool()))
            note_replay(store, replay, link)
            store.finish_run(replay, "ok")
            replays.append((replay, step_id))
        assert replays_by_step(store, "a" * 32) == {2: [(replays[0][0], "ok"), (replays[1][0], "ok")]}
        assert replays_by_step(store, "a" * 31 + "b") == {}
        assert replay_step_ids(store, link) == replays
        assert replay_step_ids(store, ReplayLink("a" * 32, 1)) == []
        [second] = [stored for stored in store.iter_steps(original) if stored.sequence == 2]
        assert replayed_step_id(store, link) == (original, second.id)
        assert replayed_step_id(store, ReplayLink("gone", 1)) is None
        assert store.step_at(replays[0][0], 1).step.replay_of == {"run": "a" * 32, "step": 2}
        assert store.step_at(original, 9) is None
