"""The run loop and scripted scenarios; the bridge from MCP operations to run steps. No Qt."""

from .operations import OperationRecord, execute_tool, list_tools_step, ping_step

__all__ = ["OperationRecord", "execute_tool", "list_tools_step", "ping_step"]
