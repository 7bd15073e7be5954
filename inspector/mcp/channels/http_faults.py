"""The HTTP library's failures of a leg's request, named as the leg's: a server that cannot be
reached, one that went away, one that answered with something that is not HTTP; each a
:class:`McpTransportError` naming the server, in words of ours."""

from __future__ import annotations

from collections.abc import Awaitable

import httpx

from ..connect_reasons import connection_reason
from ..errors import McpTransportError
from ..legs import LegWire
from ..messages import N_, Message
from .http_answers import StreamBroken
from .leg_messages import LegAnswer, OutgoingMessage, Session


async def named_failures(label: str, method: str, leg: OutgoingMessage, session: Session, wire: LegWire,
                         request: Awaitable[LegAnswer]) -> LegAnswer:
    """Await the HTTP request of a leg (``request``), the HTTP library's failures named as the leg's."""
    try:
        return await request
    except httpx.DecodingError:
        raise McpTransportError.malformed(
            label, method, Message(N_("its body could not be decoded as its Content-Encoding claims"))) from None
    except httpx.InvalidURL:
        # ServerEndpoint checks the address first; this is the last line of defence,
        # so that a bad address is a failed operation rather than a traceback.
        raise McpTransportError.unreachable(label, method, "the address cannot be used") from None
    except httpx.ConnectError as exc:
        raise McpTransportError.unreachable(label, method, connection_reason(exc) or _describe(exc)) from None
    except httpx.RemoteProtocolError as exc:
        if not _is_disconnect(exc):
            # Headers too large, a status line that is not HTTP...: the server answered, badly.
            raise McpTransportError.malformed(
                label, method, Message(N_("its HTTP response headers or framing are not valid ({reason})"),
                                       {"reason": _describe(exc)})) from None
        if session.stateless and wire.status == 200 and not leg.is_notification:
            raise StreamBroken(_lost(exc)) from None  # the answer stream broke: sent anew, not resumed
        # The library's own words ("Server disconnected without sending a response.") are
        # English only: the server went away, which connection_lost says without a detail.
        raise McpTransportError.connection_lost(label, method, connection_reason(exc) or "") from None
    except httpx.TransportError as exc:
        if session.stateless and wire.status == 200 and not leg.is_notification:
            raise StreamBroken(_lost(exc)) from None
        raise McpTransportError.connection_lost(label, method, connection_reason(exc) or _describe(exc)) from None


def _lost(exc: httpx.TransportError) -> Message:
    """Why a connection broke, in our words: the operating system's reason, else the server closed it."""
    return connection_reason(exc) or Message(N_("the server closed it"))


def _is_disconnect(exc: httpx.RemoteProtocolError) -> bool:
    """True when the server went away (rather than sent something that is not HTTP)."""
    text = str(exc).lower()
    return "disconnected" in text or "peer closed" in text or "connection closed" in text


def _describe(exc: Exception) -> str:
    text = str(exc)
    if not text:
        text = type(exc).__name__
    return text
