"""A small fake of an OpenAI-compatible ``/v1/chat/completions`` endpoint, served on 127.0.0.1.

Its "brain" is a function from the request body to the answer body, so each test says what
the model asks for; every request (body and headers) is kept for the test to read.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

Brain = Callable[[dict[str, Any]], dict[str, Any] | None]


def answer(content: str = "", tool_calls: list[tuple[str, dict]] | None = None) -> dict[str, Any]:
    """A chat-completions answer with text and (optionally) tool calls."""
    message: dict[str, Any] = {"role": "assistant", "content": content or None}
    if tool_calls:
        import json

        message["tool_calls"] = [{"id": f"fake_{index}", "type": "function",
                                  "function": {"name": name, "arguments": json.dumps(arguments)}}
                                 for index, (name, arguments) in enumerate(tool_calls)]
    return {"id": "fake", "object": "chat.completion", "model": "fake-model",
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if tool_calls else "stop"}],
            "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}}


class FakeChatModel:
    """The fake endpoint's state. ``brain`` returning ``None`` means: hold the answer until released."""

    def __init__(self, brain: Brain) -> None:
        self.brain = brain
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.holding = threading.Event()
        self.status = 200

    def app(self) -> Starlette:
        async def completions(request: Request) -> JSONResponse:
            body = await request.json()
            self.requests.append(body)
            self.headers.append(dict(request.headers))
            reply = self.brain(body)
            if reply is None:
                self.holding.set()
                await anyio.sleep_forever()  # until the client goes away
            return JSONResponse(reply, status_code=self.status)

        return Starlette(routes=[Route("/v1/chat/completions", completions, methods=["POST"])])


def tool_then_report(tool: str, arguments: dict) -> Brain:
    """Asks for one tool call, then answers with what the tool message said."""
    def brain(body: dict[str, Any]) -> dict[str, Any]:
        last = body["messages"][-1]
        if last["role"] == "tool":
            return answer(f"The tool said: {last['content']}")
        return answer("Let me call a tool.", [(tool, arguments)])
    return brain
