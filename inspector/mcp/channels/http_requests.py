"""The head of a request over Streamable HTTP: the headers every message carries (the server's own,
ours, the session's, a DPoP proof), and those of a ``GET`` that opens or resumes an event stream."""

from __future__ import annotations

from ..server import ServerEndpoint
from .leg_messages import Session


def message_headers(server: ServerEndpoint, session: Session, method: str = "POST") -> dict[str, str]:
    """The headers of every message: the server's own, then ours (which win), then the session's;
    with a DPoP-bound sign-in, a fresh proof for this request (``method`` to the server's address)."""
    headers = dict(server.headers)
    if server.dpop is not None and server.signed_in:
        token = headers.get("Authorization", "").partition(" ")[2]
        headers.update(server.dpop.resource_headers(method, server.url, token))
    headers["Content-Type"] = "application/json"
    headers["Accept"] = "application/json, text/event-stream"
    if session.session_id:
        headers["Mcp-Session-Id"] = session.session_id
    if session.protocol_version:
        headers["MCP-Protocol-Version"] = session.protocol_version
    return headers


def stream_headers(server: ServerEndpoint, session: Session, last_event_id: str | None = None) -> dict[str, str]:
    """The headers of a ``GET`` that opens an event stream, or resumes one after ``last_event_id``."""
    headers = message_headers(server, session, "GET")
    del headers["Content-Type"]
    headers["Accept"] = "text/event-stream"
    if last_event_id is not None:
        headers["Last-Event-ID"] = last_event_id
    return headers
