"""What a leg found, as a word for machines: the ``finding`` of a leg in ``call --json`` (and ``tools``,
``ping`` …) and in ``runs show --json``'s ``payload.legs``. The readable output and the window say the
same legs in words (:func:`inspector.i18n.words.leg_outcome_word`); both decide from the predicates of
:mod:`.refused_probe` and :mod:`.transport_probe`. The stored outcome stays as it is: a refused probe
``ok``, an unanswered probe and the refused POST ``failed``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .refused_probe import LegSeen, is_refused_probe, is_unanswered_probe, legs_seen
from .transport_probe import is_transport_found

#: A ``server/discover`` probe the server refused (stored ``ok``): it speaks the handshake era (not one refused
#: where the handshake after it was refused too and no older transport's stream opened: no server there).
ERA_PROBE_REFUSED = "era_probe_refused"
#: A ``server/discover`` probe a command server never answered (stored ``failed``), taken for the handshake era.
ERA_PROBE_UNANSWERED = "era_probe_unanswered"
#: The ``initialize`` POST refused with 404 or 405 (stored ``failed``), after which the older HTTP+SSE
#: transport's event stream opened: the transport was found.
TRANSPORT_FOUND = "transport_found"
FINDINGS = (ERA_PROBE_REFUSED, ERA_PROBE_UNANSWERED, TRANSPORT_FOUND)


def leg_finding(method: str, outcome: object, http_status: object, exchange: object = None,
                next_method: str | None = None, next_outcome: object = None,
                following: Sequence[LegSeen] = ()) -> str | None:
    """What the leg found (one of :data:`FINDINGS`), or ``None`` for a leg that found nothing but its answer
    (``following``: all the legs after it)."""
    if is_refused_probe(method, outcome, http_status, exchange, following):
        return ERA_PROBE_REFUSED
    if is_unanswered_probe(method, outcome, http_status, exchange, next_method):
        return ERA_PROBE_UNANSWERED
    if is_transport_found(method, outcome, http_status, next_method, next_outcome):
        return TRANSPORT_FOUND
    return None


def with_findings(legs: Sequence[Mapping[str, Any]], status_key: str,
                  exchanges: Sequence[object] | None = None) -> list[dict[str, Any]]:
    """Copies of ``legs`` (dicts with ``method``, ``outcome`` and the HTTP status under ``status_key``),
    each with its ``finding``; a leg's exchange is its own ``exchange`` or, given, ``exchanges``' entry."""
    found = []
    seen = legs_seen(legs, status_key)
    for number, leg in enumerate(legs):
        following = legs[number + 1] if number + 1 < len(legs) else {}
        exchange = exchanges[number] if exchanges is not None else leg.get("exchange")
        found.append({**leg, "finding": leg_finding(str(leg.get("method", "")), leg.get("outcome"),
                                                    leg.get(status_key), exchange, following.get("method"),
                                                    following.get("outcome"), seen[number + 1:])})
    return found


__all__ = ["ERA_PROBE_REFUSED", "ERA_PROBE_UNANSWERED", "FINDINGS", "TRANSPORT_FOUND", "leg_finding",
           "with_findings"]
