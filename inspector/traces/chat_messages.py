"""What a model call's span says the model was asked and answered, read at display time.

A model call (a ``chat`` span) of another tool's trace may keep its conversation in its attributes:

- the OpenTelemetry GenAI conventions: ``gen_ai.system_instructions``, ``gen_ai.input.messages`` and
  ``gen_ai.output.messages``, each a list of messages ``{"role", "parts": [...]}`` (as a JSON string or
  as an array attribute), a part ``text`` (``content``), ``tool_call`` (``name``, ``arguments``),
  ``tool_call_response`` (``id``, ``response``) or ``reasoning``;
- OpenInference's flattened ``llm.input_messages.N.message.role`` / ``.content`` /
  ``.contents.M.message_content.text`` / ``.tool_calls.M.tool_call.function.name`` / ``.arguments`` /
  ``.tool_call_id`` (and ``llm.output_messages.N…``);
- Traceloop's flattened ``gen_ai.prompt.N.role`` / ``.content`` / ``.tool_calls.M.name`` / ``.arguments``
  / ``.tool_call_id`` (and ``gen_ai.completion.N…``).

The text is the trace's, untrusted: bounded here (messages, characters per part, nesting read) and shown
as plain text. What is not understood is left out here; it stays in the span's attributes. Nothing is
read at import: a span's attributes are kept whole, and only a model call's step shown is read.
No Qt, no I/O.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .conventions import parse_json_text
from .strands_spans import content_text

#: Messages read of each side (asked, answered); more are counted, not read.
MAX_MESSAGES = 50
#: Characters kept of one part's text (a message's text, a call's arguments, a tool's answer).
MAX_PART_CHARS = 2000
#: Parts read of one message.
MAX_PARTS = 20
#: Characters of attribute keys scanned for a flattened message list (OpenInference, Traceloop).
_FLAT_KEYS = 5000


@dataclass(frozen=True)
class ChatPart:
    """One part of a message: ``kind`` is ``text``, ``tool_call`` (``name``, ``text``: its arguments as
    JSON), ``tool_result`` (``name``: the call's id, ``tool``: its tool if named, ``text``: the answer) or
    ``other`` (``name``: the part's type, not understood)."""

    kind: str
    text: str = ""
    name: str = ""
    #: The tool a ``tool_result`` answers for, when the trace names it.
    tool: str = ""


@dataclass(frozen=True)
class ChatMessage:
    """One message: who said it (the trace's role, as written) and its parts."""

    role: str
    parts: tuple[ChatPart, ...]


@dataclass(frozen=True)
class ChatSide:
    """The messages of one side (``asked``: the model's input; ``answered``: its output), and how many
    more the span held than were read."""

    messages: tuple[ChatMessage, ...]
    more: int = 0


@dataclass(frozen=True)
class Conversation:
    """What a model call was asked and answered (either side may be empty)."""

    asked: ChatSide
    answered: ChatSide


def cut_text(text: str) -> str:
    """A part's text cut to :data:`MAX_PART_CHARS` (with "…")."""
    return text if len(text) <= MAX_PART_CHARS else text[:MAX_PART_CHARS] + "…"


def as_text(value: Any) -> str:
    """A value as text: a string as it is, anything else as compact JSON (nesting bounded by the import)."""
    if isinstance(value, str):
        return cut_text(value)
    try:
        return cut_text(json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str))
    except (ValueError, RecursionError):
        return ""


def _content_text(value: Any) -> str | None:
    """A message's ``content``: a string, or a list of content parts whose texts are joined."""
    value = parse_json_text(value) if isinstance(value, str) and value[:1] == "[" else value
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        texts = [part.get("text", part.get("content")) for part in value[:MAX_PARTS] if isinstance(part, Mapping)]
        texts = [text for text in texts if isinstance(text, str)]
        return "\n".join(texts) if texts else None
    return None


def _genai_part(part: Any) -> ChatPart | None:
    if isinstance(part, str):
        return ChatPart("text", cut_text(part))
    if not isinstance(part, Mapping):
        return None
    kind = part.get("type")
    if kind in ("text", "reasoning") and isinstance(part.get("content"), str):
        return ChatPart("text", cut_text(part["content"]))
    if kind == "tool_call":
        name = part.get("name")
        return ChatPart("tool_call", as_text(parse_json_text(part.get("arguments", {}))),
                        name if isinstance(name, str) else "")
    if kind == "tool_call_response":
        called, tool = part.get("id"), part.get("name")
        answer = part.get("response", part.get("result"))
        listed = content_text(answer)  # Strands' own content list ([{"text": "…"}]) as its text
        return ChatPart("tool_result", cut_text(listed) if listed is not None else
                        as_text(answer) if answer is not None else "",
                        called if isinstance(called, str) else "", tool if isinstance(tool, str) else "")
    return ChatPart("other", name=kind if isinstance(kind, str) else "")


def _genai_messages(value: Any, role: str = "") -> ChatSide | None:
    """``gen_ai.input.messages`` / ``.output.messages`` (or ``gen_ai.system_instructions``: parts, said as
    ``role``)."""
    value = parse_json_text(value)
    if not isinstance(value, list):
        return None
    if role:  # a list of parts: one message
        parts = [found for found in (_genai_part(part) for part in value[:MAX_PARTS]) if found is not None]
        return ChatSide((ChatMessage(role, tuple(parts)),)) if parts else None
    messages = []
    for message in value[:MAX_MESSAGES]:
        if not isinstance(message, Mapping):
            continue
        given = message.get("parts")
        parts = [found for found in (_genai_part(part) for part in given[:MAX_PARTS]) if found is not None] \
            if isinstance(given, list) else []
        if not parts and isinstance(message.get("content"), str):
            parts = [ChatPart("text", cut_text(message["content"]))]
        said = message.get("role")
        messages.append(ChatMessage(said if isinstance(said, str) else "", tuple(parts)))
    return ChatSide(tuple(messages), max(0, len(value) - MAX_MESSAGES)) if messages else None


_INDEX = re.compile(r"(\d{1,9})\.(.+)", re.DOTALL)


def _flattened(attributes: Mapping[str, Any], prefix: str) -> dict[int, dict[str, Any]]:
    """The attributes under ``prefix`` (``llm.input_messages.``) by message number, each a dict of the
    rest of the key to the value."""
    found: dict[int, dict[str, Any]] = {}
    for key, value in attributes.items():
        if key.startswith(prefix) and len(key) < _FLAT_KEYS:
            matched = _INDEX.fullmatch(key[len(prefix):])
            if matched is not None:
                found.setdefault(int(matched.group(1)), {})[matched.group(2)] = value
    return found


def _numbered(fields: Mapping[str, Any], prefix: str) -> dict[int, dict[str, Any]]:
    """The fields of one message under ``prefix`` (``message.tool_calls.``) by number."""
    return _flattened(fields, prefix)


def _flat_side(attributes: Mapping[str, Any], prefix: str, inner: str) -> ChatSide | None:
    """A flattened message list: OpenInference's (``inner`` = ``message.``) or Traceloop's (``inner`` = "")."""
    numbered = _flattened(attributes, prefix)
    if not numbered:
        return None
    messages = []
    for number in sorted(numbered)[:MAX_MESSAGES]:
        fields = numbered[number]
        parts: list[ChatPart] = []
        answered_call = fields.get(f"{inner}tool_call_id")
        content = _content_text(fields.get(f"{inner}content"))
        if content is None:
            texts = [found.get("message_content.text") for _, found in
                     sorted(_numbered(fields, f"{inner}contents.").items())[:MAX_PARTS]]
            content = "\n".join(text for text in texts if isinstance(text, str)) or None
        if content is not None:
            parts.append(ChatPart("tool_result", cut_text(content), answered_call) if isinstance(answered_call, str)
                         else ChatPart("text", cut_text(content)))
        call = "tool_call.function." if inner else ""
        for _, found in sorted(_numbered(fields, f"{inner}tool_calls.").items())[:MAX_PARTS]:
            name = found.get(f"{call}name")
            arguments = parse_json_text(found.get(f"{call}arguments", {}))
            parts.append(ChatPart("tool_call", as_text(arguments), name if isinstance(name, str) else ""))
        role = fields.get(f"{inner}role")
        messages.append(ChatMessage(role if isinstance(role, str) else "", tuple(parts)))
    return ChatSide(tuple(messages), max(0, len(numbered) - MAX_MESSAGES))


def _joined(*sides: ChatSide | None) -> ChatSide:
    kept = [side for side in sides if side is not None]
    messages = tuple(message for side in kept for message in side.messages)
    return ChatSide(messages[:MAX_MESSAGES], sum(side.more for side in kept) + max(0, len(messages) - MAX_MESSAGES))


def read_conversation(attributes: Mapping[str, Any]) -> Conversation | None:
    """What a model call's span attributes say it was asked and answered; ``None`` when they hold no
    conversation this module understands."""
    if "gen_ai.input.messages" in attributes or "gen_ai.output.messages" in attributes \
            or "gen_ai.system_instructions" in attributes:
        asked = _joined(_genai_messages(attributes.get("gen_ai.system_instructions"), "system"),
                        _genai_messages(attributes.get("gen_ai.input.messages")))
        answered = _joined(_genai_messages(attributes.get("gen_ai.output.messages")))
    else:
        asked = _joined(_flat_side(attributes, "llm.input_messages.", "message."),
                        _flat_side(attributes, "gen_ai.prompt.", ""))
        answered = _joined(_flat_side(attributes, "llm.output_messages.", "message."),
                           _flat_side(attributes, "gen_ai.completion.", ""))
    if not asked.messages and not answered.messages:
        return None
    return Conversation(asked, answered)


__all__ = ["ChatMessage", "ChatPart", "ChatSide", "Conversation", "MAX_MESSAGES", "MAX_PART_CHARS", "MAX_PARTS",
           "as_text", "cut_text", "read_conversation"]
