"""The conformance adapter only turns a scenario into run-inspector command lines."""

from __future__ import annotations

import importlib.util
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
