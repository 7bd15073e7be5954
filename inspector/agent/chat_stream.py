"""A streamed chat-completions answer (Server-Sent Events) put together as the answer it stands for.

With ``"stream": true`` an OpenAI-compatible server answers with ``data: {...}`` events, each a
``chat.completion.chunk`` whose ``choices[0].delta`` holds a piece of the text or of a tool call
(by its ``index``: the id, the function's name, a piece of its arguments), then the finish reason,
the token counts (asked for with ``stream_options.include_usage``) and ``data: [DONE]``.
:class:`StreamedAnswer` gathers the pieces into the ``chat.completion`` object the server would
have answered without streaming, so that :func:`~.chat_model.parse_answer` reads both alike.

The text so far is told to a listener as it grows, scrubbed of the known secrets (see
:class:`~inspector.mcp.secrets.GrowingText`): never a secret, not even one split across events.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import aclosing
from typing import Any

import httpx

from inspector.mcp import Secrets
from inspector.mcp.connect_reasons import connection_reason
from inspector.mcp.messages import N_, NP_, Message

from .model import TextListener


class StreamError(Exception):
    """The stream cannot be read to its end. :attr:`sentence` says what the model did, one whole
    sentence whose ``{model}`` the caller fills (the model's name); ``quoted`` is the body of an
    error event, which the caller quotes in part (as the sentence's ``{excerpt}``)."""

    def __init__(self, sentence: Message, quoted: str | None = None) -> None:
        super().__init__(sentence.template)
        self.sentence = sentence
        self.quoted = quoted

    def about(self, model: str, **more: Any) -> Message:
        """The sentence about ``model`` (with ``more`` values besides)."""
        said = self.sentence
        return Message(said.template, {**said.params, "model": model, **more}, said.plural, said.count)


def _event_problem(template: str, number: int) -> StreamError:
    return StreamError(Message(template, {"number": number}))


#: An answer whose bytes are not packed as its ``Content-Encoding`` says: it came, nothing broke off.
NOT_UNPACKED = Message(N_("The model at {model} answered, but its answer cannot be unpacked as its Content-Encoding "
                          "header says (the answer is damaged, or a proxy changed it)."))

#: An error event (or an event with an ``error``): its body is quoted as ``{excerpt}``.
_REPORTED_ERROR = Message(N_("The model at {model} reported an error while answering: {excerpt}"))


def is_event_stream(response: httpx.Response) -> bool:
    return response.headers.get("content-type", "").split(";")[0].strip().lower() == "text/event-stream"


async def stream_events(response: httpx.Response, max_bytes: int) -> AsyncIterator[tuple[str, str]]:
    """Each event of ``response`` as (its name, its ``data``), read as it arrives (at most
    ``max_bytes`` in all). An event with no ``event:`` line is a ``message``.

    A connection that breaks once the answer began is an answer cut short, not a server that
    could not be reached; a timeout is left to the caller (it words it the same either way).
    """
    size, pending = 0, b""
    name, data = "message", []
    try:
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > max_bytes:
                raise StreamError(Message(N_("The model at {model} answered with more than {size} MiB; the answer was "
                                             "refused."), {"size": max_bytes // (1024 * 1024)}))
            *lines, pending = (pending + chunk).split(b"\n")
            for line in lines:
                line = line.rstrip(b"\r")
                if not line:  # a blank line ends an event
                    if data:
                        yield name, "\n".join(data)
                    name, data = "message", []
                elif line.startswith(b"data:"):
                    data.append(_field(line, 5))
                elif line.startswith(b"event:"):
                    name = _field(line, 6)
                # Comments (":") and the other fields (id, retry) say nothing about the answer.
    except httpx.TimeoutException:
        raise
    except httpx.DecodingError:
        raise StreamError(NOT_UNPACKED) from None
    except httpx.HTTPError as exc:
        raise StreamError(Message(N_("The model at {model} stopped answering before its answer was complete (the "
                                     "connection broke: {reason})."), {"reason": _why_it_broke(exc)})) from None
    last = pending.rstrip(b"\r")
    if last.startswith(b"data:"):  # the last event needs no blank line after it
        data.append(_field(last, 5))
    if data:
        yield name, "\n".join(data)


def _why_it_broke(exc: httpx.HTTPError) -> Message | str:
    """Why a model's answer stream broke off, in our words where we know them (not httpx's class names)."""
    said = connection_reason(exc)
    if said is not None:
        return said
    if isinstance(exc, httpx.RemoteProtocolError):
        text = str(exc).lower()
        if "peer closed" in text or "disconnected" in text or "connection closed" in text:
            return Message(N_("the server closed it"))
        return Message(N_("what came was not valid HTTP"))
    return type(exc).__name__


def _field(line: bytes, start: int) -> str:
    value = line[start:]
    return (value[1:] if value.startswith(b" ") else value).decode("utf-8", "replace")


class StreamedAnswer:
    """The events of a streamed answer, gathered; :meth:`answer` is the whole answer they make."""

    def __init__(self, secrets: Secrets, on_text: TextListener | None = None) -> None:
        self.events = 0
        self.done = False
        self.finish_reason: str | None = None
        self._on_text = on_text
        self._text = secrets.growing()
        self._told = ""
        self._content: list[str] = []
        self._calls: dict[int, dict[str, Any]] = {}
        self._head: dict[str, Any] = {}
        self._usage: dict[str, Any] | None = None

    @property
    def complete(self) -> bool:
        """The server said the answer is over: ``[DONE]``, or a finish reason."""
        return self.done or self.finish_reason is not None

    def add(self, data: str, name: str = "message") -> None:
        """Take one event (its data, its name); :class:`StreamError` for an error event or one that
        cannot be read."""
        self.events += 1
        if name == "error":
            raise StreamError(_REPORTED_ERROR, quoted=data)
        if data.strip() == "[DONE]":
            self.done = True
            return
        try:
            event = json.loads(data)
        except ValueError:
            raise _event_problem(N_("The model at {model} sent streamed event {number}, which is not JSON."),
                                 self.events) from None
        if not isinstance(event, dict):
            raise _event_problem(N_("The model at {model} sent streamed event {number}, which is not a JSON object."),
                                 self.events)
        if event.get("error") is not None:
            raise StreamError(_REPORTED_ERROR, quoted=json.dumps(event))
        for key in ("id", "model", "created", "system_fingerprint"):
            if key in event and key not in self._head:
                self._head[key] = event[key]
        if isinstance(event.get("usage"), dict):
            self._usage = event["usage"]
        choices = event.get("choices")
        if choices is None:
            return
        if not isinstance(choices, list):
            raise _event_problem(N_("The model at {model} sent streamed event {number}, whose choices are not a "
                                    "list."), self.events)
        for choice in choices:
            if isinstance(choice, dict) and choice.get("index", 0) == 0:
                self._add_choice(choice)

    def _add_choice(self, choice: dict[str, Any]) -> None:
        if isinstance(choice.get("finish_reason"), str):
            self.finish_reason = choice["finish_reason"]
        delta = choice.get("delta")
        if delta is None:
            return
        if not isinstance(delta, dict):
            raise _event_problem(N_("The model at {model} sent streamed event {number}, whose delta is not a JSON "
                                    "object."), self.events)
        piece = delta.get("content")
        if isinstance(piece, str) and piece:
            self._content.append(piece)
            self._tell(self._text.add(piece))
        calls = delta.get("tool_calls")
        if isinstance(calls, list):
            for position, call in enumerate(calls):
                if isinstance(call, dict):
                    self._add_call(call, position)

    def _add_call(self, call: dict[str, Any], position: int) -> None:
        index = call.get("index", position)
        if not isinstance(index, int) or isinstance(index, bool):
            raise _event_problem(N_("The model at {model} sent streamed event {number}, whose tool call has no "
                                    "index."), self.events)
        gathered = self._calls.setdefault(index, {"id": "", "type": "function", "name": "", "arguments": []})
        if isinstance(call.get("id"), str) and call["id"] and not gathered["id"]:
            gathered["id"] = call["id"]
        function = call.get("function")
        if not isinstance(function, dict):
            return
        name = function.get("name")
        # Most servers send the name whole in the call's first event; some repeat it, some send pieces.
        if isinstance(name, str) and name and name != gathered["name"]:
            gathered["name"] += name
        arguments = function.get("arguments")
        if isinstance(arguments, str):
            gathered["arguments"].append(arguments)
        elif isinstance(arguments, dict):  # an object whole (some servers): as the JSON it stands for
            gathered["arguments"].append(json.dumps(arguments))

    def _tell(self, shown: str) -> None:
        if self._on_text is not None and shown != self._told:
            self._told = shown
            self._on_text(shown)

    def finish(self) -> None:
        """The stream is over: the text held back (a possible secret's start) is told too."""
        self._tell(self._text.finish())

    def answer(self) -> dict[str, Any]:
        """The ``chat.completion`` object the events make (as unscrubbed as they came)."""
        message: dict[str, Any] = {"role": "assistant", "content": "".join(self._content) or None}
        if self._calls:
            message["tool_calls"] = [
                {"id": call["id"], "type": call["type"],
                 "function": {"name": call["name"], "arguments": "".join(call["arguments"])}}
                for _index, call in sorted(self._calls.items())]
        answer: dict[str, Any] = {**self._head, "object": "chat.completion",
                                  "choices": [{"index": 0, "message": message, "finish_reason": self.finish_reason}]}
        if self._usage is not None:
            answer["usage"] = self._usage
        return answer


async def read_stream(response: httpx.Response, secrets: Secrets, max_bytes: int,
                      on_text: TextListener | None = None) -> dict[str, Any]:
    """The whole answer of an event stream, its text told to ``on_text`` as it grows;
    :class:`StreamError` when the stream cannot be read or ends before the answer is complete."""
    gathered = StreamedAnswer(secrets, on_text)
    async with aclosing(stream_events(response, max_bytes)) as events:
        async for name, data in events:
            gathered.add(data, name)
            if gathered.done:
                break
    if not gathered.complete:
        if not gathered.events:
            raise StreamError(Message(N_("The model at {model} stopped answering before its answer was complete "
                                         "(no event, no finish reason and no [DONE]).")))
        raise StreamError(NP_("The model at {model} stopped answering before its answer was complete ({count} "
                              "event, no finish reason and no [DONE]).",
                              "The model at {model} stopped answering before its answer was complete ({count} "
                              "events, no finish reason and no [DONE]).", {"count": gathered.events}, "count"))
    gathered.finish()
    return gathered.answer()
