"""How the command line shows what an operation returned: tools, content blocks, progress.

Each function turns one part of a ``--json`` report (see ``docs/cli-json.md``) into readable
lines, so that the JSON and the readable output never say different things.
"""

from __future__ import annotations

from typing import Any

from inspector.mcp import tool_arguments


def tool_entry(tool: dict[str, Any]) -> dict[str, Any]:
    """A tool of the catalogue as ``--json`` shows it: the whole input schema, and its
    arguments read off that schema."""
    return {
        "name": tool.get("name"),
        "description": tool.get("description"),
        "input_schema": tool.get("inputSchema"),
        "arguments": [{"name": argument.name, "type": argument.type, "required": argument.required}
                      for argument in tool_arguments(tool)],
    }


def tool_lines(entry: dict[str, Any]) -> list[str]:
    """A tool in readable form: its name and description, then one line per argument."""
    line = f"  {entry['name']}"
    if entry.get("description"):
        line += f" - {str(entry['description']).splitlines()[0]}"
    lines = [line]
    arguments = entry.get("arguments") or []
    if not arguments:
        lines.append("      It takes no arguments.")
    for argument in arguments:
        if argument["required"]:
            lines.append("      {name} ({type}, required)".format(name=argument["name"], type=argument["type"]))
        else:
            lines.append("      {name} ({type}, optional)".format(name=argument["name"], type=argument["type"]))
    return lines
