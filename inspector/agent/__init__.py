"""MCP operations turned into run steps: a transport failure is a failed tool result, a cancel a
cancelled one. (The run loop and scripted scenarios are to live here too; they are not written yet.)
No Qt."""

from .operations import OperationRecord, execute_tool, list_tools_step, ping_step

__all__ = ["OperationRecord", "execute_tool", "list_tools_step", "ping_step"]
