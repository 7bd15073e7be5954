"""One line of the Server log, as the listening session and the operations' sessions make it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from inspector.i18n import _
from inspector.mcp.standalone import ServerNotification

#: The most characters of a log message's data a line keeps (its cell shows 300, its tooltip
#: 2,000): a server may send 2 MiB in one message, and the log keeps 5,000 lines.
MAX_DATA_CHARS = 4000


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
    #: A line a command server wrote on its stderr (``data`` is its text); ``source`` is the
    #: server's key (its Console window shows the lines of one key).
    stderr: bool = False
    source: str | None = None
    #: With ``stderr``: not the server's line but the client's sentence about its stdout (a line
    #: that is not JSON, too long, left unended); ``data`` is the :class:`~inspector.mcp.messages.Message`.
    stdout_fault: bool = False


def message_entry(note: ServerNotification, server: str, operation: str | None = None) -> LogEntry:
    """The line for a ``notifications/message``, made where it arrives (the worker thread): its
    data kept as text of at most :data:`MAX_DATA_CHARS` characters."""
    logger = note.params.get("logger")
    return LogEntry(datetime.now(timezone.utc), note.level or "info", logger if isinstance(logger, str) else None,
                    kept_data(note.params.get("data")), server, operation=operation)


def kept_data(data: Any) -> str:
    """A message's data as the line keeps it: a string as it is, anything else as compact JSON,
    cut after :data:`MAX_DATA_CHARS` characters (marked with an ellipsis)."""
    text = data_text(data)
    return text if len(text) <= MAX_DATA_CHARS else text[:MAX_DATA_CHARS] + "…"


def data_text(data: Any) -> str:
    """A message's data as one line of plain text: a string as it is, anything else as compact JSON."""
    if isinstance(data, str):
        return data
    try:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        return str(data)
    except RecursionError:
        return _("(nested too deeply to show)")
