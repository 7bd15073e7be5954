"""Requests a server sends the client on the answer stream of a POST, and the client's replies.

Until the client supports elicitation, sampling and roots (a later step), it answers ``ping``
with an empty result and every other request with JSON-RPC error -32601 (method not found):
a request is never left unanswered, so a server that waits for the reply is not left hanging
until the operation's budget ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .sanitize import sanitize_remote_text

METHOD_NOT_FOUND = -32601
#: How much of a server-chosen method name is kept in reports and messages.
METHOD_NAME_LIMIT = 80


@dataclass(frozen=True)
class ServerRequestSeen:
    """A request the server sent the client while answering one of its legs, and the reply."""

    #: What the server asked for, e.g. ``elicitation/create`` (its text, sanitised and clipped).
    method: str
    #: The leg whose answer stream carried the request.
    leg_method: str
    #: True when the client declined it (-32601); False when it answered (``ping``).
    declined: bool
    #: The HTTP status the server gave the reply, or ``None`` when the reply could not be sent.
    reply_status: int | None


def is_server_request(obj: Any) -> bool:
    """An object with a string ``method`` and an ``id``: a request the client must answer."""
    if not isinstance(obj, dict) or not isinstance(obj.get("method"), str):
        return False
    request_id = obj.get("id")
    return isinstance(request_id, (str, int)) and not isinstance(request_id, bool)


def reply_to(request: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """The JSON-RPC response to a server's request, and whether it declines the request."""
    method = request["method"]
    if method == "ping":
        return {"jsonrpc": "2.0", "id": request["id"], "result": {}}, False
    return {"jsonrpc": "2.0", "id": request["id"],
            "error": {"code": METHOD_NOT_FOUND,
                      "message": "This client does not support {method} yet.".format(
                          method=shown_method(method))}}, True


def shown_method(method: object) -> str:
    """A server-chosen method name, safe to store and to quote."""
    return sanitize_remote_text(method, METHOD_NAME_LIMIT) or "(no method)"


def declined_sentence(methods: list[str]) -> str:
    """The sentence added to a failure that followed a declined request of the server."""
    names = ", ".join(methods)
    if len(methods) == 1:
        return ("The server had asked the client for {methods}, which this client declined (it does not "
                "support it yet); the server may have been waiting on that request.").format(methods=names)
    return ("The server had asked the client for {methods}, which this client declined (it does not "
            "support them yet); the server may have been waiting on those requests.").format(methods=names)
