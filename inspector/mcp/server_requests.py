"""Requests a server sends the client, and the client's replies.

A server may ask the client for ``elicitation/create`` (a question for the user),
``sampling/createMessage`` (a model's answer), ``roots/list`` (the workspace roots) and
``ping``. Who answers is pluggable: a :class:`ServerRequestHandler` says what the client can
answer (its capabilities in ``initialize``) and answers; the command line and the window each
bring their own. :func:`answer_server_request` turns any request into a reply, always: an
unknown method gets -32601, a malformed request -32600, a handler that fails or outlives the
operation's deadline an error of its own. A request is never left unanswered.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from . import client_reasons as reasons
from .messages import NP_, Message
from .sampling_limits import SamplingLimitReached, SamplingLimits
from .sanitize import sanitize_remote_text

INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
#: The code the MCP specification uses when the user refuses a request (e.g. sampling).
USER_REFUSED = -1
#: The code for a request the client stopped waiting on (its operation's budget ran out).
REQUEST_TIMEOUT = -32001
#: The code kept for a request whose operation ended while it was being answered (cancelled, say): no
#: reply was sent; the number is the one the Language Server Protocol gives a cancelled request.
REQUEST_CUT_OFF = -32800
#: How much of a server-chosen method name is kept in reports and messages.
METHOD_NAME_LIMIT = 80
#: How much of a request's parameters or its reply is kept with a step (JSON characters).
RECORDED_JSON_LIMIT = 2000
#: The levels of ``notifications/message`` and ``logging/setLevel``, least severe first.
LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")


class RequestRefused(Exception):
    """Raised by a handler to answer with a JSON-RPC error: ``code`` and a whole sentence."""

    def __init__(self, code: int, message: str, data: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        #: The error's ``data`` (e.g. which sampling limit was reached), if any.
        self.data = data


@dataclass(frozen=True)
class ElicitationRequest:
    """An ``elicitation/create`` request in form mode, checked."""

    message: str
    #: The requested schema: a flat object of primitive properties.
    schema: dict[str, Any]
    #: Seconds of the operation's budget left when the request arrived (a dialog counts it down).
    remaining_s: float


@dataclass(frozen=True)
class Root:
    """A root the user configured for a server: a ``file://`` URI and an optional name."""

    uri: str
    name: str | None = None

    def to_dict(self) -> dict[str, str]:
        return {"uri": self.uri, **({"name": self.name} if self.name else {})}


Elicitor = Callable[[ElicitationRequest], Awaitable[dict[str, Any]]]
Sampler = Callable[[dict[str, Any], float], Awaitable[dict[str, Any]]]


@dataclass
class ServerRequestHandler:
    """What the client answers when a server asks it something.

    ``elicit`` answers ``elicitation/create`` with ``{"action", "content"?}``; ``sample`` answers
    ``sampling/createMessage`` (params, seconds left) with a message result, or raises
    :class:`RequestRefused`; ``roots`` are the roots configured for the server (``None``: the
    client does not offer roots). Each missing part is not declared in ``initialize`` and is
    answered with a clear error if the server asks anyway. No Qt, no I/O of its own: the
    command line and the window plug in their own elicitor and sampler.
    """

    elicit: Elicitor | None = None
    sample: Sampler | None = None
    roots: tuple[Root, ...] | None = None
    #: Why sampling is refused when ``sample`` is ``None`` (said to the server).
    sampling_refusal: str = reasons.SAMPLING_NOT_ALLOWED
    #: How many sampling requests servers may make (per operation, per server a minute, in all).
    sampling_limits: SamplingLimits = field(default_factory=SamplingLimits)

    def for_operation(self, server: str) -> ServerRequestHandler:
        """This handler as one operation with ``server`` uses it: its own count of sampling requests."""
        return replace(self, sampling_limits=self.sampling_limits.for_operation(server))

    def capabilities(self) -> dict[str, Any]:
        """What ``initialize`` declares: only what this handler can answer."""
        capabilities: dict[str, Any] = {}
        if self.elicit is not None:
            capabilities["elicitation"] = {"form": {}}
        if self.sample is not None:
            capabilities["sampling"] = {}
        if self.roots is not None:
            capabilities["roots"] = {"listChanged": False}
        return capabilities


@dataclass(frozen=True)
class ServerRequestSeen:
    """A request the server sent the client, and the reply."""

    #: What the server asked for, e.g. ``elicitation/create`` (its text, sanitised and clipped).
    method: str
    #: The leg whose answer stream carried the request (``GET`` for the standalone stream).
    leg_method: str
    #: True when the client answered with an error (not supported, refused, malformed, cut off).
    declined: bool
    #: The HTTP status the server gave the reply, or ``None`` when the reply could not be sent.
    reply_status: int | None
    #: What was asked (the request's params, clipped) and what was answered (result or error).
    asked: Any = None
    answered: Any = None
    #: How long the client took to answer, in milliseconds.
    elapsed_ms: float = 0.0


def is_server_request(obj: Any) -> bool:
    """An object with a ``method`` and an ``id``: a request the client must answer.

    The method need not be a string here: a request with a usable id but a bad method is
    still answered (with -32600).
    """
    if not isinstance(obj, dict) or "method" not in obj or "id" not in obj:
        return False
    request_id = obj.get("id")
    return isinstance(request_id, (str, int)) and not isinstance(request_id, bool)


def shown_method(method: object) -> str:
    """A server-chosen method name, safe to store and to quote."""
    if not isinstance(method, str):
        return "(no method)"
    return sanitize_remote_text(method, METHOD_NAME_LIMIT) or "(no method)"


def clipped(value: Any) -> Any:
    """A JSON value kept with a step: as it is when small, else its JSON text, clipped.

    A clipped object keeps its ``message`` (a question's words, which the step's summary says). A value clipped
    already is kept as it is (the recording proxy clips what it keeps of a server's message as it hears it)."""
    if _clipped_already(value):
        return value
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        return None
    if len(text) <= RECORDED_JSON_LIMIT:
        return value
    kept: dict[str, Any] = {"clippedJson": text[:RECORDED_JSON_LIMIT] + "…"}
    message = value.get("message") if isinstance(value, dict) else None
    if isinstance(message, str):
        kept["message"] = message[:RECORDED_JSON_LIMIT]
    return kept


def _clipped_already(value: Any) -> bool:
    """Whether ``value`` is what :func:`clipped` makes of a large value."""
    if not isinstance(value, dict) or not value.keys() <= {"clippedJson", "message"}:
        return False
    text, message = value.get("clippedJson"), value.get("message", "")
    return (isinstance(text, str) and len(text) <= RECORDED_JSON_LIMIT + 1 and text.endswith("…")
            and isinstance(message, str) and len(message) <= RECORDED_JSON_LIMIT)


def timed_out_reply(request_id: Any) -> dict[str, Any]:
    """The reply to a request the operation's time budget cut off."""
    return _error(request_id, REQUEST_TIMEOUT, reasons.STOPPED_WAITING)


def cut_off_reply(request_id: Any) -> dict[str, Any]:
    """What is kept of a request its operation's end cut off (cancelled, or answered without it): no reply
    was sent."""
    return _error(request_id, REQUEST_CUT_OFF, reasons.SENT_NO_ANSWER)


def _error(request_id: Any, code: int, message: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": error}


def _result(request_id: Any, result: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


async def answer_server_request(handler: ServerRequestHandler | None, request: dict[str, Any],
                                remaining_s: float) -> dict[str, Any]:
    """The JSON-RPC reply to a server's request. Never raises (but a cancel goes through).

    The handler gets at most ``remaining_s`` seconds (the operation's deadline): one that
    outlives it is cut off and the server is told the client stopped waiting.
    """
    handler = handler or ServerRequestHandler()
    request_id = request["id"]
    method = request.get("method")
    params = request.get("params", {})
    if not isinstance(method, str) or request.get("jsonrpc") != "2.0" or not isinstance(params, dict):
        return _error(request_id, INVALID_REQUEST, reasons.NOT_JSON_RPC)
    try:
        async with asyncio.timeout(max(remaining_s, 0.0)):
            return _result(request_id, await _dispatch(handler, method, params, remaining_s))
    except RequestRefused as refused:
        return _error(request_id, refused.code, refused.message, refused.data)
    except TimeoutError:
        return timed_out_reply(request_id)
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # noqa: BLE001 - a broken handler must still produce a reply
        return _error(request_id, INTERNAL_ERROR,
                      reasons.COULD_NOT_ANSWER.format(
                          method=shown_method(method), reason=sanitize_remote_text(str(exc)) or type(exc).__name__))


async def _dispatch(handler: ServerRequestHandler, method: str, params: dict[str, Any],
                    remaining_s: float) -> dict[str, Any]:
    if method == "ping":
        return {}
    if method == "elicitation/create":
        return await _elicit(handler, params, remaining_s)
    if method == "sampling/createMessage":
        if handler.sample is None:
            raise RequestRefused(USER_REFUSED, handler.sampling_refusal)
        if not isinstance(params.get("messages"), list):
            raise RequestRefused(INVALID_PARAMS, reasons.SAMPLING_NEEDS_MESSAGES)
        try:
            handler.sampling_limits.admit()  # before any dialog opens or any model is asked
        except SamplingLimitReached as limited:
            raise RequestRefused(USER_REFUSED, str(limited.sentence), limited.data()) from None
        return await handler.sample(params, remaining_s)
    if method == "roots/list":
        if handler.roots is None:
            raise RequestRefused(METHOD_NOT_FOUND, reasons.NO_ROOTS)
        return {"roots": [root.to_dict() for root in handler.roots]}
    raise RequestRefused(METHOD_NOT_FOUND, reasons.NOT_SUPPORTED.format(
        method=shown_method(method)))


async def _elicit(handler: ServerRequestHandler, params: dict[str, Any], remaining_s: float) -> dict[str, Any]:
    if handler.elicit is None:
        raise RequestRefused(METHOD_NOT_FOUND, reasons.NO_QUESTIONS)
    mode = params.get("mode", "form")
    if mode != "form":
        raise RequestRefused(INVALID_PARAMS, reasons.FORM_MODE_ONLY)
    message, schema = params.get("message"), params.get("requestedSchema")
    if not isinstance(message, str) or not isinstance(schema, dict):
        raise RequestRefused(INVALID_PARAMS, reasons.QUESTION_MALFORMED)
    answer = await handler.elicit(ElicitationRequest(message, schema, remaining_s))
    if answer.get("action") not in ("accept", "decline", "cancel"):
        raise RequestRefused(INTERNAL_ERROR, reasons.NO_VALID_ACTION)
    return answer


def declined_sentence(methods: list[str]) -> Message:
    """The sentence added to a failure that followed a declined request of the server."""
    return NP_("The server had asked the client for {methods}, which this client declined; the server "
               "may have been waiting on that request.",
               "The server had asked the client for {methods}, which this client declined; the server "
               "may have been waiting on those requests.", {"methods": ", ".join(methods), "count": len(methods)},
               count="count")
