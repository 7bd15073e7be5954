"""Who may use the proxy, and how much an agent may send: the checks made before anything is forwarded.

A web page in the user's browser can send requests to 127.0.0.1: cross-site (it then carries an
``Origin`` header naming the page's site) or, after DNS rebinding, under the page's own host name
(``Host: evil.example``). The MCP specification asks a local server to validate the ``Origin``
header and answer 403 to one that is not its own; the official SDKs also refuse a ``Host`` that
does not name this machine. The proxy does both, before the request reaches the server (which it
would reach under the proxy's own Host, past the server's own check) and before it is recorded.
Agents and SDK clients send no ``Origin`` and name the address they were given as ``Host``.

A request's body is held whole (its JSON-RPC message decides how it is recorded), so it is
bounded: :data:`MAX_AGENT_BODY_BYTES`, refused with 413 before it is read when its length is
announced, as soon as it grows past the bound otherwise. And the bodies of all requests the proxy
carries at once are bounded together (:class:`BodyBudget`): many connections sending large bodies
are answered 503 (retry later) rather than held.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from inspector.capture.connections import BODY_DEADLINE_S
from inspector.runs.loopback import is_loopback

MAX_AGENT_BODY_BYTES = 16 * 1024 * 1024
"""The largest body an agent may send through the proxy (the official SDKs' servers take 4 MiB)."""
MAX_HELD_BODY_BYTES = 64 * 1024 * 1024
"""The most bytes of agents' bodies the proxy holds at once, all requests together."""
#: The JSON-RPC error code of the proxy's own answers (the server's range of implementation errors).
PROXY_ERROR_CODE = -32000

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class Refused(Exception):
    """The request is answered by the proxy itself with ``status`` and ``sentence`` (English: a protocol message)."""

    def __init__(self, status: int, sentence: str) -> None:
        super().__init__(sentence)
        self.status = status
        self.sentence = sentence


def is_loopback_name(host: str) -> bool:
    """Does ``host`` (without its port) name this machine only: 127.0.0.0/8, ::1, localhost?"""
    return host.lower().endswith(".localhost") or is_loopback(host)


def _host_of(value: str) -> str | None:
    """The host name of a ``Host`` header value (``127.0.0.1:8808``, ``[::1]:8808``); ``None`` when malformed."""
    try:
        return urlsplit("//" + value).hostname
    except ValueError:
        return None


def check_origin(headers: list[tuple[str, str]], local_only: bool) -> None:
    """Raise :class:`Refused` for a request a web page sent: an ``Origin`` that is not this machine,
    or (when the proxy listens on loopback only) a ``Host`` that does not name this machine."""
    origin = next((value for name, value in headers if name.lower() == "origin"), None)
    if origin is not None:
        try:
            parts = urlsplit(origin.strip())
            allowed = parts.scheme in ("http", "https") and is_loopback_name(parts.hostname or "")
        except ValueError:
            allowed = False
        if not allowed:
            raise Refused(403, f"Run Inspector's proxy refuses requests from web pages: the Origin {origin[:100]!r} "
                               "is not this computer.")
    if local_only:
        host = next((value for name, value in headers if name.lower() == "host"), "")
        name = _host_of(host)
        if name is None or not is_loopback_name(name):
            raise Refused(421, f"Run Inspector's proxy answers only requests addressed to this computer "
                               f"(127.0.0.1 or localhost), not to {host[:100]!r}.")


class AgentGone(Exception):
    """The agent closed its connection before its request's body was whole: nothing to forward or record."""


class BodyBudget:
    """The bytes of bodies held by the requests in flight, all together (one event loop: no lock)."""

    def __init__(self, limit: int = MAX_HELD_BODY_BYTES) -> None:
        self.limit = limit
        self.held = 0

    def take(self, size: int) -> None:
        """Hold ``size`` more bytes; :class:`Refused` 503 when the budget has not that much left."""
        if self.held + size > self.limit:
            raise Refused(503, "Run Inspector's proxy holds as many request bodies as it takes at once; "
                               "retry later.")
        self.held += size

    def give_back(self, size: int) -> None:
        self.held -= size


async def read_body(headers: list[tuple[str, str]], receive: Receive, budget: BodyBudget,
                    deadline_s: float = BODY_DEADLINE_S) -> bytes:
    """The request's body, at most :data:`MAX_AGENT_BODY_BYTES` of it (:class:`Refused` 413 beyond),
    taken from ``budget`` (:class:`Refused` 503 when it runs out; what was taken is given back then,
    else when the caller gives back ``len(body)``). :class:`AgentGone` when the agent leaves before
    the body is whole (a cut request is never forwarded: the server would act on what the agent did
    not finish sending); :class:`Refused` 408 when it is not whole within ``deadline_s``."""
    length = next((value for name, value in headers if name.lower() == "content-length"), None)
    if length is not None and length.strip().isdigit() and int(length) > MAX_AGENT_BODY_BYTES:
        raise _too_large()
    chunks: list[bytes] = []
    size = 0
    loop = asyncio.get_running_loop()
    until = loop.time() + deadline_s
    try:
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(until - loop.time(), 0.0))
            except asyncio.TimeoutError:
                raise Refused(408, f"Run Inspector's proxy waited {deadline_s:g} s for the request's body, which "
                                   "did not arrive whole; it was not forwarded.") from None
            if message["type"] == "http.disconnect":  # before the last piece: the request was never sent whole
                raise AgentGone
            chunk = message.get("body", b"")
            if size + len(chunk) > MAX_AGENT_BODY_BYTES:
                raise _too_large()
            budget.take(len(chunk))
            size += len(chunk)
            chunks.append(chunk)
            if not message.get("more_body"):
                break
    except BaseException:
        budget.give_back(size)
        raise
    return b"".join(chunks)


def _too_large() -> Refused:
    return Refused(413, f"Run Inspector's proxy takes requests of at most {MAX_AGENT_BODY_BYTES // 1024 // 1024} MiB; "
                        "this one is larger and was not forwarded.")


async def answer_refusal(send: Send, refused: Refused) -> None:
    """The proxy's own answer: a JSON-RPC error without an id (as the MCP specification allows for a 403)."""
    body = json.dumps({"jsonrpc": "2.0", "id": None,
                       "error": {"code": PROXY_ERROR_CODE, "message": refused.sentence}}).encode("utf-8")
    await send({"type": "http.response.start", "status": refused.status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body, "more_body": False})
