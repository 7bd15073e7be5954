"""A model call's conversation read from its span attributes: the GenAI conventions (pydantic-ai's real
spans, tests/fixtures/otel/pydantic_ai.jsonl, and the array-attribute form), OpenInference's and Traceloop's
flattened attributes (as their instrumentations document them), bounded; what is not understood is left out."""

from __future__ import annotations

import json

from inspector.store import RunStore
from inspector.traces.chat_messages import MAX_MESSAGES, MAX_PART_CHARS, ChatPart, read_conversation
from inspector.transfer.importing import import_trace
from tests.unit.traces.test_otel_agents import FIXTURES


def test_pydantic_ais_chat_spans_say_the_tool_call_the_model_decided_on(tmp_path) -> None:
    with RunStore.open(str(tmp_path / "runs.db")) as store:
        import_trace(store, FIXTURES / "pydantic_ai.jsonl")
        (run,) = store.list_runs(limit=None)
        chats = [step.payload for step in store.iter_steps(run.id) if step.payload["kind"] == "llm"]
    first, second = (read_conversation(chat["raw"]["otlp"]["attributes"]) for chat in chats[:2])
    assert [(m.role, m.parts) for m in first.asked.messages] == [("user", (ChatPart("text", "call lookup"),))]
    assert first.answered.messages[0].parts == (ChatPart("tool_call", '{"city":"Berlin"}', "lookup"),)
    assert second.asked.messages[-1].parts == (
        ChatPart("tool_result", "Berlin: 21 °C, clear", "call_lookup_0", "lookup"),)
    assert second.answered.messages[0].parts == (ChatPart("text", "done"),)


def test_the_genai_messages_as_an_array_attribute_and_unknown_parts() -> None:
    said = read_conversation({"gen_ai.system_instructions": [{"type": "text", "content": "Be brief."}],
                              "gen_ai.input.messages": [{"role": "user", "parts": [
                                  {"type": "text", "content": "hi"}, {"type": "image", "uri": "x"}]}]})
    assert [(m.role, m.parts) for m in said.asked.messages] == [
        ("system", (ChatPart("text", "Be brief."),)),
        ("user", (ChatPart("text", "hi"), ChatPart("other", name="image")))]
    assert said.answered.messages == ()
    assert read_conversation({"gen_ai.input.messages": "not json"}) is None
    assert read_conversation({"gen_ai.operation.name": "chat"}) is None


def test_openinferences_flattened_messages() -> None:
    said = read_conversation({
        "llm.input_messages.0.message.role": "system", "llm.input_messages.0.message.content": "Be brief.",
        "llm.input_messages.1.message.role": "user",
        "llm.input_messages.1.message.contents.0.message_content.type": "text",
        "llm.input_messages.1.message.contents.0.message_content.text": "weather in Berlin?",
        "llm.input_messages.2.message.role": "tool", "llm.input_messages.2.message.tool_call_id": "c1",
        "llm.input_messages.2.message.content": "21 °C",
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "lookup",
        "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments": '{"city": "Berlin"}'})
    assert [(m.role, m.parts) for m in said.asked.messages] == [
        ("system", (ChatPart("text", "Be brief."),)), ("user", (ChatPart("text", "weather in Berlin?"),)),
        ("tool", (ChatPart("tool_result", "21 °C", "c1"),))]
    assert said.answered.messages[0].parts == (ChatPart("tool_call", '{"city":"Berlin"}', "lookup"),)


def test_traceloops_flattened_prompt_and_completion_bounded() -> None:
    attributes = {f"gen_ai.prompt.{number}.role": "user" for number in range(MAX_MESSAGES + 7)}
    attributes |= {f"gen_ai.prompt.{number}.content": "x" * (MAX_PART_CHARS + 10)
                   for number in range(MAX_MESSAGES + 7)}
    attributes |= {"gen_ai.completion.0.role": "assistant", "gen_ai.completion.0.finish_reason": "tool_calls",
                   "gen_ai.completion.0.tool_calls.0.name": "lookup",
                   "gen_ai.completion.0.tool_calls.0.arguments": json.dumps({"city": "Oslo"}),
                   f"gen_ai.prompt.{'9' * 5000}.role": "user"}
    said = read_conversation(attributes)
    assert len(said.asked.messages) == MAX_MESSAGES and said.asked.more == 7
    assert len(said.asked.messages[0].parts[0].text) == MAX_PART_CHARS + 1
    assert said.answered.messages[0].parts == (ChatPart("tool_call", '{"city":"Oslo"}', "lookup"),)


def test_a_conversation_with_a_whole_number_beyond_64_bits_is_still_said() -> None:
    """An id beyond 64 bits in a model's messages is read and said as it is."""
    said = read_conversation({"gen_ai.output.messages": json.dumps([{"role": "assistant", "parts": [
        {"type": "tool_call", "name": "lookup", "arguments": {"id": 2**64}}]}])})
    assert said.answered.messages[0].parts == (ChatPart("tool_call", '{"id":18446744073709551616}', "lookup"),)
