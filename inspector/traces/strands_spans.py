"""AWS Strands Agents' tool spans (scope ``strands.telemetry.tracer``), read for what they say.

Strands (``strands-agents`` 1.62) writes the GenAI conventions' ``execute_tool NAME`` spans (``gen_ai.tool.name``,
``gen_ai.tool.call.id``, ``gen_ai.tool.status``), with the call's arguments and answer where its conventions put them:

- by default (the conventions of its 1.36, ``gen_ai`` events): the arguments as JSON in the ``content`` of the event
  ``gen_ai.tool.message``, the answer in the ``message`` of the event ``gen_ai.choice``;
- with ``OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental``: in ``gen_ai.tool.call.arguments`` /
  ``.result`` (the result only for a call that did not fail).

Either way the answer is Strands' own list of content (``[{"text": "…"}, {"json": {...}}]``, no MCP content list):
its text and JSON items are read as text, one a line; a list with any other item stays the text written.

Strands ends a tool's span with status OK and ``gen_ai.tool.status`` (``success`` or ``error``) when the tool
answered; "an interrupt or an abandoned stream leaves no result", and the span ends OK without either: that span
recorded no outcome. An agent's run its caller cancelled ends with status unset and
``strands.cancellation.type`` (``CancelledError``): read as cancelled by :mod:`.outcomes`.

No I/O, no SQLite, no Qt.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["CANCELLATION", "STRANDS_SCOPE", "TOOL_STATUS", "content_text", "strands_parts"]

STRANDS_SCOPE = "strands.telemetry.tracer"
#: The attribute Strands puts on a span its caller cancelled (the cancelling exception's class name).
CANCELLATION = "strands.cancellation.type"
#: How the tool answered (its result's status: ``success`` or ``error``). Releases before 1.62 end the span with
#: status OK whatever it says (ERROR only for an exception handed to them): a tool's error answer is said here alone.
TOOL_STATUS = "gen_ai.tool.status"
_ARGUMENTS_EVENT, _ANSWER_EVENT = "gen_ai.tool.message", "gen_ai.choice"


def strands_parts(attributes: Mapping[str, Any], events: list[dict[str, Any]], parse: Any) -> dict[str, Any]:
    """What a Strands tool span says, as :class:`~.conventions.Meaning`'s fields (``parse`` reads a JSON string
    attribute, :func:`~.conventions.parse_json_text`): ``arguments``, ``result`` and ``answered``."""
    arguments = attributes.get("gen_ai.tool.call.arguments")
    answer = attributes.get("gen_ai.tool.call.result")
    if (arguments is None or answer is None) and events:
        for event in events:
            if event["name"] == _ARGUMENTS_EVENT and arguments is None:
                arguments = event["attributes"].get("content")
            elif event["name"] == _ANSWER_EVENT and answer is None:
                answer = event["attributes"].get("message")
    arguments = parse(arguments)
    return {"arguments": arguments if isinstance(arguments, (dict, list)) else None,
            "result": None if answer is None else _answer_text(answer, parse),
            "answered": isinstance(attributes.get(TOOL_STATUS), str)}


def _answer_text(answer: Any, parse: Any) -> str:
    """Strands' content list as its text (:func:`content_text`); anything else as it was written."""
    said = content_text(parse(answer))
    if said is not None:
        return said
    return answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False, separators=(",", ":"))


def content_text(items: Any) -> str | None:
    """Strands' own list of content (``[{"text": "…"}, {"json": {...}}]``, parsed) as its text: text items as they
    are, JSON items as compact JSON, one item a line; ``None`` for anything else (a list with another item)."""
    if isinstance(items, list) and items:
        lines = [_item_text(item) for item in items]
        if all(line is not None for line in lines):
            return "\n".join(lines)  # type: ignore[arg-type]
    return None


def _item_text(item: Any) -> str | None:
    if not isinstance(item, dict) or len(item) != 1:
        return None
    if isinstance(item.get("text"), str):
        return item["text"]
    if "json" in item:
        return json.dumps(item["json"], ensure_ascii=False, separators=(",", ":"))
    return None
