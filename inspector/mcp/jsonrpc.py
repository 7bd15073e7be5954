"""Deciding what a JSON-RPC answer body means."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .messages import N_, Message
from .text import load_wire_json

#: How much of a string the server sent where a number belongs is kept (it is shown in a sentence).
_SENT_CHARS = 40


@dataclass(frozen=True)
class RpcAnswer:
    """A decoded JSON-RPC response: exactly one of ``result`` or the error fields is set."""

    result: dict[str, Any] | None = None
    error_code: int | None = None
    error_message: str | None = None
    #: The error's ``data`` (e.g. the versions a server supports), as the server sent it.
    error_data: Any = None
    #: The error's ``code`` as the server sent it (JSON text, a string clipped: ``"x"``) when it is not an integer,
    #: which JSON-RPC wants; ``error_code`` is then 0.
    error_code_sent: str | None = None

    @property
    def is_error(self) -> bool:
        return self.result is None


class NotAnAnswer(ValueError):
    """The body is not a usable JSON-RPC response; ``sentence`` says why, for the malformed error
    (``str()`` is its English)."""

    def __init__(self, sentence: Message) -> None:
        super().__init__(str(sentence))
        self.sentence = sentence


def decode_answer(obj: Any) -> RpcAnswer:
    """Decode a parsed JSON value, in the reference order: object, then error, then result."""
    if not isinstance(obj, dict):
        raise NotAnAnswer(Message(N_("the answer is not a JSON object")))
    error = obj.get("error")
    if isinstance(error, dict):
        code = error.get("code")
        if isinstance(code, float) and code.is_integer():  # -32601.0: JSON spells numbers one way
            code = int(code)
        whole = isinstance(code, int) and not isinstance(code, bool)
        message = error.get("message")
        return RpcAnswer(
            error_code=code if whole else 0,
            error_message=message if isinstance(message, str) else "no message",
            error_data=error.get("data"),
            error_code_sent=None if whole or "code" not in error else _as_sent(code),
        )
    result = obj.get("result")
    if isinstance(result, dict):
        return RpcAnswer(result=result)
    if error is not None:
        raise NotAnAnswer(Message(N_("its error is not a JSON object")))
    if "result" in obj:
        raise NotAnAnswer(Message(N_("its result is not a JSON object")))
    raise NotAnAnswer(Message(N_("it carries neither a result nor an error")))


def _as_sent(value: Any) -> str:
    """A value the server sent as JSON text, in ASCII (a control or bidirectional character as its escape: it is
    shown in a sentence), a string clipped, a list or an object by its brackets only."""
    if isinstance(value, dict):
        return "{…}"
    if isinstance(value, list):
        return "[…]"
    if isinstance(value, str) and len(value) > _SENT_CHARS:
        return json.dumps(value[:_SENT_CHARS])[:-1] + '…"'
    return json.dumps(value)


def decode_body(body: bytes, request_id: int | None = None) -> RpcAnswer:
    """Decode a plain JSON body (``application/json`` or no media type). With ``request_id``,
    an answer that names another request is refused."""
    if not body.strip():
        raise NotAnAnswer(Message(N_("the body is empty")))
    try:
        obj = load_wire_json(body)  # text repaired here, once
    except (ValueError, UnicodeDecodeError, RecursionError):  # hostile nesting is malformed too
        raise NotAnAnswer(Message(N_("the body is not valid JSON"))) from None
    if request_id is not None and isinstance(obj, dict) and not answers_request(obj, request_id):
        if "id" not in obj:
            raise NotAnAnswer(Message(N_("its answer carries no id")))
        raise NotAnAnswer(Message(N_("its answer is for another request (id {other}, not {ours})"),
                                  {"other": json.dumps(obj.get("id"))[:40], "ours": request_id}))
    return decode_answer(obj)


def answers_request(obj: dict[str, Any], request_id: int | None) -> bool:
    """Does this answer belong to the request ``request_id``?

    The ``id`` must be the same (a number is not its string, and ``true`` is not 1). An error
    with a ``null`` id also counts: JSON-RPC uses it when the server could not read our id.
    """
    answer_id = obj.get("id")
    if answer_id is None:
        return "error" in obj and "id" in obj
    return type(answer_id) is type(request_id) and answer_id == request_id


def is_answer(obj: Any) -> bool:
    """In an event stream: an object without ``method`` that has ``result`` or ``error``."""
    return isinstance(obj, dict) and "method" not in obj and ("result" in obj or "error" in obj)
