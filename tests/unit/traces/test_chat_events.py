"""A Strands model call's conversation read from its span events (the real traces of tests/fixtures/otel/: Strands'
default events, the conventions' newest form with OTEL_SEMCONV_STABILITY_OPT_IN, and MLflow's tracing of the same
agent), said in the lines `runs show` and the step detail share; bounded, and what is not understood named by its
kind. The docs said "What the model was asked and answered" did not read events: those steps said nothing of it."""

from __future__ import annotations

import json

import pytest

from inspector.i18n import set_language
from inspector.store import RunStore
from inspector.traces.chat_events import read_event_conversation
from inspector.traces.chat_messages import MAX_MESSAGES, MAX_PART_CHARS, ChatPart
from inspector.traces.chat_words import conversation_lines
from inspector.transfer.importing import import_trace
from tests.unit.traces.test_otel_agents import FIXTURES

#: The last model call of the run whose `slow` call timed out: what it was asked and answered.
LAST_CALL = ["What the model was asked (as the trace recorded it):",
             "  system: Use the tools.",
             "  user: call lookup",
             '  assistant: calls the tool lookup with {"city":"Berlin"}',
             "  {tool}: the tool lookup answered: Berlin: 21 °C, clear",
             "  assistant: done",
             "  user: call fail",
             '  assistant: calls the tool fail with {"city":"Oslo"}',
             "  {tool}: the tool fail answered: Error executing tool fail",
             "  assistant: done",
             "  user: call slow",
             '  assistant: calls the tool slow with {"seconds":0.8}',
             "  {tool}: the tool slow answered: Tool execution failed: Request 'tools/call' timed out",
             "What the model answered (as the trace recorded it):",
             "  assistant: done"]


def _model_calls(tmp_path, fixture: str) -> list[dict]:
    with RunStore.open(str(tmp_path / "runs.db")) as store:
        report = import_trace(store, FIXTURES / fixture)
        timed_out = next(run for run in report.run_ids if store.get_run(run).status == "failed"
                         and any(step.payload.get("toolName") == "slow" for step in store.iter_steps(run)))
        return [step.payload for step in store.iter_steps(timed_out) if step.payload["kind"] == "llm"]


@pytest.mark.parametrize("fixture", ["strands.jsonl", "strands_mlflow.jsonl"])
def test_strands_default_events_say_the_conversation(tmp_path, fixture: str) -> None:
    first, *_, last = _model_calls(tmp_path, fixture)
    assert not set(first["raw"]["otlp"]["attributes"]) & {"gen_ai.input.messages", "gen_ai.output.messages"}
    assert conversation_lines(last) == [line.replace("{tool}", "tool") for line in LAST_CALL]
    said = read_event_conversation(first["raw"]["otlp"]["events"])
    assert said.answered.messages[0].parts == (ChatPart("tool_call", '{"seconds":0.8}', "slow"),)


def test_strands_newest_conventions_events_say_the_conversation(tmp_path) -> None:
    """Its `gen_ai.client.inference.operation.details` events hold the conventions' message attributes: the tool's
    answer as Strands' content list read as its text, named by the call's id (the conventions' part names no tool)."""
    last = _model_calls(tmp_path, "strands_latest.jsonl")[-1]
    lines = conversation_lines(last)
    assert lines[:4] == LAST_CALL[:4] and lines[-2:] == LAST_CALL[-2:]
    assert lines[4] == "  user: the answer to call_lookup_0: Berlin: 21 °C, clear"
    assert lines[-3] == "  user: the answer to call_slow_2: Tool execution failed: Request 'tools/call' timed out"


def test_the_conversation_in_german(tmp_path) -> None:
    last = _model_calls(tmp_path, "strands.jsonl")[-1]
    set_language("de")
    try:
        lines = conversation_lines(last)
    finally:
        set_language("en")
    assert lines[0] == "Was das Modell gefragt wurde (wie der Trace es aufgezeichnet hat):"
    assert '  assistant: ruft das Tool lookup mit {"city":"Berlin"} auf' in lines
    assert "  tool: das Tool lookup antwortete: Berlin: 21 °C, clear" in lines


def test_events_bounded_and_what_is_not_understood_named() -> None:
    long = json.dumps([{"text": "x" * (MAX_PART_CHARS + 9)}])
    many = [{"name": "gen_ai.user.message", "attributes": {"content": long}} for _ in range(MAX_MESSAGES + 3)]
    odd = {"name": "gen_ai.choice", "attributes": {"message": json.dumps([
        {"image": {"format": "png"}}, {"toolUse": {"toolUseId": "c1", "name": "lookup", "input": {"city": "Rom"}}},
        {"text": "<b>plain</b>\u202e"}, 7])}}
    said = read_event_conversation([*many, odd, {"name": "exception", "attributes": {"exception.type": "E"}}])
    assert len(said.asked.messages) == MAX_MESSAGES and said.asked.more == 3
    assert len(said.asked.messages[0].parts[0].text) == MAX_PART_CHARS + 1
    assert said.answered.messages[0].parts == (
        ChatPart("other", name="image"), ChatPart("tool_call", '{"city":"Rom"}', "lookup"),
        ChatPart("text", "<b>plain</b>\u202e"), ChatPart("other"))  # the text as written: shown as plain text
    assert read_event_conversation([{"name": "exception", "attributes": {}}, "not an event"]) is None
    assert read_event_conversation([]) is None


@pytest.mark.parametrize("name", [["gen_ai.user.message"], {"gen_ai.choice": 1}, 5, None])
def test_an_event_whose_name_is_no_text_is_passed_over(name: object) -> None:
    # A stranger's file in our format keeps a step's events as written: a name that is a list or an object was a
    # TypeError (unhashable) out of `runs show` and the step detail.
    events = [{"name": name, "attributes": {"content": "hidden"}},
              {"name": "gen_ai.user.message", "attributes": {"content": "call lookup"}}]
    payload = {"kind": "llm", "raw": {"otlp": {"events": events}}}
    assert conversation_lines(payload)[1:] == ["  user: call lookup"]
