"""Answering a server's ``sampling/createMessage`` with the chat model configured for agent runs.

Only plugged in when the user allows it: the client then declares ``sampling`` and the server's
messages go to the model; its text answer goes back to the server. A model that cannot answer
becomes a JSON-RPC error to the server with the model's own sentence, scrubbed of every secret
known here: the server must never learn the model's key. The model is asked with
``max_tokens``: the server's ``maxTokens`` or the user's cap, whichever is smaller (how often a
server may ask is bounded before the sampler is called: ``inspector.mcp.sampling_limits``).
"""

from __future__ import annotations

from typing import Any

from inspector.mcp import Secrets
from inspector.mcp.client_reasons import MAX_TOKENS_INVALID, ROLE_INVALID, TEXT_ONLY
from inspector.mcp.server_requests import INTERNAL_ERROR, INVALID_PARAMS, RequestRefused

from .model import ChatModel, ModelError, ModelRequest

#: The user's own cap on a sampled answer's length (tokens), unless they set another.
DEFAULT_MAX_TOKENS = 1024
#: The largest cap the user may set.
LARGEST_MAX_TOKENS = 1_000_000


def answer_limit(params: dict[str, Any], cap: int | None) -> int | None:
    """The ``max_tokens`` to send: the smaller of the server's ``maxTokens`` and the user's cap."""
    asked = params.get("maxTokens")
    if asked is None:
        return cap
    if not isinstance(asked, int) or isinstance(asked, bool) or asked < 1:
        raise RequestRefused(INVALID_PARAMS, MAX_TOKENS_INVALID)
    return asked if cap is None else min(asked, cap)


def chat_messages(params: dict[str, Any]) -> list[dict[str, Any]]:
    """The server's sampling messages in the chat-completions format (text content only)."""
    messages: list[dict[str, Any]] = []
    system = params.get("systemPrompt")
    if isinstance(system, str) and system:
        messages.append({"role": "system", "content": system})
    for message in params.get("messages") or ():
        if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
            raise RequestRefused(INVALID_PARAMS, ROLE_INVALID)
        content = message.get("content")
        blocks = content if isinstance(content, list) else [content]
        texts = [block.get("text") for block in blocks
                 if isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str)]
        if not texts:
            raise RequestRefused(INVALID_PARAMS, TEXT_ONLY)
        messages.append({"role": message["role"], "content": "\n".join(texts)})
    return messages


class ChatModelSampler:
    """A sampler for :class:`inspector.mcp.ServerRequestHandler` backed by a chat model."""

    def __init__(self, model: ChatModel, model_name: str, *, secrets: Secrets | None = None,
                 max_tokens: int | None = DEFAULT_MAX_TOKENS) -> None:
        self._model = model
        self._model_name = model_name
        # The model's own secrets (its key) too, whatever the caller knows besides.
        own = getattr(model, "secrets", None)
        self._secrets = (secrets or Secrets()).joined(own if isinstance(own, Secrets) else None)
        #: The user's cap on an answer's length in tokens (``None``: only the server's ``maxTokens``).
        self.max_tokens = max_tokens

    async def __call__(self, params: dict[str, Any], remaining_s: float) -> dict[str, Any]:
        messages = chat_messages(params)
        limit = answer_limit(params, self.max_tokens)
        try:
            turn = await self._model.respond(ModelRequest(round=0, messages=messages, tools=(), max_tokens=limit))
        except ModelError as exc:
            raise RequestRefused(INTERNAL_ERROR, self._secrets.scrub(str(exc))) from None
        stop = {"stop": "endTurn", "length": "maxTokens"}.get(turn.finish_reason or "", "endTurn")
        return {"role": "assistant", "content": {"type": "text", "text": self._secrets.scrub_values(turn.content)},
                "model": self._model_name, "stopReason": stop}
