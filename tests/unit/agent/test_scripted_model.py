"""The scripted model's reactions, and how a tool's end is told back to a model (no network)."""

from __future__ import annotations

import asyncio
import json

import pytest

from inspector.agent import ModelRequest, ScriptedModel, ToolCall, ToolFeedback, parse_scenario, shipped_scenarios
from inspector.runs import ToolResult


def scenario(**round_options):
    return parse_scenario(json.dumps({
        "scenario": 1, "name": "t", "description": "d", "prompt": "p", "final": "Finished.", "give_up": "Giving up.",
        "rounds": [{"say": "one", "calls": [{"tool": "a", "arguments": {"n": 1}}], **round_options},
                   {"say": "two", "calls": [{"tool": "b"}]}]}), "test.json")


def ask(model: ScriptedModel, round_number: int, *feedback: ToolFeedback):
    return asyncio.run(model.respond(ModelRequest(round_number, (), (), feedback)))


def fed(turn, result: ToolResult) -> ToolFeedback:
    return ToolFeedback(turn.tool_calls[0], result)


def test_the_script_is_played_in_order_then_the_final_answer():
    model = ScriptedModel(scenario())
    first = ask(model, 1)
    assert (first.content, [(c.name, c.arguments) for c in first.tool_calls]) == ("one", [("a", {"n": 1})])
    second = ask(model, 2, fed(first, ToolResult.text("fine")))
    assert [c.name for c in second.tool_calls] == ["b"]
    last = ask(model, 3, fed(second, ToolResult.text("fine")))
    assert (last.content, last.tool_calls, last.finish_reason) == ("Finished.", (), "stop")
    assert len({first.tool_calls[0].id, second.tool_calls[0].id}) == 2


def test_after_a_failure_continue_is_the_default():
    model = ScriptedModel(scenario())
    first = ask(model, 1)
    assert [c.name for c in ask(model, 2, fed(first, ToolResult.error("no"))).tool_calls] == ["b"]


def test_after_a_failure_retry_repeats_the_call_as_often_as_allowed():
    model = ScriptedModel(scenario(on_failure="retry", retries=2))
    first = ask(model, 1)
    again = ask(model, 2, fed(first, ToolResult.error("no")))
    assert [(c.name, c.arguments) for c in again.tool_calls] == [("a", {"n": 1})]
    assert "try a again" in again.content
    third = ask(model, 3, fed(again, ToolResult.error("no")))
    assert [c.name for c in third.tool_calls] == ["a"]
    onwards = ask(model, 4, fed(third, ToolResult.error("still no")))
    assert [c.name for c in onwards.tool_calls] == ["b"]  # retries spent: on with the script


def test_after_a_failure_stop_gives_up():
    model = ScriptedModel(scenario(on_failure="stop"))
    first = ask(model, 1)
    assert ask(model, 2, fed(first, ToolResult.error("no"))).content == "Giving up."
    assert ask(model, 3).tool_calls == ()  # nothing more is scripted after giving up


def test_the_final_answer_is_not_claimed_when_a_tool_did_not_work():
    """A run against a server that is down went on through every round (``continue``): its last
    answer says which tools did not work instead of the scripted result."""
    model = ScriptedModel(scenario())
    first = ask(model, 1)
    second = ask(model, 2, fed(first, ToolResult.error("unreachable")))
    last = ask(model, 3, fed(second, ToolResult.error("unreachable")))
    assert (last.content, last.tool_calls) == ("I could not do all that was asked: a and b did not work.", ())


def test_a_retry_that_worked_leaves_the_final_answer_as_scripted():
    model = ScriptedModel(scenario(on_failure="retry"))
    first = ask(model, 1)
    again = ask(model, 2, fed(first, ToolResult.error("flaky")))
    second = ask(model, 3, fed(again, ToolResult.text("worked")))
    assert ask(model, 4, fed(second, ToolResult.text("fine"))).content == "Finished."


@pytest.mark.parametrize("reaction, expected", [("stop", "Giving up."), ("continue", "two"), ("retry", None)])
def test_after_a_cancel_the_round_says_what_to_do(reaction, expected):
    model = ScriptedModel(scenario(on_cancel=reaction))
    first = ask(model, 1)
    turn = ask(model, 2, fed(first, ToolResult.cancelled("cut", in_flight=True)))
    if expected is None:
        assert [c.name for c in turn.tool_calls] == ["a"]
    else:
        assert turn.content == expected


def test_failed_and_cancelled_are_told_apart():
    call = ToolCall("c1", "write_note", {})
    failed = ToolFeedback(call, ToolResult.error("The server said no.")).told()
    in_flight = ToolFeedback(call, ToolResult.cancelled("cut", in_flight=True)).told()
    before = ToolFeedback(call, ToolResult.cancelled("cut", in_flight=False)).told()
    ok = ToolFeedback(call, ToolResult.text("Note 1 written.")).told()
    assert failed.startswith("FAILED:") and "The server said no." in failed
    assert in_flight.startswith("CANCELLED:") and "unknown" in in_flight and "did not fail" in in_flight
    assert before.startswith("CANCELLED:") and "before it was sent" in before and "did not take effect" in before
    assert ok == "Note 1 written."


def test_every_shipped_scenario_has_a_one_line_description():
    for name, shipped in shipped_scenarios().items():
        assert shipped.name == name and "\n" not in shipped.description and shipped.description.endswith(".")


def test_the_example_in_the_documentation_is_a_valid_scenario():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[3] / "docs" / "scenarios.md").read_text(encoding="utf-8")
    example = text.split("```json\n", 1)[1].split("```", 1)[0]
    assert parse_scenario(example, "docs/scenarios.md").name == "note-twice"


def test_the_model_s_own_sentences_are_said_by_its_voice_and_the_defaults_are_ours():
    """What the scripted model says of its own (a retry, the tools that did not work, the answers of
    a scenario without ``final`` or ``give_up``) goes through the voice the caller gives it."""
    from inspector.agent import Voice
    from inspector.i18n import _, set_language
    from inspector.i18n.formatting import joined

    bare = parse_scenario(json.dumps({
        "scenario": 1, "name": "t", "description": "d", "prompt": "p",
        "rounds": [{"say": "one", "calls": [{"tool": "a"}, {"tool": "b"}, {"tool": "c"}],
                    "on_failure": "retry"}]}), "test.json")
    set_language("de")
    try:
        model = ScriptedModel(bare, Voice(_, joined))
        first = ask(model, 1)
        failed = [ToolFeedback(call, ToolResult.error("no")) for call in first.tool_calls]
        again = ask(model, 2, *failed)
        assert again.content == "Das hat nicht funktioniert; ich versuche a, b und c noch einmal."
        last = ask(model, 3, *[ToolFeedback(call, ToolResult.error("no")) for call in again.tool_calls])
        assert last.content == ("Ich konnte nicht alles tun, worum gebeten wurde: Mit a, b und c hat es "
                                "nicht geklappt.")
        fine = ScriptedModel(bare, Voice(_, joined))
        first = ask(fine, 1)
        assert ask(fine, 2, *[ToolFeedback(call, ToolResult.text("ok")) for call in first.tool_calls]).content \
            == "Ich bin fertig."
        stopping = parse_scenario(json.dumps({
            "scenario": 1, "name": "t", "description": "d", "prompt": "p",
            "rounds": [{"say": "one", "calls": [{"tool": "a"}], "on_failure": "stop"}]}), "test.json")
        quitter = ScriptedModel(stopping, Voice(_, joined))
        first = ask(quitter, 1)
        assert ask(quitter, 2, fed(first, ToolResult.error("no"))).content == \
            "Ich höre hier auf: Ein Tool hat mir nicht gegeben, was ich brauchte."
    finally:
        set_language("en")
    # Without a voice: English, as the agent layer says it.
    model = ScriptedModel(bare)
    first = ask(model, 1)
    again = ask(model, 2, *[ToolFeedback(call, ToolResult.error("no")) for call in first.tool_calls])
    assert again.content == "That did not work; I will try a, b and c again."
