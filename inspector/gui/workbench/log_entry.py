"""One line of the Server log, as the listening session and the operations' sessions make it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class LogEntry:
    """One line of the server log: a log message, a request the server made on a stream, or the
    server's refusal of the log level asked for (``logging/setLevel``)."""

    #: When it arrived (UTC; shown in local time).
    at: datetime
    #: The message's level (debug … emergency); ``None`` for a request.
    level: str | None
    logger: str | None
    #: The message's data (any JSON value), or for a request what was asked and answered; a
    #: :class:`~inspector.mcp.messages.Message` for a line of the client's own (requests dropped, a
    #: sampling limit reached).
    data: Any
    server: str
    #: For a request: its method, and whether the client declined it.
    request: str | None = None
    declined: bool = False
    #: The operation whose session carried it ("#3 tools/call hang"); ``None``: the listening session.
    operation: str | None = None
    #: The request was the client's (``logging/setLevel``) and the server refused it; ``data`` is
    #: the error (a :class:`~inspector.mcp.McpTransportError`).
    refused: bool = False
