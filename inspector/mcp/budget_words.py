"""The sentences of an operation stopped by its budget or by the user: a leg whose grant ran out, an
answer stream whose server asked to come back too late, a leg the budget left no time for, a cancel
before or after the work was sent.

Each function gives the whole sentence of one :class:`~.errors.McpTransportError` factory, which
picks the kind; the words are here (a leg's name said as :func:`.leg_names.leg_name` says it). No I/O.
"""

from __future__ import annotations

from .leg_names import leg_name
from .messages import N_, NP_, Message, Number, whole

#: The sentences of a cancel, stored in English with a cancelled step (and translated where shown).
CANCELLED_IN_FLIGHT = N_("You cancelled the operation after {method} had been sent to the server {server}, "
                         "before its answer arrived. Whether the server acted on it is unknown.")
CANCELLED_BEFORE_SEND = N_("You cancelled the operation before its request reached the server {server} "
                           "(during {method}); the work was not sent.")
#: Sentences no longer written but stored with older runs: kept in the catalogue, so that a step
#: recorded before their new wording is still said in the reader's language.
RETIRED_SENTENCES = (
    N_("{method} was not sent to the server {server}: the {budget}-second budget of this operation was used up "
       "by its earlier steps. The server was not asked; this is the configured operation budget (a setting you "
       "can raise), not a server that failed to answer."),
)


def _seconds(value: float) -> Number:
    return Number(value, f"{value:g}", "s")


def _decimals(value: float) -> Number:
    """At most two decimals, no trailing zeros: 0.4, 1.25, 2."""
    return Number(round(value, 2), f"{value:.2f}".rstrip("0").rstrip("."), "s")


def resume_too_late(server: str, method: str, budget_s: float, delay_s: float, remaining_s: float) -> Message:
    left = Number(round(remaining_s, 1), f"{remaining_s:.1f}", "s")
    params = {"server": server, "method": leg_name(method), "delay": _seconds(delay_s), "left": left,
              "budget": _seconds(budget_s)}
    # One plural per sentence: the form follows the time left; the delay is its own pair of sentences.
    if delay_s == 1:
        return NP_(
            "The server {server} closed the answer stream of {method} before answering and asked the client "
            "to come back in 1 second, but only {left} second was left of the {budget}-second budget, so "
            "the client stopped waiting.",
            "The server {server} closed the answer stream of {method} before answering and asked the "
            "client to come back in 1 second, but only {left} seconds were left of the "
            "{budget}-second budget, so the client stopped waiting.", params, count="left")
    return NP_(
        "The server {server} closed the answer stream of {method} before answering and asked the client "
        "to come back in {delay} seconds, but only {left} second was left of the {budget}-second "
        "budget, so the client stopped waiting.",
        "The server {server} closed the answer stream of {method} before answering and asked the "
        "client to come back in {delay} seconds, but only {left} seconds were left of the "
        "{budget}-second budget, so the client stopped waiting.", params, count="left")


def exhausted_budget(server: str, method: str, budget_s: float) -> Message:
    # Legs, not steps: a step is a run's (the model's, a tool's), and the step this sentence
    # stands in was itself the one whose legs (a slow handshake, say) spent the budget.
    return Message(N_("{method} was not sent to the server {server}: the {budget}-second budget of this "
                      "operation was used up by its earlier legs. The server was not asked; this is the "
                      "configured operation budget (a setting you can raise), not a server that failed "
                      "to answer."),
                   {"server": server, "method": leg_name(method), "budget": _seconds(budget_s)})


def timed_out(server: str, method: str, budget_s: float, granted_s: int, remaining_s: float | None) -> Message:
    """A grant is whole seconds, so it can be longer than what remained; the sentence then says so
    instead of claiming the budget held."""
    params: dict[str, object] = {"server": server, "method": leg_name(method), "budget": _seconds(budget_s),
                                 "granted": whole(granted_s)}
    if remaining_s is None or granted_s - remaining_s < 0.005:
        template = N_("The server {server} did not finish answering {method} within the {granted} s left of "
                      "the {budget}-second budget of this operation, so the request was stopped. The budget "
                      "is a setting you can raise if this server is slow but healthy.")
    elif budget_s - remaining_s < 0.005:
        template = N_("The server {server} did not finish answering {method} within the {granted} s granted "
                      "to it, so the request was stopped. The budget of this operation is {budget} s, but "
                      "each request is granted whole seconds (at least one), so it was given {granted} s and "
                      "the operation ran past its budget. The budget is a setting you can raise if this "
                      "server is slow but healthy.")
    else:
        params["remaining"] = _decimals(remaining_s)
        template = N_("The server {server} did not finish answering {method} within the {granted} s granted "
                      "to it, so the request was stopped. Only {remaining} s of the {budget}-second budget of "
                      "this operation were left when it was sent, but each request is granted whole seconds "
                      "(at least one), so it was given {granted} s and the operation ran past its budget. The "
                      "budget is a setting you can raise if this server is slow but healthy.")
    return Message(template, params)


def refresh_timed_out(server: str, issuer: str, budget_s: float, granted_s: int) -> Message:
    """A refresh of the sign-in (a leg of the operation) asks the authorization server, not ``server``."""
    return Message(N_("The authorization server {issuer} did not finish answering the refresh of the sign-in to "
                      "the server {server} within the {granted} s granted to it, so the operation was stopped. "
                      "The budget of this operation ({budget} s) is a setting you can raise if the "
                      "authorization server is slow but healthy."),
                   {"server": server, "issuer": issuer, "budget": _seconds(budget_s), "granted": whole(granted_s)})


def cancelled(server: str, method: str, in_flight: bool) -> Message:
    # Sent but unanswered: the server may have been working on it for a while (progress notes
    # prove it), so "on its way" would understate what may have happened.
    template = CANCELLED_IN_FLIGHT if in_flight else CANCELLED_BEFORE_SEND
    return Message(template, {"server": server, "method": leg_name(method)})
