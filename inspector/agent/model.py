"""What the run loop asks of a model, and what a model answers: the pluggable model's contract."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from inspector.mcp.messages import Message
from inspector.runs import ToolOutcome, ToolResult


@dataclass(frozen=True)
class ToolCall:
    """One tool call a model asked for."""

    id: str
    name: str
    arguments: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "arguments": self.arguments}


@dataclass(frozen=True)
class ModelTurn:
    """A model's answer in one round: text, and the tool calls it wants (none ends the run)."""

    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    finish_reason: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    total_tokens: int | None = None
    #: The model server's answer as it came (for the step's ``raw``); never holds a credential.
    raw: dict[str, Any] | None = None


@dataclass(frozen=True)
class ToolFeedback:
    """How one requested call ended, as the model is told in the next round."""

    call: ToolCall
    result: ToolResult

    @property
    def outcome(self) -> ToolOutcome:
        return self.result.outcome

    def told(self) -> str:
        """The tool message's text: a failure and a cancel are worded so they cannot be confused."""
        if self.outcome is ToolOutcome.OK:
            return self.result.content
        if self.outcome is ToolOutcome.FAILED:
            return f"FAILED: the call to {self.call.name} failed. {self.result.content}"
        if self.result.cancelled_in_flight:
            return (f"CANCELLED: the call to {self.call.name} was cancelled by the user while the server "
                    "was working on it. It did not fail; whether it took effect is unknown.")
        return (f"CANCELLED: the call to {self.call.name} was cancelled by the user before it was sent. "
                "It did not fail and did not take effect.")


@dataclass(frozen=True)
class ModelRequest:
    """What a model is given in one round."""

    round: int
    #: The conversation so far, in the chat-completions message format.
    messages: Sequence[dict[str, Any]]
    #: The tools it may call, in the chat-completions ``tools`` format.
    tools: Sequence[dict[str, Any]]
    #: How the calls of the previous round ended.
    feedback: Sequence[ToolFeedback] = field(default_factory=tuple)
    #: The most tokens the answer may have (sent as ``max_tokens``); ``None``: the model's own limit.
    max_tokens: int | None = None


class ModelError(Exception):
    """The model could not answer (unreachable, refused, malformed); the message says why.

    ``str()`` is the English sentence (stored with the run); :attr:`sentence`, when the reason is a
    :class:`~inspector.mcp.messages.Message`, is what a display layer says in the reader's language."""

    def __init__(self, reason: object = "") -> None:
        super().__init__(str(reason))
        self.sentence = reason if isinstance(reason, Message) else None


#: Told a model's text so far (never a secret) while it answers; called on the run's event loop.
TextListener = Callable[[str], None]


class ChatModel(Protocol):
    """A model the run loop can ask. ``respond`` may be cancelled at any await.

    ``on_text``, when given, hears the answer's text so far as it arrives (a streaming model tells
    it piece by piece, another may tell it once, whole); the turn returned is what counts.
    """

    #: Whether the loop should walk the server's catalogue first and offer the tools.
    wants_catalogue: bool

    async def respond(self, request: ModelRequest, on_text: TextListener | None = None) -> ModelTurn: ...
