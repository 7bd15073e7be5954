"""One leg of an operation: a single request on the wire and how it went.

A tool call may take several requests (e.g. ``initialize`` and then
``tools/call``); each one gets a leg so a slow or failing hop is visible
in the run without reading transport logs.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .outcome import ToolOutcome
from .sentences import N_, SaidError, describe, said

#: The most a leg's stored exchange may take as JSON text (a stranger's file may hold any size; the
#: recorder keeps 64 KB of bodies, plus heads and escaping).
MAX_EXCHANGE_CHARS = 256 * 1024


class InvalidLegError(SaidError):
    """A leg, or the stored form of one, breaks the rules of :class:`Leg`; ``sentence`` says which
    (``str()``: in English)."""


def _is_int(value: object) -> bool:
    # bool is a subclass of int; a stored true/false is never a count.
    return isinstance(value, int) and not isinstance(value, bool)


def _is_finite_non_negative(value: object) -> bool:
    if not (_is_int(value) or isinstance(value, float)):
        return False
    try:
        return math.isfinite(value) and value >= 0
    except OverflowError:  # an int too large to be a float
        return False


@dataclass(frozen=True)
class Leg:
    """A request made as part of an operation.

    ``granted_s`` is the time the deadline granted this leg (whole seconds),
    ``elapsed_ms`` how long it took, ``http_status`` the status the server
    answered with (``None`` when no answer came). ``outcome`` is one of
    ``ok``, ``failed``, ``not_sent`` or ``cancelled``.
    """

    # The three tool outcome strings are reused rather than respelled, so a
    # leg and its step never disagree on what "cancelled" is called.
    OK: ClassVar[str] = ToolOutcome.OK.value
    FAILED: ClassVar[str] = ToolOutcome.FAILED.value
    NOT_SENT: ClassVar[str] = "not_sent"
    CANCELLED: ClassVar[str] = ToolOutcome.CANCELLED.value
    OUTCOMES: ClassVar[tuple[str, ...]] = (OK, FAILED, NOT_SENT, CANCELLED)

    method: str
    granted_s: int | None
    elapsed_ms: float | None
    http_status: int | None
    outcome: str
    #: What travelled, redacted and bounded (``inspector.mcp.wire``): a JSON object, or ``None``
    #: when it was not kept (an older step, or the wire level ``off``).
    exchange: Mapping[str, Any] | None = field(default=None, hash=False)

    def __post_init__(self) -> None:
        if not isinstance(self.method, str) or not self.method:
            raise InvalidLegError(said(N_("method must be a non-empty string, got {value}"),
                                       value=describe(self.method)))
        if self.granted_s is not None and (not _is_int(self.granted_s) or self.granted_s < 0):
            raise InvalidLegError(said(N_("grantedS must be a non-negative whole number of seconds, got {value}"),
                                       value=describe(self.granted_s)))
        if self.elapsed_ms is not None:
            if not _is_finite_non_negative(self.elapsed_ms):
                raise InvalidLegError(said(N_("elapsedMs must be a finite non-negative number, got {value}"),
                                           value=describe(self.elapsed_ms)))
            object.__setattr__(self, "elapsed_ms", float(self.elapsed_ms))
        if self.http_status is not None and (
            not _is_int(self.http_status) or not 100 <= self.http_status <= 599
        ):
            raise InvalidLegError(said(N_("httpStatus must be an HTTP status (100-599), got {value}"),
                                       value=describe(self.http_status)))
        if self.outcome not in self.OUTCOMES:
            raise InvalidLegError(said(N_("outcome must be one of {choices}, got {value}"),
                                       choices=str(list(self.OUTCOMES)), value=describe(self.outcome)))
        # Normalise a str subclass (e.g. a ToolOutcome member) to plain str so
        # equality with a leg read back from storage holds.
        object.__setattr__(self, "outcome", str.__str__(self.outcome))
        if self.outcome == self.NOT_SENT and self.http_status is not None:
            raise InvalidLegError(said(N_("a leg that was not sent cannot have an HTTP status")))
        if self.exchange is not None:
            _check_exchange(self.exchange)

    def to_dict(self) -> dict[str, Any]:
        """Return the stored form; every key is present, ``None`` as null (``exchange`` only when kept)."""
        stored = {
            "method": self.method,
            "grantedS": self.granted_s,
            "elapsedMs": self.elapsed_ms,
            "httpStatus": self.http_status,
            "outcome": self.outcome,
        }
        if self.exchange is not None:
            stored["exchange"] = self.exchange
        return stored

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Leg:
        """Read a leg back from its stored form; unknown keys are ignored.

        Raises :class:`InvalidLegError` naming the offending key.
        """
        if cls is Leg and type(data) is dict:
            leg = _plain_leg(data)
            if leg is not None:
                return leg
        if not isinstance(data, Mapping):
            raise InvalidLegError(said(N_("a leg must be an object, got {value}"), value=describe(data)))
        for key in ("method", "outcome"):
            if key not in data:
                raise InvalidLegError(said(N_("a leg needs the key {key}"), key=repr(key)))
        return cls(
            method=data["method"],
            granted_s=data.get("grantedS"),
            elapsed_ms=data.get("elapsedMs"),
            http_status=data.get("httpStatus"),
            outcome=data["outcome"],
            exchange=data.get("exchange"),
        )


def _check_exchange(exchange: Any) -> None:
    """An exchange is a JSON object of plain values, about :data:`MAX_EXCHANGE_CHARS` as text at most
    (counted without quotes and separators: a little under its JSON text). Iterative: any depth."""
    if not isinstance(exchange, Mapping):
        raise InvalidLegError(said(N_("exchange must be an object, got {value}"), value=describe(exchange)))
    size = 0
    pending: list[Any] = [exchange]
    while pending:
        item = pending.pop()
        kind = type(item)
        if kind is str:
            size += len(item)
        elif kind is dict or isinstance(item, Mapping):
            for key, value in item.items():
                if type(key) is not str:
                    raise InvalidLegError(said(N_("exchange must be plain JSON (its keys strings)")))
                size += len(key)
                pending.append(value)
        elif kind is list or kind is tuple:
            pending.extend(item)
        elif item is None or kind is bool or kind is int or (kind is float and math.isfinite(item)):
            size += 4
        else:
            raise InvalidLegError(said(N_("exchange must be plain JSON, not {type}"), type=kind.__name__))
        if size > MAX_EXCHANGE_CHARS:
            raise InvalidLegError(said(N_("exchange must take at most {limit} characters"), limit=MAX_EXCHANGE_CHARS))


_PLAIN_OUTCOMES = {outcome: outcome for outcome in Leg.OUTCOMES}
_new = object.__new__
_set = object.__setattr__


def _plain_leg(data: dict[str, Any]) -> Leg | None:
    """The leg a valid stored form of plain types (as a JSON parser makes them) describes,
    built without running the checks again; ``None`` for anything else, which
    :meth:`Leg.from_dict` then checks in full (and refuses with its own message).

    Accepts exactly what ``__post_init__`` accepts unchanged, so the leg is the same.
    """
    get = data.get
    method, granted, elapsed, status, outcome = (get("method"), get("grantedS"), get("elapsedMs"),
                                                 get("httpStatus"), get("outcome"))
    if type(method) is not str or not method or type(outcome) is not str:
        return None
    outcome = _PLAIN_OUTCOMES.get(outcome)  # the one copy of the (equal) string: less memory per leg
    if outcome is None:
        return None
    if granted is not None and (type(granted) is not int or granted < 0):
        return None
    if elapsed is not None:
        if type(elapsed) is int and elapsed >= 0:
            try:
                elapsed = float(elapsed)
            except OverflowError:
                return None
        elif type(elapsed) is not float or not 0.0 <= elapsed < math.inf:
            return None
    if status is not None and (type(status) is not int or not 100 <= status <= 599 or outcome == Leg.NOT_SENT):
        return None
    exchange = get("exchange")
    if exchange is not None:
        return None  # checked in full
    leg = _new(Leg)
    _set(leg, "method", method)  # in field order, as the generated __init__ does: same layout
    _set(leg, "granted_s", granted)
    _set(leg, "elapsed_ms", elapsed)
    _set(leg, "http_status", status)
    _set(leg, "outcome", outcome)
    _set(leg, "exchange", None)
    return leg
