"""How the client names a leg that is not simply its request's method, and those names as sentences.

A leg is named by its JSON-RPC method; a leg that answers the server, resumes a broken answer stream,
sends a request again or makes a later round of it is named after it (``tools/call (round 2)``); a
sign-in's legs have names of their own (``sign-in: token``). The
names are kept in English with the legs (``--json``, the database and exports); :func:`leg_name` gives
one as a :class:`Message`, for a display layer to say in the reader's language.
"""

from __future__ import annotations

from .client_reasons import filled
from .messages import N_, Message

#: The leg that resumes a leg's broken answer stream.
RESUMED_LEG = N_("{method} (resumed)")
#: The leg of a request sent again after its answer stream broke.
RESENT_LEG = N_("{method} (sent again)")
#: The leg of a later round of a request (the wire method stays the same).
ROUND_LEG = N_("{method} (round {round})")
#: The leg that waits on the answers to a server's input requests (the person, a model, the roots).
INPUT_LEG = N_("input: {kinds}")

#: The legs of a sign-in (and the refresh of one), named as :mod:`.signin.flow` runs them.
SIGNIN_RESOURCE = N_("sign-in: resource metadata")
SIGNIN_SERVER = N_("sign-in: authorization server")
SIGNIN_CLIENT = N_("sign-in: client")
SIGNIN_BROWSER = N_("sign-in: browser")
SIGNIN_TOKEN = N_("sign-in: token")
SIGNIN_IDENTITY = N_("sign-in: identity provider")
SIGNIN_REFRESH = N_("sign-in: refresh")
#: Where an operation the server refused until a sign-in was when it ended waiting for one (cancelled).
SIGNIN_WAIT = N_("sign-in")
_SIGNIN_LEGS = frozenset({SIGNIN_RESOURCE, SIGNIN_SERVER, SIGNIN_CLIENT, SIGNIN_BROWSER, SIGNIN_TOKEN, SIGNIN_IDENTITY,
                          SIGNIN_REFRESH, SIGNIN_WAIT})

_NAMES = (RESUMED_LEG, RESENT_LEG, ROUND_LEG, INPUT_LEG)
#: How deep names may nest ("tools/call (round 2) (resumed)" is two).
_DEPTH = 4


def leg_name(method: str, depth: int = 0) -> Message | str:
    """A leg's stored name as the client made it, to say in the reader's language; a plain method (or a
    name not of ours) as it is."""
    if method in _SIGNIN_LEGS:
        return Message(method)
    if depth < _DEPTH:
        for template in _NAMES:
            found = filled(template, method)
            if found is not None:
                values: dict[str, object] = dict(found.groupdict())
                if "method" in values:
                    values["method"] = leg_name(found["method"], depth + 1)
                return Message(template, values)
    return method


__all__ = ["INPUT_LEG", "RESENT_LEG", "RESUMED_LEG", "ROUND_LEG", "SIGNIN_BROWSER", "SIGNIN_CLIENT", "SIGNIN_IDENTITY",
           "SIGNIN_REFRESH", "SIGNIN_RESOURCE", "SIGNIN_SERVER", "SIGNIN_TOKEN", "SIGNIN_WAIT", "leg_name"]
