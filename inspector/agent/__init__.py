"""The run loop and scripted scenarios; the bridge from MCP operations to run steps. No Qt."""

from .loop import DEFAULT_MAX_ROUNDS, AgentOutcome, AgentRun, tool_specs
from .model import ChatModel, ModelError, ModelRequest, ModelTurn, ToolCall, ToolFeedback
from .operations import OperationRecord, execute_tool, list_tools_step, ping_step
from .recording import NullSink, RunSink, StoreSink
from .scenario import Scenario, ScenarioError, load_scenario, parse_scenario, shipped_scenarios
from .scripted import ScriptedModel

__all__ = [
    "DEFAULT_MAX_ROUNDS", "AgentOutcome", "AgentRun", "ChatModel", "ModelError", "ModelRequest", "ModelTurn",
    "NullSink", "OperationRecord", "RunSink", "Scenario", "ScenarioError", "ScriptedModel", "StoreSink", "ToolCall",
    "ToolFeedback", "execute_tool", "list_tools_step", "load_scenario", "parse_scenario", "ping_step",
    "shipped_scenarios", "tool_specs",
]
