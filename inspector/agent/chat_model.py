"""An OpenAI-compatible chat model (``/v1/chat/completions`` with ``tools``) over httpx.

Ollama, llama.cpp's server, vLLM and LM Studio all speak this. The API key is a secret: it is
sent as ``Authorization: Bearer ...`` and never stored, logged, printed or put in a step. A model
server may repeat it ("Incorrect API key provided: Bearer sk-..."): everything the model says is
scrubbed of it (and of the other secrets given) before it leaves this module, and an error body is
quoted only in part.

The answer is asked for streamed (Server-Sent Events, read by :mod:`.chat_stream`), so that its
text can be shown as it arrives; a server that answers with one JSON body all the same is read
as it is.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import httpx

from inspector.mcp import Secrets, public_url
from inspector.mcp.connect_reasons import connection_reason
from inspector.mcp.messages import N_, Message, Number
from inspector.mcp.secrets import url_secrets
from inspector.runs.sentences import SaidError, Sentence

from .chat_stream import NOT_UNPACKED, StreamError, is_event_stream, read_stream
from .model import ModelError, ModelRequest, ModelTurn, TextListener, ToolCall

DEFAULT_TIMEOUT_S = 300.0
#: A model's answer larger than this is refused rather than held in memory.
MAX_ANSWER_BYTES = 4 * 1024 * 1024
#: How much of a model's error is quoted: enough for its sentence, never a whole body.
ERROR_EXCERPT_CHARS = 200
_SCRUBBED_HEAD_CHARS = 8 * 1024


def completions_url(base_url: str) -> str:
    """The endpoint for a base URL: ``.../v1`` or a bare host gets ``/v1/chat/completions`` added."""
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        got = repr(public_url(base_url) if parts.netloc else base_url[:80])
        raise SaidError(Sentence(N_("The model URL must start with http:// or https:// and name a host (got {url})."),
                                 {"url": got}))
    path = parts.path.rstrip("/")
    if path.endswith("/chat/completions"):
        pass
    elif path.endswith("/v1"):
        path += "/chat/completions"
    else:
        path += "/v1/chat/completions"
    return parts._replace(path=path, query=parts.query, fragment="").geturl()


class OpenAIChatModel:
    """Asks an OpenAI-compatible chat-completions endpoint; the loop offers it the server's tools."""

    wants_catalogue = True

    def __init__(self, base_url: str, model: str, *, api_key: str | None = None,
                 timeout_s: float = DEFAULT_TIMEOUT_S,
                 http_factory: Callable[[], httpx.AsyncClient] | None = None,
                 secrets: Secrets | None = None) -> None:
        if not model.strip():
            raise SaidError(Sentence(N_("The model name must not be empty.")))
        self.url = completions_url(base_url)
        self.label = public_url(self.url)  # what messages name: never the user info of the URL
        self.model = model
        self._api_key = api_key
        #: What is cut out of everything this model says: its key, a password in its URL, and the
        #: other secrets the caller knows (``secrets``, with their pattern rules).
        self.secrets = (secrets or Secrets()).with_values(api_key, *url_secrets(base_url))
        self._timeout_s = timeout_s
        self._http_factory = http_factory or (lambda: httpx.AsyncClient(
            timeout=httpx.Timeout(timeout_s), follow_redirects=False, trust_env=False))

    def __repr__(self) -> str:  # never the key
        return f"OpenAIChatModel({self.label!r}, {self.model!r}, api_key={'set' if self._api_key else 'none'})"

    async def respond(self, request: ModelRequest, on_text: TextListener | None = None) -> ModelTurn:
        """Ask for the answer streamed; ``on_text`` hears its text so far (scrubbed) as it arrives.
        A server that answers with one JSON body instead is read as before."""
        body: dict[str, Any] = {"model": self.model, "messages": list(request.messages),
                                "stream": True, "stream_options": {"include_usage": True}}
        if request.tools:
            body["tools"] = list(request.tools)
            body["tool_choice"] = "auto"
        if request.max_tokens is not None:
            body["max_tokens"] = request.max_tokens
        headers = {"Content-Type": "application/json", "Accept": "text/event-stream, application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        streamed: dict[str, Any] | None = None
        raw = b""
        async with self._http_factory() as http:
            try:
                async with http.stream("POST", self.url, content=json.dumps(body), headers=headers) as response:
                    status = response.status_code
                    if status < 300 and is_event_stream(response):
                        streamed = await read_stream(response, self.secrets, MAX_ANSWER_BYTES, on_text)
                    else:
                        raw = await _read_capped(response, self.label)
            except httpx.TimeoutException:
                raise ModelError(Message(N_("The model at {model} did not answer within {seconds} seconds."),
                                         {"model": self.label, "seconds": Number(self._timeout_s,
                                                                                 f"{self._timeout_s:g}")})) from None
            except StreamError as exc:
                if exc.quoted is not None:
                    raise ModelError(exc.about(self.label, excerpt=error_excerpt(exc.quoted, self.secrets))) from None
                raise ModelError(exc.about(self.label)) from None
            except httpx.DecodingError:  # reached: "could not be reached: DecodingError" said otherwise
                raise ModelError(StreamError(NOT_UNPACKED).about(self.label)) from None
            except httpx.HTTPError as exc:
                raise ModelError(Message(N_("The model at {model} could not be reached: {reason}. Check the model "
                                            "URL and that the model server runs."),
                                         {"model": self.label,
                                          "reason": connection_reason(exc) or type(exc).__name__})) from None
        if streamed is not None:
            return parse_answer(self.secrets.scrub_json(streamed), self.label)
        if status >= 300:
            raise ModelError(Message(_STATUS_SENTENCES.get(status, N_("The model at {model} answered HTTP {status}: "
                                                                      "{excerpt}")),
                                     {"model": self.label, "status": status,
                                      "excerpt": error_excerpt(raw.decode("utf-8", "replace"), self.secrets)}))
        try:
            answer = json.loads(raw)
        except ValueError:
            raise ModelError(Message(N_("The model at {model} answered with something that is not JSON."),
                                     {"model": self.label})) from None
        turn = parse_answer(self.secrets.scrub_parsed(answer, raw), self.label)
        if on_text is not None and turn.content:
            on_text(turn.content)  # the whole text at once
        return turn


#: What to do about the answers a wrong setting gets (a key, a name, an address), said before the
#: model's own words (which are quoted last: they may be cut).
_STATUS_SENTENCES = {
    401: N_("The model at {model} did not accept the API key (HTTP {status}); check the key. It said: {excerpt}"),
    403: N_("The model at {model} refused the request (HTTP {status}); check the API key and that it may use "
            "this model. It said: {excerpt}"),
    404: N_("The model at {model} answered HTTP {status} (not found); check the model name and the address (an "
            "OpenAI-compatible address usually ends in /v1). It said: {excerpt}"),
}


async def _read_capped(response: httpx.Response, label: str) -> bytes:
    chunks, size = [], 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > MAX_ANSWER_BYTES:
            raise ModelError(Message(N_("The model at {model} answered with more than {size} MiB; the answer was "
                                        "refused."), {"model": label, "size": MAX_ANSWER_BYTES // (1024 * 1024)}))
        chunks.append(chunk)
    return b"".join(chunks)


def error_excerpt(body: str, secrets: Secrets, limit: int = ERROR_EXCERPT_CHARS) -> str:
    """What an error body is quoted as: its ``error.message`` (OpenAI's shape) or its text, scrubbed
    of ``secrets`` *before* it is cut (a cut must not leave half a key), then at most ``limit``
    characters on one line, with a note when it was cut."""
    text = body
    try:
        parsed = json.loads(body)
    except ValueError:
        parsed = None
    if isinstance(parsed, dict):
        error = parsed.get("error")
        message = error.get("message") if isinstance(error, dict) else error
        if not isinstance(message, str):
            message = parsed.get("message") if isinstance(parsed.get("message"), str) else None
        if message:
            text = message
    cleaned = " ".join(text.split())
    # Only the head is scrubbed (a body may have megabytes); it reaches far enough past the cut
    # that a secret standing across the cut is whole in it.
    shown = " ".join(secrets.scrub(cleaned[:_SCRUBBED_HEAD_CHARS]).split())
    if not shown:
        return "(no text)"
    if len(shown) <= limit and len(cleaned) <= _SCRUBBED_HEAD_CHARS:
        return shown
    return f"{shown[:limit]}… (cut: the first {limit} of {len(cleaned):,} characters)"


def parse_answer(answer: Any, label: str) -> ModelTurn:
    """A chat-completions answer as a :class:`ModelTurn`, or :class:`ModelError` saying what is wrong."""
    def bad(template: str, **params: Any) -> ModelError:
        return ModelError(Message(template, {"model": label, **params}))

    if not isinstance(answer, dict):
        raise bad(N_("The model at {model} gave an answer this program cannot read: it is not a JSON object."))
    choices = answer.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise bad(N_("The model at {model} gave an answer this program cannot read: it has no choices."))
    message = choices[0].get("message")
    if not isinstance(message, dict):
        raise bad(N_("The model at {model} gave an answer this program cannot read: its first choice has no "
                     "message."))
    calls = []
    for index, call in enumerate(message.get("tool_calls") or []):
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            raise bad(N_("The model at {model} gave an answer this program cannot read: tool call {index} names "
                         "no function."), index=index)
        arguments = function.get("arguments", "{}")
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments or "{}")
            except ValueError:
                raise bad(N_("The model at {model} gave an answer this program cannot read: the arguments of tool "
                             "call {index} ({tool}) are not JSON."), index=index, tool=function["name"]) from None
        if not isinstance(arguments, dict):
            raise bad(N_("The model at {model} gave an answer this program cannot read: the arguments of tool "
                         "call {index} ({tool}) are not a JSON object."), index=index, tool=function["name"])
        call_id = call.get("id") if isinstance(call.get("id"), str) and call.get("id") else f"call_{index + 1}"
        calls.append(ToolCall(call_id, function["name"], arguments))
    usage = answer.get("usage") if isinstance(answer.get("usage"), dict) else {}

    def count(key: str) -> int | None:
        value = usage.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None

    content = message.get("content")
    finish = choices[0].get("finish_reason")
    return ModelTurn(content=content if isinstance(content, str) else "", tool_calls=tuple(calls),
                     finish_reason=finish if isinstance(finish, str) else None,
                     prompt_tokens=count("prompt_tokens"), completion_tokens=count("completion_tokens"),
                     total_tokens=count("total_tokens"), raw=answer)
