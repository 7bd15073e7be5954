"""The run loop and scripted scenarios; the bridge from MCP operations to run steps. No Qt."""

from __future__ import annotations

import importlib
from typing import Any

from .operations import OperationRecord, execute_tool, list_tools_step, ping_step

# The loop, the models and the scenarios load on first use: `call`, `tools` and `ping` need only
# the operations above, and should not pay for the rest at start-up.
_LAZY = {
    "DEFAULT_MAX_ROUNDS": "loop", "AgentOutcome": "loop", "AgentRun": "loop", "tool_specs": "loop",
    "ChatModel": "model", "ModelError": "model", "ModelRequest": "model", "ModelTurn": "model",
    "TextListener": "model", "ToolCall": "model", "ToolFeedback": "model",
    "NullSink": "recording", "RunSink": "recording", "StoreSink": "recording",
    "Scenario": "scenario", "ScenarioError": "scenario", "load_scenario": "scenario",
    "parse_scenario": "scenario", "shipped_scenarios": "scenario",
    "ScriptedModel": "scripted", "Voice": "scripted",
}

__all__ = ["OperationRecord", "execute_tool", "list_tools_step", "ping_step", *_LAZY]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
