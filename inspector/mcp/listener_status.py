"""Where a listening session stands (:class:`ListenerState`) and what the user needs to know about a
change of it (:class:`ListenerStatus`): what :class:`~.listening.ServerListener` reports."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .errors import McpTransportError
from .messages import Message


class ListenerState(str, Enum):
    """Where a listening session stands."""

    CONNECTING = "connecting"
    LISTENING = "listening"
    #: The session stands, but the server offers no standalone stream (405 or another refusal).
    NO_STREAM = "no_stream"
    RECONNECTING = "reconnecting"
    STOPPED = "stopped"


@dataclass(frozen=True)
class ListenerStatus:
    """A change of state, with what the user needs to know about it."""

    state: ListenerState
    #: Why it stopped on its own, ``None`` when stopped by the user: a :class:`Message` or the
    #: transport's error (``str()`` gives the English sentence; a display layer translates either).
    error: Message | McpTransportError | None = None
    #: The HTTP status of the refused ``GET`` (``NO_STREAM``).
    http_status: int | None = None
    #: Seconds until the next attempt (``RECONNECTING``).
    retry_in_s: float | None = None
    #: How often the stream was resumed or reopened so far.
    reconnects: int = 0
    #: Whether the listener has listened at all (``RECONNECTING``: a stream broke, not a first try failed).
    listened: bool = False
    #: Listening the stateless era's way (``LISTENING``): log lines come only to requests that ask for a level.
    stateless: bool = False
    #: The address speaks the older HTTP+SSE transport (``NO_STREAM``): no stream apart from an operation's.
    older_transport: bool = False
