"""What a leg's tooltip says travelled, in the words of the leg's transport.

Over HTTP a leg has a status and a count of the bytes received. On a command's pipes (stdio) and
on the older HTTP+SSE transport a leg has neither: its request is one line written to the server's
stdin (or one POST), its answer one line read from stdout (or one event of the stream), and what
the client counts of that answer is its decoded JSON, not bytes off the pipe. So those legs are
said in lines and POSTs, and only as far as it is known (a stored leg that kept no exchange
records neither). A leg never sent says nothing of the wire at all.
"""

from __future__ import annotations

from collections.abc import Mapping

from inspector.i18n import _
from inspector.i18n.formatting import format_number

#: The transports whose legs travel as lines (no HTTP status of their own, no byte count).
LINE_TRANSPORTS = ("stdio", "sse")
#: The leg that opens each line (``inspector.mcp.line_opening``): it carries no message.
OPENING_LEGS = {"stdio": "start", "sse": "connect"}


def exchange_sides(exchange: object) -> tuple[bool | None, bool | None]:
    """(sent, answered) as a leg's kept exchange tells them; ``None`` where it kept nothing."""
    if not isinstance(exchange, Mapping):
        return None, None
    return isinstance(exchange.get("request"), Mapping), isinstance(exchange.get("answer"), Mapping)


def is_notification(method: str) -> bool:
    return method.startswith("notifications/")


def wire_words(transport: str, method: str, *, outcome: str | None, http_status: int | None,
               bytes_received: int | None, sent: bool | None, answered: bool | None) -> str:
    """The tooltip's line on what travelled ("" when the leg was never sent)."""
    if outcome == "not_sent":
        return ""
    if method == OPENING_LEGS.get(transport):  # the line being opened: no message of MCP travels yet
        return (_("starts the server's program; no message travels in this leg") if transport == "stdio"
                else _("opens the event stream (a GET); no message travels in this leg"))
    if transport not in LINE_TRANSPORTS:
        status = _("no answer") if http_status is None else str(http_status)
        if bytes_received is None:  # a replayed leg: its bytes were not recorded, so none are claimed
            return _("HTTP {status}").format(status=status)
        return _("HTTP {status}, {bytes} bytes received").format(status=status, bytes=format_number(bytes_received))
    if answered is None:
        if outcome == "ok" or (bytes_received or 0) > 0:
            answered = True  # an ok request got its answer; a count of it means it came
        elif bytes_received is not None:
            answered = False  # live: the count is made when an answer is read, and none was
    if answered:
        sent = True
    stdio = transport == "stdio"
    if is_notification(method) and sent is not False:
        return (_("1 line written to stdin (a notification: no answer expected)") if stdio
                else _("sent by POST (a notification: no answer expected)"))
    if answered:
        return _("1 line written to stdin, 1 line read from stdout") if stdio else \
            _("sent by POST, its answer read from the event stream")
    if sent and answered is False:
        return _("1 line written to stdin, no answer read from stdout") if stdio else \
            _("sent by POST, no answer on the event stream")
    if sent:
        return _("1 line written to stdin; what came back is not recorded") if stdio else \
            _("sent by POST; what came back is not recorded")
    if answered is False:  # live, nothing kept: no answer was read
        return _("no answer read from stdout") if stdio else _("no answer on the event stream")
    return _("what was written and read is not recorded") if stdio else _("what was sent and read is not recorded")


__all__ = ["LINE_TRANSPORTS", "OPENING_LEGS", "exchange_sides", "is_notification", "wire_words"]
