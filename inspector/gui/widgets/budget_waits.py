"""The legs of an operation that wait between rounds of a multi round-trip request.

In the stateless era a server that needs input answers ``input_required``; the client asks the
person (a question, a sampling approval) or answers by itself (the roots), then sends the request
again. That wait is a leg named ``input: <what was asked>``: time spent waiting on the person,
not on the server, drawn as a segment of its own kind ("waiting") and said in words of its own.
The wait counts against the budget like any leg: an operation has one deadline.
"""

from __future__ import annotations

from inspector.i18n import _

#: How the client names a leg that waits on the answers to a server's input requests.
INPUT_LEG_PREFIX = "input: "
#: What an input leg may wait for that only a person answers (the roots are answered at once).
ASKS_THE_PERSON = ("elicitation/create", "sampling/createMessage")
#: The segment kind of a waiting leg (beside running, ok, failed, ...).
WAITING = "waiting"


def is_input_leg(method: str) -> bool:
    """True for a leg that waits on input between rounds (``input: elicitation/create``)."""
    return method.startswith(INPUT_LEG_PREFIX)


def asks_the_person(method: str) -> bool:
    kinds = method[len(INPUT_LEG_PREFIX):].split(", ")
    return any(kind in ASKS_THE_PERSON for kind in kinds)


def waiting_words(method: str) -> str:
    """Who the leg waited on, in a few words: the label's and the legend's name of the kind."""
    return _("waiting on you") if asks_the_person(method) else _("answering the server")


def waiting_label(method: str, spent: str, grant: int | None) -> str:
    """The label on the segment: "waiting on you 4.2 s / grant 19 s"."""
    if grant is None:
        return _("{waiting} {spent}").format(waiting=waiting_words(method), spent=spent)
    return _("{waiting} {spent} / grant {grant} s").format(waiting=waiting_words(method), spent=spent, grant=grant)


def waiting_state(method: str) -> str:
    """The tooltip's state line of a waiting leg: what it waited on, and that it counts."""
    what = method[len(INPUT_LEG_PREFIX):]
    if asks_the_person(method):
        return _("waiting on you between rounds ({asked}); the wait counts against the budget").format(asked=what)
    return _("answering the server between rounds ({asked})").format(asked=what)
