"""What one leg sent and received, redacted and bounded: its *exchange*, kept with the leg.

A :class:`WireRecorder` hears a channel's request (method, address, headers, body) and answer
(status, headers, then its body or each event of its stream, with the event's time from the
leg's start). :meth:`WireRecorder.exchange` gives the kept form, a plain JSON object:

``{"level", "request": {"method", "url", "headers", "body"?}, "answer": {"status", "headers",
"body"? | "events"?: [{"atMs", "data"}]}, "cut"?: {"bytes", "events"}}``

Headers are lists of ``[name, value]`` pairs, in the order sent. Nothing secret is kept: the values
of credential headers (by their name, or marked secret on the server) are replaced whole, and
every text passes the server's :class:`~.secrets.Secrets` (its known values, and the pattern rules
of the layer above when it gives them). Bodies are bounded: at most :data:`MAX_WIRE_BYTES` of body
and event text per leg, and :data:`MAX_HEAD_BYTES` of each head's header text; what was cut is counted
under ``cut``.

``level`` is one of :data:`WIRE_LEVELS`: ``off`` keeps nothing, ``headers`` the heads only,
``full`` (the default) the heads and the bounded bodies.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .secrets import REDACTED, Secrets, is_secret_header

OFF, HEADERS, FULL = "off", "headers", "full"
#: How much of what travelled a leg keeps.
WIRE_LEVELS = (OFF, HEADERS, FULL)
#: What a leg keeps unless the caller says otherwise.
DEFAULT_WIRE = FULL
#: The most body text (request body, answer body and events together) one leg keeps, in bytes.
MAX_WIRE_BYTES = 64 * 1024
#: The most header text (names and values) a leg keeps of each head, the request's and the answer's, in bytes.
MAX_HEAD_BYTES = 64 * 1024
#: The most events of one answer stream a leg keeps (the first ones).
MAX_WIRE_EVENTS = 1000
#: Raw bytes held beyond the bound while capturing, so that a secret spanning the cut is still
#: whole when it is redacted (the cut is made after redaction).
_MARGIN = 4096


def check_level(level: str) -> str:
    """``level`` when it is one of :data:`WIRE_LEVELS`; else :class:`ValueError`."""
    if level not in WIRE_LEVELS:
        raise ValueError(f"the wire level must be one of {', '.join(WIRE_LEVELS)}, got {level!r}")
    return level


def _text(data: bytes | bytearray | str) -> str:
    return data if isinstance(data, str) else bytes(data).decode("utf-8", "replace")


class WireRecorder:
    """Hears one leg's exchange as it travels; keeps it raw only until :meth:`exchange`."""

    def __init__(self, level: str, *, secrets: Secrets | None = None, secret_headers: Iterable[str] = (),
                 started_ns: int = 0, limit: int = MAX_WIRE_BYTES) -> None:
        self.level = check_level(level)
        self._secrets = secrets or Secrets()
        self._marked = frozenset(name.lower() for name in secret_headers)
        self._started_ns = started_ns
        self._limit = limit
        self._request: dict[str, Any] | None = None
        self._request_body: bytes | None = None
        self._status: int | None = None
        self._answered = False
        self._answer_headers: list[tuple[str, str]] | None = None
        self._body = bytearray()
        self._body_seen = 0
        self._events: list[tuple[float, str]] = []
        self._events_dropped = 0
        self._held = 0  # raw body bytes held (request, answer, events)
        self._dropped_bytes = 0

    @property
    def bodies(self) -> bool:
        return self.level == FULL

    def sent(self, method: str, url: str, headers: Iterable[tuple[str, str]], body: bytes | None = None) -> None:
        """The request as it went (a retried request replaces the one before: the answer is to it)."""
        self._request = {"method": method, "url": url, "headers": list(headers)}
        self._request_body = None
        self._held = 0
        if body is not None and self.bodies:
            self._request_body = self._hold(body)

    def answered(self, status: int | None, headers: Iterable[tuple[str, str]] = ()) -> None:
        """The answer's head (``status`` ``None`` on a line, which has none)."""
        self._status, self._answer_headers, self._answered = status, list(headers), True
        self._body.clear()
        self._events.clear()

    def body(self, chunk: bytes) -> None:
        """A chunk of the answer's body."""
        if not self.bodies:
            return
        self._body_seen += len(chunk)
        self._body += self._hold(chunk)

    def event(self, at_ns: int, data: str) -> None:
        """One event of the answer stream (its data), heard at ``at_ns`` on the leg's clock."""
        if not self.bodies:
            return
        if len(self._events) >= MAX_WIRE_EVENTS:
            self._events_dropped += 1
            self._dropped_bytes += len(data.encode("utf-8", "replace"))
            return
        raw = data.encode("utf-8", "replace")
        kept = self._hold(raw)
        self._events.append((round((at_ns - self._started_ns) / 1e6, 3), _text(kept)))

    def _hold(self, data: bytes) -> bytes:
        room = max(self._limit + _MARGIN - self._held, 0)
        kept = data[:room]
        self._held += len(kept)
        self._dropped_bytes += len(data) - len(kept)
        return bytes(kept)

    # -- the kept form ---------------------------------------------------------------------

    def exchange(self) -> dict[str, Any] | None:
        """The redacted, bounded exchange; ``None`` when nothing was sent (or the level is off)."""
        if self.level == OFF or self._request is None:
            return None
        budget = [self._limit]
        cut = [self._dropped_bytes]
        request = dict(self._request)
        request["url"] = self._scrub(request["url"])
        request["headers"] = self._headers(request["headers"], cut)
        if self._request_body is not None:
            request["body"] = self._bounded(_text(self._request_body), budget, cut)
        whole: dict[str, Any] = {"level": self.level, "request": request}
        if self._answered:
            answer: dict[str, Any] = {"status": self._status, "headers": self._headers(self._answer_headers or [], cut)}
            if self._events:
                answer["events"] = [{"atMs": at, "data": self._bounded(data, budget, cut)}
                                    for at, data in self._events]
            elif self.bodies and (self._body or self._body_seen):
                answer["body"] = self._bounded(_text(self._body), budget, cut)
            whole["answer"] = answer
        if cut[0] or self._events_dropped:
            whole["cut"] = {"bytes": cut[0], "events": self._events_dropped}
        return whole

    def _scrub(self, text: str) -> str:
        return self._secrets.scrub(text) if text else text

    def _headers(self, headers: Iterable[tuple[str, str]], cut: list[int]) -> list[list[str]]:
        """A head's headers, redacted, at most :data:`MAX_HEAD_BYTES` of their text (the rest counted in ``cut``):
        an agent's header of 1 MB made the exchange too large to store, and its run was not recorded."""
        budget, kept = [MAX_HEAD_BYTES], []
        for name, value in headers:
            if budget[0] <= 0:
                cut[0] += len(name.encode("utf-8")) + len(value.encode("utf-8"))
                continue
            shown = REDACTED if (is_secret_header(name) or name.lower() in self._marked) and value else value
            kept.append([self._bounded(name, budget, cut), self._bounded(shown, budget, cut)])
        return kept

    def _bounded(self, text: str, budget: list[int], cut: list[int]) -> str:
        """``text`` redacted, then cut to what is left of the leg's bound (counted in ``cut``)."""
        text = self._scrub(text)
        encoded = text.encode("utf-8")
        if len(encoded) <= budget[0]:
            budget[0] -= len(encoded)
            return text
        kept = encoded[:budget[0]].decode("utf-8", "ignore")
        cut[0] += len(encoded) - len(kept.encode("utf-8"))
        budget[0] = 0
        return kept


__all__ = ["DEFAULT_WIRE", "FULL", "HEADERS", "MAX_HEAD_BYTES", "MAX_WIRE_BYTES", "MAX_WIRE_EVENTS", "OFF",
           "WIRE_LEVELS", "WireRecorder", "check_level"]
