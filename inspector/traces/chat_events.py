"""What a model call's span events say the model was asked and answered (AWS Strands Agents), read at display time.

Strands writes a ``chat`` span's messages as span events, not as attributes (:mod:`.chat_messages` reads those):

- by default (the GenAI conventions' events of its 1.36): one event a message, ``gen_ai.system.message``,
  ``gen_ai.user.message``, ``gen_ai.assistant.message`` and ``gen_ai.tool.message`` (what the model was asked: the
  event's ``content``) and ``gen_ai.choice`` (what it answered: its ``message``), each Strands' own content list, of
  items ``{"text"}``, ``{"toolUse": {"toolUseId", "name", "input"}}`` and ``{"toolResult": {"toolUseId", "status",
  "content"}}``;
- with ``OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental``: ``gen_ai.client.inference.operation.details``
  events holding the conventions' ``gen_ai.system_instructions``, ``gen_ai.input.messages`` and
  ``gen_ai.output.messages``, read as :mod:`.chat_messages` reads them on a span.

A tool's answer is named by its tool where the call the model made before it says which (``toolUseId``). The text is the
trace's, untrusted: bounded as :mod:`.chat_messages` bounds it, shown as plain text; an item not understood is
named by its kind (it stays in the span's events). Read only for a model call's step shown, never at import.
No Qt, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .chat_messages import (
    MAX_MESSAGES,
    MAX_PARTS,
    ChatMessage,
    ChatPart,
    ChatSide,
    Conversation,
    as_text,
    cut_text,
    read_conversation,
)
from .conventions import parse_json_text
from .strands_spans import content_text

#: The events of one message the model was asked, and the role each says.
_ASKED = {"gen_ai.system.message": "system", "gen_ai.user.message": "user", "gen_ai.assistant.message": "assistant",
          "gen_ai.tool.message": "tool"}
#: The event of what the model answered.
_ANSWERED = "gen_ai.choice"
#: The event that holds the conventions' message attributes (their newest, experimental form).
_DETAILS = "gen_ai.client.inference.operation.details"
_DETAIL_KEYS = ("gen_ai.system_instructions", "gen_ai.input.messages", "gen_ai.output.messages")


def read_event_conversation(events: Sequence[Any]) -> Conversation | None:
    """What a model call's span ``events`` (``[{"name", "attributes"}]``, as a step's payload keeps them) say it
    was asked and answered; ``None`` when they hold no messages this module understands."""
    details: dict[str, Any] = {}
    asked: list[Mapping[str, Any]] = []
    answered: list[Mapping[str, Any]] = []
    for event in events:
        attributes = event.get("attributes") if isinstance(event, Mapping) else None
        name = event.get("name") if isinstance(attributes, Mapping) else None
        if not isinstance(name, str):  # (a stranger's file in our format may hold a list there: unhashable)
            continue
        if name == _DETAILS:
            details.update({key: attributes[key] for key in _DETAIL_KEYS if key in attributes})
        elif name in _ASKED:
            asked.append({"role": _ASKED[name], "content": attributes.get("content")})
        elif name == _ANSWERED:
            answered.append({"role": "assistant", "content": attributes.get("message")})
    conversation = read_conversation(details) if details else None
    if conversation is None and (asked or answered):
        called: dict[str, str] = {}  # the tool each call the model made names, by the call's id
        conversation = Conversation(_side(asked, called), _side(answered, called))
    return conversation


def _side(messages: list[Mapping[str, Any]], called: dict[str, str]) -> ChatSide:
    read = tuple(ChatMessage(message["role"], _parts(message["content"], called))
                 for message in messages[:MAX_MESSAGES])
    return ChatSide(read, max(0, len(messages) - MAX_MESSAGES))


def _parts(content: Any, called: dict[str, str]) -> tuple[ChatPart, ...]:
    """A message's content: Strands' content list, or a text as it is."""
    value = parse_json_text(content)
    if isinstance(value, str):
        return (ChatPart("text", cut_text(value)),)
    if isinstance(value, list):
        return tuple(_part(item, called) for item in value[:MAX_PARTS])
    return ()


def _part(item: Any, called: dict[str, str]) -> ChatPart:
    """One item of Strands' content list; a call the model made is noted in ``called``, its answer named by it."""
    if not isinstance(item, Mapping) or len(item) != 1:
        return ChatPart("other")
    ((kind, value),) = item.items()
    if kind == "text" and isinstance(value, str):
        return ChatPart("text", cut_text(value))
    if kind == "json":
        return ChatPart("text", as_text(value))
    if kind == "toolUse" and isinstance(value, Mapping):
        tool = _text(value.get("name"))
        if (call := _text(value.get("toolUseId"))) and len(called) < MAX_MESSAGES * MAX_PARTS:
            called[call] = tool
        return ChatPart("tool_call", as_text(value.get("input", {})), tool)
    if kind == "toolResult" and isinstance(value, Mapping):
        answer, call = value.get("content"), _text(value.get("toolUseId"))
        listed = content_text(answer)
        return ChatPart("tool_result", cut_text(listed) if listed is not None else
                        as_text(answer) if answer is not None else "", call, called.get(call, ""))
    return ChatPart("other", name=str(kind)[:100])


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


__all__ = ["read_event_conversation"]
