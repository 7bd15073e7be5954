"""A refused era probe: told from its stored leg, and said in words.

In the ``auto`` era an operation first asks the server ``server/discover``. A server of the
handshake era refuses it (an HTTP error status, or a JSON-RPC error), and the client speaks the
handshake instead. That refusal is the probe's finding, not a fault: the leg is stored ``ok`` (and
counted so). Every view that shows such a leg says what happened in words instead of a bare "ok"
beside "HTTP 400": this module decides which legs those are, from what a leg keeps, and says what
the refusal found (the command line and the window take both from here).

A server started as a command may also say nothing at all to the probe: after a while the client
takes the silence for the handshake era and opens with ``initialize`` (see
``inspector.mcp.era_opening``). That leg is stored ``failed`` (it got no answer), inside an
operation that went on and may well end ``ok``; the views say what the silence found instead of
a bare "failed": :func:`is_unanswered_probe` tells it from the leg and the method of the leg after
it (the stored outcomes stay as they are).

An address where no MCP server answers (a web server's root, a wrong path) refuses the probe as well,
with 404, and then the handshake too. Given the legs after it, such a probe claims no era: its
operation found no server there (:func:`is_unserved_probe`), and it says what it saw, "answered HTTP
404" (:func:`unserved_probe_word`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from . import _
from .transport_probe import CONNECT_METHOD

#: A leg as the words of a leg before it need it: its method, outcome and HTTP status.
LegSeen = tuple[str | None, object, object]

#: The method with which the ``auto`` era asks a server which era it speaks.
PROBE_METHOD = "server/discover"


def is_refused_probe(method: str, outcome: object, http_status: object, exchange: object = None,
                     following: Sequence[LegSeen] = ()) -> bool:
    """Whether a leg is a ``server/discover`` probe the server refused, though stored ``ok``: its
    HTTP status is 400 or more, or (answered 200, or on a command's pipes) its kept exchange holds a
    JSON-RPC error. A leg that kept no exchange and got a 200 cannot be told apart: ``False``.
    ``following``: the legs after it (:func:`legs_seen`), which may show that no server answered
    there (:func:`is_unserved_probe`: then ``False``).

    ``outcome`` is the stored string or the client's ``LegOutcome`` (a ``str`` enum)."""
    if method != PROBE_METHOD or _word(outcome) != "ok":
        return False
    if _error_status(http_status):
        return not _no_server_after(following)
    return _answered_with_error(exchange)


def is_unserved_probe(method: str, outcome: object, http_status: object, following: Sequence[LegSeen]) -> bool:
    """Whether a leg is a ``server/discover`` probe refused with an HTTP error status (stored ``ok``) after
    which no MCP server answered at the address: the handshake's ``initialize`` was refused with an HTTP
    error status too, and no event stream of the older HTTP+SSE transport opened after it (a ``connect``
    leg that ended ``ok``, or still runs). Such a probe found only its status, not the server's era."""
    return (method == PROBE_METHOD and _word(outcome) == "ok" and _error_status(http_status)
            and _no_server_after(following))


def _no_server_after(following: Sequence[LegSeen]) -> bool:
    if not following:
        return False
    method, outcome, status = following[0]
    if method != "initialize" or _word(outcome) != "failed" or not _error_status(status):
        return False
    if len(following) < 2 or following[1][0] != CONNECT_METHOD:
        return True
    opened = following[1][1]
    return opened is not None and _word(opened) != "ok"  # a stream still being opened may yet be found


def unserved_probe_word(http_status: object) -> str:
    """What a ``server/discover`` probe saw where no server answered (its stored outcome stays ``ok``)."""
    return _("no era found: answered HTTP {status}").format(status=http_status)


def legs_seen(legs: Sequence[Any], status: str = "http_status") -> list[LegSeen]:
    """:data:`LegSeen` of each of ``legs`` (mappings, or objects with ``method``, ``outcome`` and the HTTP
    status under the name ``status``)."""
    if all(isinstance(leg, Mapping) for leg in legs):
        return [(leg.get("method"), leg.get("outcome"), leg.get(status)) for leg in legs]
    return [(getattr(leg, "method", None), getattr(leg, "outcome", None), getattr(leg, status, None)) for leg in legs]


def _error_status(status: object) -> bool:
    return isinstance(status, int) and not isinstance(status, bool) and status >= 400


def _word(outcome: object) -> str:
    """A stored outcome string, or the client's ``LegOutcome`` (a ``str`` enum), as its value."""
    return str(getattr(outcome, "value", outcome))


def refused_probe_word() -> str:
    """What a refused ``server/discover`` probe found (its stored outcome stays ``ok``)."""
    return _("not offered: the server speaks the handshake era")


def is_unanswered_probe(method: str, outcome: object, http_status: object, exchange: object,
                        next_method: str | None) -> bool:
    """Whether a leg is a ``server/discover`` probe that got no answer at all (stored ``failed``, no
    HTTP status, no answer kept) after which the operation opened with ``initialize``: the
    silence was taken for the handshake era. A probe that failed otherwise ended its operation
    there (no ``initialize`` after it), or kept the answer it failed on."""
    if method != PROBE_METHOD or next_method != "initialize" or http_status is not None:
        return False
    if str(getattr(outcome, "value", outcome)) != "failed":
        return False
    return not isinstance(exchange, Mapping) or not isinstance(exchange.get("answer"), Mapping)


def unanswered_probe_word() -> str:
    """What a ``server/discover`` probe found that got no answer (its stored outcome stays ``failed``)."""
    return _("no answer: taken for the handshake era")


def _answered_with_error(exchange: object) -> bool:
    """Whether a kept exchange's answer (its body, or an event of its stream) is a JSON-RPC error."""
    answer = exchange.get("answer") if isinstance(exchange, Mapping) else None
    if not isinstance(answer, Mapping):
        return False
    texts = [answer.get("body")]
    events = answer.get("events")
    if isinstance(events, list):
        texts.extend(event.get("data") for event in events if isinstance(event, Mapping))
    return any(_is_error_message(text) for text in texts if isinstance(text, str))


def _is_error_message(text: str) -> bool:
    try:
        message: Any = json.loads(text)
    except (ValueError, RecursionError):
        return False
    return isinstance(message, dict) and isinstance(message.get("error"), dict) and "result" not in message


__all__ = ["PROBE_METHOD", "LegSeen", "is_refused_probe", "is_unanswered_probe", "is_unserved_probe", "legs_seen",
           "refused_probe_word", "unanswered_probe_word", "unserved_probe_word"]
