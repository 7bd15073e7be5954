"""The server's requests to the client (and the answers) and its notifications, as sentences:
shown under an operation's result and in a stored step's detail."""

from __future__ import annotations

import json
from typing import Any

from inspector.i18n import _, ngettext
from inspector.i18n.formatting import format_number
from inspector.runs.notices import said_once_each


def server_exchange_lines(payload: dict[str, Any]) -> list[str]:
    """What the server asked the client (and the answers) and its log messages, as sentences."""
    lines: list[str] = []
    for entry in payload.get("serverRequests") or ():
        if not isinstance(entry, dict):
            continue
        method, count = str(entry.get("method") or ""), entry.get("count") or 0
        if entry.get("declined"):
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
