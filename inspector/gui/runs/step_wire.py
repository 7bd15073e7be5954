"""What the step detail says about how a step's server was reached: one line under the summary
(transport, revision, command line) and the text of its stderr tab (the lines the server wrote
on stderr during the step, and the faults of its line). All of it plain text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from inspector.i18n import _
from inspector.i18n.wire import command_line, line_problem_lines, stderr_lines, transport_line
from inspector.runs import Leg

from ..widgets.plain_text import cell_text, clip_text

#: How much of the command line the line under the summary shows (the stderr tab has it whole).
SHOWN_COMMAND_CHARS = 160


def with_legs(payload: Mapping[str, Any], legs: Sequence[Leg]) -> dict[str, Any]:
    """A stored step's payload with its legs, which the database keeps in their own table: as a trace holds
    the step, and as :func:`wire_summary` reads whether its server answered."""
    whole = dict(payload)
    if legs:
        whole["legs"] = [leg.to_dict() for leg in legs]
    return whole


def wire_summary(payload: Mapping[str, Any]) -> str:
    """"Reached over stdio, MCP 2025-06-18 · Command: npx -y …" ('' for a step that does not say)."""
    parts = [transport_line(payload), command_line(payload)]
    return " · ".join(cell_text(part, SHOWN_COMMAND_CHARS) for part in parts if part)


def stderr_text(payload: Mapping[str, Any]) -> str:
    """The stderr tab: how the server was reached, then what it wrote on stderr, then line faults."""
    head = [line for line in (transport_line(payload), command_line(payload)) if line]
    problems = line_problem_lines(payload)
    if not head and not problems and not stderr_lines(payload):
        return _("This step keeps nothing a server wrote on stderr.")
    written = stderr_lines(payload) or [_("The server wrote nothing on stderr during this step.")]
    blocks = [block for block in (head, written, problems) if block]
    return clip_text("\n\n".join("\n".join(block) for block in blocks))


def has_process_output(payload: Mapping[str, Any]) -> bool:
    """Does the step have a process's side to show: a command server's, or stderr and line faults?"""
    return payload.get("transport") == "stdio" or bool(stderr_lines(payload) or line_problem_lines(payload))


__all__ = ["has_process_output", "stderr_text", "wire_summary", "with_legs"]
