"""A tool result another tool wrote as the JSON of an MCP content list (``gen_ai.tool.call.result``,
OpenInference's ``output.value``) is read as content blocks, as a live step's answer is; anything that
is not a valid content list stays the text it was."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector.store import RunStore
from inspector.traces.conventions import understand
from inspector.transfer.importing import import_trace
from tests.unit.traces.test_otel_agents import FIXTURES

LOOKUP_SERVER = "9cfa74f58e79d651"  # mcp_sdk.jsonl: the server's ``tools/call lookup``
BLOCKS = [{"type": "text", "text": "Berlin: 21 °C, clear"},
          {"type": "resource_link", "uri": "weather://berlin/today", "name": "today", "mimeType": "application/json"}]


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    opened = RunStore.open(str(tmp_path / "runs.db"))
    yield opened
    opened.close()


def test_a_content_list_in_the_server_s_result_attribute_becomes_the_step_s_blocks(store: RunStore,
                                                                                  tmp_path: Path) -> None:
    """The real trace of the mcp SDK, its server's ``tools/call lookup`` span carrying the tool's
    answer as GenAI's ``gen_ai.tool.call.result`` (a JSON string): it was one line of JSON text."""
    result = json.dumps(BLOCKS, ensure_ascii=False)
    lines = [json.loads(line) for line in (FIXTURES / "mcp_sdk.jsonl").read_text(encoding="utf-8").splitlines()]
    (lookup,) = [span for line in lines for rs in line["resourceSpans"] for scope in rs["scopeSpans"]
                 for span in scope["spans"] if span["spanId"] == LOOKUP_SERVER]
    lookup["attributes"].append({"key": "gen_ai.tool.call.result", "value": {"stringValue": result}})
    path = tmp_path / "with_result.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    import_trace(store, path)
    (run,) = [run for run in store.list_runs(limit=None) if run.title == "invoke_agent support-agent"]
    (step,) = [step for step in store.iter_steps(run.id) if step.payload.get("toolName") == "lookup"]
    assert step.outcome == "ok"
    assert step.payload["toolResult"] == "[1 block is not shown as text: 1 resource link.]\nBerlin: 21 °C, clear"
    assert step.payload["contentBlocks"] == [
        {"type": "text", "size": len("Berlin: 21 °C, clear".encode())},
        {"type": "resource_link", "uri": "weather://berlin/today", "name": "today", "mimeType": "application/json"}]
    assert "contentBlocksDropped" not in step.payload
    assert step.payload["raw"]["otlp"]["server"]["attributes"]["gen_ai.tool.call.result"] == result  # as it was


def _tool(result: Any, key: str = "gen_ai.tool.call.result") -> Any:
    attributes = {"openinference.span.kind": "TOOL", "tool.name": "lookup"} if key == "output.value" else {
        "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup"}
    return understand("lookup", 1, {**attributes, key: result})


@pytest.mark.parametrize("key", ["gen_ai.tool.call.result", "output.value"])
def test_openinference_and_genai_results_and_array_attributes_are_read(key: str) -> None:
    meaning = _tool(json.dumps(BLOCKS), key)
    assert meaning.result == "[1 block is not shown as text: 1 resource link.]\nBerlin: 21 °C, clear"
    assert meaning.blocks is not None and [block["type"] for block in meaning.blocks.blocks] == ["text",
                                                                                                  "resource_link"]
    as_array = _tool(BLOCKS, key)  # an array attribute of key-value lists, as OTLP can carry it
    assert as_array.blocks == meaning.blocks and as_array.result == meaning.result


@pytest.mark.parametrize("text", [
    "[]", '["a", "b"]', '[{"type": "text"}]', '[{"type": "text", "text": 5}]',
    '[{"type": "text", "text": "a"}, 5]', '[{"type": "video", "url": "https://example.org/v"}]',
    '[{"type": "image", "data": "aGk="}]', '[{"type": "resource_link", "uri": "x"}]',
    '[{"type": "resource", "resource": {"uri": "x"}}]', '[{"type": "resource", "resource": "x"}]',
    '[{"type": "text", "text": "a"}', "[1, 2, 3]",
])
def test_what_is_not_a_valid_content_list_stays_the_text_it_was(text: str) -> None:
    meaning = _tool(text)
    assert meaning.result == text and meaning.blocks is None


def test_a_long_list_keeps_its_first_hundred_blocks_and_counts_the_rest() -> None:
    blocks = [{"type": "text", "text": f"line {n}"} for n in range(150)]
    blocks.append({"type": "resource", "resource": {"uri": "file:///big.txt", "text": "x" * 20_000}})
    meaning = _tool(json.dumps(blocks))
    assert meaning.blocks is not None and len(meaning.blocks.blocks) == 100 and meaning.blocks.dropped == 51
    assert meaning.result is not None and meaning.result.endswith("line 149")
    few = _tool(json.dumps([{"type": "resource", "resource": {"uri": "file:///big.txt", "text": "x" * 20_000}},
                            {"type": "image", "data": "aGk=", "mimeType": "image/png"}]))
    assert few.blocks is not None
    resource, image = few.blocks.blocks
    assert resource["size"] == 20_000 and len(resource["text"].encode()) <= 10_000  # cut, with its note
    assert image == {"type": "image", "mimeType": "image/png", "size": 2}  # never the data
