"""The conformance adapter only turns a scenario into run-inspector command lines."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_adapter():
    spec = importlib.util.spec_from_file_location("conformance_client", ROOT / "conformance" / "client.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_each_scenario_becomes_command_lines() -> None:
    adapter = load_adapter()
    url = "http://localhost:1234/mcp"
    assert adapter.command_lines("elicitation-sep1034-client-defaults", url) == [
        ["call", url, "test_client_elicitation_defaults", "--elicit", "defaults", "--no-store", "--budget", "20"]]
    assert adapter.command_lines("sse-retry", url)[0][:3] == ["call", url, "test_reconnection"]
    assert adapter.command_lines("tools_call", url)[0][:5] == ["call", url, "add_numbers", "--args", '{"a": 5, "b": 3}']
    # A scenario it does not know yet gets a catalogue walk: the handshake and a request.
    assert adapter.command_lines("something-new", url) == [["tools", url, "--no-store", "--budget", "20"]]


def test_a_schema_echo_takes_the_tools_input_schema_as_tools_json_printed_it() -> None:
    adapter = load_adapter()
    url = "http://localhost:1234/mcp"
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {"a": {"$anchor": "a"}},
              "additionalProperties": False}
    asked = []

    def catalogue() -> list[dict]:
        asked.append(1)
        return [{"name": "other"}, {"name": "json_schema_2020_12_tool", "inputSchema": schema}]

    (line,) = adapter.command_lines("json-schema-2020-12-preservation", url)
    filled = adapter.fill_schemas(line, catalogue)
    assert filled[:3] == ["call", url, "json_schema_echo"]
    assert json.loads(filled[filled.index("--args") + 1]) == {"schema": schema}
    assert adapter.fill_schemas(["tools", url], catalogue) == ["tools", url] and len(asked) == 1
