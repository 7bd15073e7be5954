"""A model step records the conversation it was sent; the messages are frozen once and shared by
the steps that follow (a run of 200 rounds froze 40,000 messages before), and each step still holds
exactly what was sent in its round."""

from __future__ import annotations

import asyncio
import json

from inspector.agent import ScriptedModel, parse_scenario
from inspector.agent.loop import AgentRun
from inspector.mcp import ServerEndpoint
from inspector.runs import StepKind
from inspector.runs._frozen import FrozenMap, freeze, thaw


def test_each_model_step_holds_what_it_was_sent_and_shares_the_messages_frozen_before(demo_server) -> None:
    script = parse_scenario(json.dumps({
        "scenario": 1, "name": "t", "description": "d", "prompt": "echo thrice", "final": "Done.",
        "give_up": "Gave up.", "list_tools": True,
        "rounds": [{"say": f"round {number}", "calls": [{"tool": "echo", "arguments": {"text": f"hi {number}"}}]}
                   for number in range(3)]}), "t.json")
    outcome = asyncio.run(AgentRun(ScriptedModel(script), ServerEndpoint(demo_server.url), "echo thrice",
                                   budget_s=10).run())
    assert outcome.status == "ok"
    model_steps = [step for step in outcome.trace.steps if step.kind is StepKind.LLM]
    assert len(model_steps) == 4
    # Round n was sent the prompt and two messages (the model's turn, the tool's answer) per round before.
    assert [len(step.messages_sent) for step in model_steps] == [1, 3, 5, 7]
    first, last = model_steps[0], model_steps[-1]
    assert thaw(first.messages_sent) == [{"role": "user", "content": "echo thrice"}]
    assert thaw(last.messages_sent)[6]["role"] == "tool" and "hi 2" in thaw(last.messages_sent)[6]["content"]
    # Frozen once: a later step holds the very messages the earlier ones hold, and the same specs.
    assert all(later.messages_sent[index] is earlier.messages_sent[index]
               for earlier, later in zip(model_steps, model_steps[1:], strict=False)
               for index in range(len(earlier.messages_sent)))
    assert len(first.tool_specs) > 3 and all(
        mine is theirs for mine, theirs in zip(last.tool_specs, first.tool_specs, strict=True))


def test_freezing_a_frozen_map_gives_it_back() -> None:
    frozen = freeze({"a": [1, {"b": "c"}]})
    assert type(frozen) is FrozenMap and freeze(frozen) is frozen and freeze((frozen,))[0] is frozen
