"""What a model call read from a trace was asked and answered, as lines in the reader's language.

The window's step detail (its Result tab) and ``runs show`` (under the step's row) say the same lines.
The messages are the trace's (read by :mod:`inspector.traces.chat_messages`, bounded there), shown as
plain text; roles and tool names as the trace wrote them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from inspector.i18n import _, ngettext

from .chat_events import read_event_conversation
from .chat_messages import ChatMessage, ChatPart, ChatSide, Conversation, read_conversation


def _conversation(payload: Mapping[str, Any]) -> Conversation | None:
    """What the span of a model call's step read from a trace says it was asked and answered: in its attributes,
    else in its events (Strands'); ``None`` for any other step."""
    if payload.get("kind") != "llm":
        return None
    raw = payload.get("raw")
    otlp = raw.get("otlp") if isinstance(raw, Mapping) else None
    if not isinstance(otlp, Mapping):
        return None
    attributes, events = otlp.get("attributes"), otlp.get("events")
    conversation = read_conversation(attributes) if isinstance(attributes, Mapping) else None
    if conversation is None and isinstance(events, list):
        conversation = read_event_conversation(events)
    return conversation


def _part_text(part: ChatPart) -> str:
    if part.kind == "tool_call":
        return _("calls the tool {tool} with {arguments}").format(tool=part.name or "?", arguments=part.text)
    if part.kind == "tool_result":
        if part.tool:
            return _("the tool {tool} answered: {text}").format(tool=part.tool, text=part.text)
        if part.name:
            return _("the answer to {call}: {text}").format(call=part.name, text=part.text)
        return _("a tool's answer: {text}").format(text=part.text)
    if part.kind == "other":
        return _("(a part of type {type} not shown: see the attributes)").format(type=part.name or "?")
    return part.text


def _message_lines(message: ChatMessage) -> list[str]:
    role = message.role or "?"
    if not message.parts:
        return ["  " + _("{role}: (nothing)").format(role=role)]
    lines = []
    for part in message.parts:
        first, *rest = _part_text(part).split("\n")
        lines.append("  " + _("{role}: {text}").format(role=role, text=first))
        lines.extend("    " + line for line in rest)
    return lines


def _side_lines(heading: str, side: ChatSide) -> list[str]:
    if not side.messages:
        return []
    lines = [heading]
    for message in side.messages:
        lines.extend(_message_lines(message))
    if side.more:
        lines.append("  " + ngettext("… and {count} more message (see the attributes)",
                                     "… and {count} more messages (see the attributes)", side.more).format(
            count=side.more))
    return lines


def conversation_lines(payload: Mapping[str, Any]) -> list[str]:
    """What a model call's step (``payload``, parsed) was asked and answered, as its trace recorded it
    (the GenAI, OpenInference or Traceloop attributes, Strands' events); ``[]`` for another step or one without
    them."""
    conversation = _conversation(payload)
    if conversation is None:
        return []
    return [*_side_lines(_("What the model was asked (as the trace recorded it):"), conversation.asked),
            *_side_lines(_("What the model answered (as the trace recorded it):"), conversation.answered)]


__all__ = ["conversation_lines"]
