"""The sentences of a server not reached or lost: no connection, a broken one, a command that would
not start or a process that stopped answering, an address without the older transport's stream.

Each function gives the whole sentence of one :class:`~.errors.McpTransportError` factory, which
picks the kind; the words are here. No I/O.
"""

from __future__ import annotations

from .messages import N_, Message
from .sanitize import sanitize_remote_text


def unreachable(server: str, method: str, detail: str | Message) -> Message:
    detail = sanitize_remote_text(detail) if isinstance(detail, str) else detail
    if detail:
        return Message(N_("Could not reach the server {server} while sending {method}: {detail}. "
                          "Check that the server is running and the address is right."),
                       {"server": server, "method": method, "detail": detail})
    return Message(N_("Could not reach the server {server} while sending {method}: the connection "
                      "failed. Check that the server is running and the address is right."),
                   {"server": server, "method": method})


def connection_lost(server: str, method: str, detail: str | Message) -> Message:
    detail = sanitize_remote_text(detail) if isinstance(detail, str) else detail
    if detail:
        return Message(N_("The connection to the server {server} broke during {method}: {detail}."),
                       {"server": server, "method": method, "detail": detail})
    return Message(N_("The connection to the server {server} broke during {method}: the server "
                      "closed it."), {"server": server, "method": method})


def not_started(server: str, reason: Message) -> Message:
    return Message(N_("Could not start the server {server}: {reason}."), {"server": server, "reason": reason})


def process_ended(server: str, method: str, reason: Message) -> Message:
    return Message(N_("The server {server} stopped answering during {method}: {reason}."),
                   {"server": server, "method": method, "reason": reason})


def no_event_stream(server: str, reason: Message) -> Message:
    return Message(N_("The server {server} does not serve the older HTTP+SSE transport at this address: "
                      "{reason}."), {"server": server, "reason": reason})
