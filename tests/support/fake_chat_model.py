"""A small fake of an OpenAI-compatible ``/v1/chat/completions`` endpoint, served on 127.0.0.1.

Its "brain" is a function from the request body to the answer body, so each test says what
the model asks for; every request (body and headers) is kept for the test to read.

Asked with ``"stream": true`` it streams the answer as a real server does: Server-Sent Events,
chunked, the text and each tool call's arguments in small pieces, then the finish reason, the
usage (when ``stream_options.include_usage`` asks for it) and ``data: [DONE]``; ``pause_s``
between events, and ``hold_after`` to stop after so many events until the test says ``resume``.
With ``stream=False`` it answers one JSON body all the same (a server that does not stream).
A brain may also return :class:`RawEvents`: the exact text of the stream, piece by piece.
"""

from __future__ import annotations

import json
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route


class RawEvents(list):
    """What the stream sends, exactly: each item written (and flushed) on its own; an item that is
    :data:`BREAK` breaks the connection off there (no end of the chunked body)."""


#: In :class:`RawEvents`: the server breaks the connection off.
BREAK = object()


Brain = Callable[[dict[str, Any]], dict[str, Any] | RawEvents | None]


def answer(content: str = "", tool_calls: list[tuple[str, dict]] | None = None) -> dict[str, Any]:
    """A chat-completions answer with text and (optionally) tool calls."""
    message: dict[str, Any] = {"role": "assistant", "content": content or None}
    if tool_calls:
        message["tool_calls"] = [{"id": f"fake_{index}", "type": "function",
                                  "function": {"name": name, "arguments": json.dumps(arguments)}}
                                 for index, (name, arguments) in enumerate(tool_calls)]
    return {"id": "fake", "object": "chat.completion", "model": "fake-model",
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if tool_calls else "stop"}],
            "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}}


def event(data: Any) -> str:
    """One Server-Sent Event carrying ``data`` (JSON unless it is a string already)."""
    return f"data: {data if isinstance(data, str) else json.dumps(data)}\n\n"


def _pieces(text: str, size: int) -> list[str]:
    return [text[start:start + size] for start in range(0, len(text), size)]


def stream_of(reply: dict[str, Any], piece_chars: int = 4, usage: bool = True) -> RawEvents:
    """The events a streaming server sends for the answer ``reply`` (as :func:`answer` makes it)."""
    choice = reply["choices"][0]
    message = choice["message"]

    def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
        return event({"id": reply.get("id", "fake"), "object": "chat.completion.chunk",
                      "model": reply.get("model", "fake-model"),
                      "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})

    events = RawEvents([chunk({"role": "assistant", "content": ""})])
    events += [chunk({"content": piece}) for piece in _pieces(message.get("content") or "", piece_chars)]
    for index, call in enumerate(message.get("tool_calls") or []):
        events.append(chunk({"tool_calls": [{"index": index, "id": call["id"], "type": "function",
                                             "function": {"name": call["function"]["name"], "arguments": ""}}]}))
        events += [chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
                   for piece in _pieces(call["function"]["arguments"], piece_chars * 2)]
    events.append(chunk({}, choice.get("finish_reason")))
    if usage and "usage" in reply:
        events.append(event({"id": reply.get("id", "fake"), "object": "chat.completion.chunk", "choices": [],
                             "usage": reply["usage"]}))
    events.append(event("[DONE]"))
    return events


class FakeChatModel:
    """The fake endpoint's state. ``brain`` returning ``None`` means: hold the answer until released."""

    def __init__(self, brain: Brain, *, stream: bool = True, pause_s: float = 0.0, piece_chars: int = 4) -> None:
        self.brain = brain
        self.stream = stream
        self.pause_s = pause_s
        self.piece_chars = piece_chars
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.holding = threading.Event()
        self.status = 200
        #: A stream stops after this many events (``stream_held`` set) until ``resume`` is set.
        self.hold_after: int | None = None
        self.stream_held = threading.Event()
        self.resume = threading.Event()

    def app(self) -> Starlette:
        async def completions(request: Request) -> Response:
            body = await request.json()
            self.requests.append(body)
            self.headers.append(dict(request.headers))
            reply = self.brain(body)
            if reply is None:
                self.holding.set()
                await anyio.sleep_forever()  # until the client goes away
            if isinstance(reply, RawEvents):
                return StreamingResponse(self._send(reply), media_type="text/event-stream")
            if self.stream and body.get("stream") and self.status < 300:
                usage = bool((body.get("stream_options") or {}).get("include_usage"))
                return StreamingResponse(self._send(stream_of(reply, self.piece_chars, usage)),
                                         media_type="text/event-stream")
            return JSONResponse(reply, status_code=self.status)

        return Starlette(routes=[Route("/v1/chat/completions", completions, methods=["POST"])])

    async def _send(self, events: RawEvents) -> AsyncIterator[bytes]:
        for number, text in enumerate(events):
            if number and self.pause_s:
                await anyio.sleep(self.pause_s)
            if number and number == self.hold_after:
                self.stream_held.set()
                while not self.resume.is_set():
                    await anyio.sleep(0.01)
            if text is BREAK:
                raise ConnectionAbortedError("the fake breaks the stream off")
            yield text.encode() if isinstance(text, str) else text


def tool_then_report(tool: str, arguments: dict) -> Brain:
    """Asks for one tool call, then answers with what the tool message said."""
    def brain(body: dict[str, Any]) -> dict[str, Any]:
        last = body["messages"][-1]
        if last["role"] == "tool":
            return answer(f"The tool said: {last['content']}")
        return answer("Let me call a tool.", [(tool, arguments)])
    return brain
