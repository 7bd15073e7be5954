"""A refused Streamable HTTP POST that found the older HTTP+SSE transport: told from its stored leg, and
said in words.

An address is first spoken to as Streamable HTTP: the handshake's ``initialize`` is POSTed to it. A
server of the older HTTP+SSE transport (MCP 2024-11-05) takes no POST there and answers 404 or 405;
the client then opens the older transport's event stream (a ``connect`` leg) and does the handshake
on it, as the MCP specification's backwards-compatibility section prescribes (see
``inspector.mcp.line_opening``). The refused POST is how the transport was found, not a fault: its
leg stays stored ``failed`` (with its HTTP status), but every view says what it found instead of a
bare "failed" beside "HTTP 405", and the bars draw it neutral, as a ``server/discover`` probe that
found the era (:mod:`.refused_probe`). Only when the event stream did open: an address that refused
the POST and has no event stream either failed on that refusal, which stays a failure.
"""

from __future__ import annotations

from . import _

#: The HTTP statuses with which a server of the older transport refuses the POST (the client's
#: ``inspector.mcp.line_opening.LEGACY_STATUSES``, on which it falls back).
LEGACY_STATUSES = (404, 405)
#: The leg that opens the older transport's event stream after the refused POST.
CONNECT_METHOD = "connect"


def is_transport_found(method: str, outcome: object, http_status: object, next_method: str | None,
                       next_outcome: object) -> bool:
    """Whether a leg is the ``initialize`` POST a server refused with 404 or 405 (stored ``failed``)
    after which the client opened the older transport's event stream (the next leg, ``connect``,
    ended ``ok``). ``outcome`` and ``next_outcome``: the stored strings or the client's ``LegOutcome``."""
    return (next_method == CONNECT_METHOD and str(getattr(next_outcome, "value", next_outcome)) == "ok"
            and is_transport_refusal(method, outcome, http_status))


def is_transport_refusal(method: str, outcome: object, http_status: object) -> bool:
    """Whether a leg could be that POST once the ``connect`` after it opens (live: the bar draws it
    so while the event stream is being opened, and again as failed if it does not open)."""
    return (method == "initialize" and http_status in LEGACY_STATUSES and not isinstance(http_status, bool)
            and str(getattr(outcome, "value", outcome)) == "failed")


def transport_found_word(http_status: object) -> str:
    """What the refused POST found (its stored outcome stays ``failed``)."""
    return _("transport found: the server speaks the older HTTP+SSE transport (HTTP {status} to the "
             "Streamable HTTP POST)").format(status=http_status)


__all__ = ["CONNECT_METHOD", "LEGACY_STATUSES", "is_transport_found", "is_transport_refusal",
           "transport_found_word"]
