"""Answering a server's ``sampling/createMessage`` with the chat model configured for agent runs.

Only plugged in when the user allows it: the client then declares ``sampling`` and the server's
messages go to the model; its text answer goes back to the server. A model that cannot answer
becomes a JSON-RPC error to the server with the model's own sentence, scrubbed of every secret
known here: the server must never learn the model's key.
"""

from __future__ import annotations

from typing import Any

from inspector.mcp import Secrets
from inspector.mcp.server_requests import INTERNAL_ERROR, INVALID_PARAMS, RequestRefused

from .model import ChatModel, ModelError, ModelRequest


def chat_messages(params: dict[str, Any]) -> list[dict[str, Any]]:
    """The server's sampling messages in the chat-completions format (text content only)."""
    messages: list[dict[str, Any]] = []
    system = params.get("systemPrompt")
    if isinstance(system, str) and system:
        messages.append({"role": "system", "content": system})
    for message in params.get("messages") or ():
        if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
            raise RequestRefused(INVALID_PARAMS, "Each sampling message needs the role user or assistant.")
        content = message.get("content")
        blocks = content if isinstance(content, list) else [content]
        texts = [block.get("text") for block in blocks
                 if isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str)]
        if not texts:
            raise RequestRefused(INVALID_PARAMS, "This client can pass only text messages to its model.")
        messages.append({"role": message["role"], "content": "\n".join(texts)})
    return messages


class ChatModelSampler:
    """A sampler for :class:`inspector.mcp.ServerRequestHandler` backed by a chat model."""

    def __init__(self, model: ChatModel, model_name: str, *, secrets: Secrets | None = None) -> None:
        self._model = model
        self._model_name = model_name
        # The model's own secrets (its key) too, whatever the caller knows besides.
        own = getattr(model, "secrets", None)
        self._secrets = (secrets or Secrets()).joined(own if isinstance(own, Secrets) else None)

    async def __call__(self, params: dict[str, Any], remaining_s: float) -> dict[str, Any]:
        messages = chat_messages(params)
        try:
            turn = await self._model.respond(ModelRequest(round=0, messages=messages, tools=()))
        except ModelError as exc:
            raise RequestRefused(INTERNAL_ERROR, self._secrets.scrub(str(exc))) from None
        stop = {"stop": "endTurn", "length": "maxTokens"}.get(turn.finish_reason or "", "endTurn")
        return {"role": "assistant", "content": {"type": "text", "text": self._secrets.scrub_values(turn.content)},
                "model": self._model_name, "stopReason": stop}
