"""Deciding what a JSON-RPC answer body means."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .text import load_wire_json


@dataclass(frozen=True)
class RpcAnswer:
    """A decoded JSON-RPC response: exactly one of ``result`` or the error fields is set."""

    result: dict[str, Any] | None = None
    error_code: int | None = None
    error_message: str | None = None

    @property
    def is_error(self) -> bool:
        return self.result is None


class NotAnAnswer(ValueError):
    """The body is not a usable JSON-RPC response; the text says why, for the malformed error."""


def decode_answer(obj: Any) -> RpcAnswer:
    """Decode a parsed JSON value, in the reference order: object, then error, then result."""
    if not isinstance(obj, dict):
        raise NotAnAnswer("the answer is not a JSON object")
    error = obj.get("error")
    if isinstance(error, dict):
        code = error.get("code")
        message = error.get("message")
        return RpcAnswer(
            error_code=code if isinstance(code, int) and not isinstance(code, bool) else 0,
            error_message=message if isinstance(message, str) else "no message",
        )
    result = obj.get("result")
    if not isinstance(result, dict):
        raise NotAnAnswer("it carries neither a result nor an error")
    return RpcAnswer(result=result)


def decode_body(body: bytes) -> RpcAnswer:
    """Decode a plain JSON body (``application/json`` or no media type)."""
    if not body.strip():
        raise NotAnAnswer("the body is empty")
    try:
        obj = load_wire_json(body)  # text repaired here, once
    except (ValueError, UnicodeDecodeError, RecursionError):  # hostile nesting is malformed too
        raise NotAnAnswer("the body is not valid JSON") from None
    return decode_answer(obj)


def is_answer(obj: Any) -> bool:
    """In an event stream: an object without ``method`` that has ``result`` or ``error``."""
    return isinstance(obj, dict) and "method" not in obj and ("result" in obj or "error" in obj)
