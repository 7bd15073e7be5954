"""The server's requests to the client (and the answers) and its notifications, as sentences:
shown under an operation's result and in a stored step's detail."""

from __future__ import annotations

import json
from typing import Any

from inspector.i18n import _, ngettext
from inspector.i18n.formatting import format_number
from inspector.mcp.server_requests import REQUEST_CUT_OFF
from inspector.runs.notices import said_once_each


def server_exchange_lines(payload: dict[str, Any]) -> list[str]:
    """What the server asked the client (and the answers) and its log messages, as sentences."""
    lines: list[str] = []
    for entry in payload.get("serverRequests") or ():
        if not isinstance(entry, dict):
            continue
        method, count = str(entry.get("method") or ""), entry.get("count") or 0
        if entry.get("declined") and _cut_off(entry):
            lines.append(ngettext("The server asked the client for {method} once; no answer was sent, as the operation "
                                  "ended while the client was answering (cancelled, say).",
                                  "The server asked the client for {method} {count} times; the last time no answer "
                                  "was sent, as the operation ended while the client was answering (cancelled, say).",
                                  count).format(method=method, count=count))
        elif entry.get("declined"):
            lines.append(ngettext("The server asked the client for {method} once; the client declined.",
                                  "The server asked the client for {method} {count} times; the client declined "
                                  "at least once.", count).format(method=method, count=count))
        else:
            lines.append(ngettext("The server asked the client for {method} once; the client answered.",
                                  "The server asked the client for {method} {count} times; the client answered.",
                                  count).format(method=method, count=count))
        for exchange in entry.get("exchanges") or ():
            asked, answered = exchange.get("asked"), exchange.get("answered")
            # A question the client answered with an error (its budget ran out while the dialog was open)
            # got no action: the line above says it declined (before: "the answer was ?").
            action = answered.get("action") if isinstance(answered, dict) else None
            if method == "elicitation/create" and isinstance(asked, dict) and isinstance(action, str):
                lines.append(_('The server asked "{message}"; the answer was {action}.').format(
                    message=asked.get("message", ""), action=action))
    for note, count in said_once_each(payload.get("serverNotifications") or ()):
        if note.get("method") == "notifications/message":
            data = note.get("data")
            lines.append(_("Server log ({level}): {text}").format(
                level=note.get("level") or "?", text=data if isinstance(data, str) else json.dumps(data)))
        else:
            lines.append(ngettext("The server sent {method}.", "The server sent {method} {count} times.",
                                  count).format(method=note.get("method", ""), count=format_number(count)))
    return lines


def _cut_off(entry: dict[str, Any]) -> bool:
    """Whether the last of the server's requests of this method got no answer: its operation ended first."""
    exchanges = entry.get("exchanges")
    last = exchanges[-1] if isinstance(exchanges, list) and exchanges else None
    answered = last.get("answered") if isinstance(last, dict) else None
    return isinstance(answered, dict) and answered.get("code") == REQUEST_CUT_OFF
