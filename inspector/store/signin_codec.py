"""Sign-in values as the keyring keeps them: JSON objects, read back only when they are exactly ours.

An entry under our name may have been written by an older version, another program or a person:
whatever does not have the fields and types written here (or names another server or issuer than
the entry's key) reads as nothing, and is never an error.
"""

from __future__ import annotations

import json
import math
from typing import Any

from inspector.mcp.signin.model import (
    AUTH_METHODS,
    METADATA_DOCUMENT,
    PRE_REGISTERED,
    REGISTERED,
    ClientIdentity,
    TokenSet,
)

#: Which shape of entry this is; a later shape gets a new number and this one still reads.
FORMAT = 1
_HOW = (PRE_REGISTERED, METADATA_DOCUMENT, REGISTERED)
#: Most redirect addresses read back for one client (a loopback client registers one or two).
_MOST_REDIRECTS = 16


def tokens_text(tokens: TokenSet) -> str:
    return json.dumps({"format": FORMAT, "kind": "tokens", "access_token": tokens.access_token,
                       "issuer": tokens.issuer, "resource": tokens.resource, "token_type": tokens.token_type,
                       "refresh_token": tokens.refresh_token, "expires_at": tokens.expires_at, "scope": tokens.scope,
                       "subject": tokens.subject, "dpop_key_pem": tokens.dpop_key_pem}, separators=(",", ":"))


def client_text(client: ClientIdentity) -> str:
    return json.dumps({"format": FORMAT, "kind": "client", "client_id": client.client_id, "issuer": client.issuer,
                       "how": client.how, "client_secret": client.client_secret, "auth_method": client.auth_method,
                       "private_key_pem": client.private_key_pem, "redirect_uris": list(client.redirect_uris)},
                      separators=(",", ":"))


def tokens_from_text(text: str | None, resource: str) -> TokenSet | None:
    """The tokens kept for ``resource``, or ``None`` if ``text`` is not tokens we wrote for it."""
    entry = _entry(text, "tokens")
    if entry is None:
        return None
    access, issuer, token_type = (_required(entry, name) for name in ("access_token", "issuer", "token_type"))
    expires_at = _seconds(entry.get("expires_at"))
    if expires_at is False:
        return None
    optional = {name: entry.get(name) for name in ("refresh_token", "scope", "subject", "dpop_key_pem")}
    if (None in (access, issuer, token_type) or entry.get("resource") != resource
            or not all(value is None or isinstance(value, str) for value in optional.values())):
        return None
    return TokenSet(access, issuer, resource, token_type, optional["refresh_token"],
                    expires_at, optional["scope"], optional["subject"],
                    optional["dpop_key_pem"])


def client_from_text(text: str | None, issuer: str) -> ClientIdentity | None:
    """The client kept for ``issuer``, or ``None`` if ``text`` is not a client we wrote for it."""
    entry = _entry(text, "client")
    if entry is None:
        return None
    client_id, how, method = (_required(entry, name) for name in ("client_id", "how", "auth_method"))
    secret, key = entry.get("client_secret"), entry.get("private_key_pem")
    redirects = entry.get("redirect_uris")
    if (client_id is None or how not in _HOW or method not in AUTH_METHODS or entry.get("issuer") != issuer
            or not all(value is None or isinstance(value, str) for value in (secret, key))
            or not isinstance(redirects, list) or len(redirects) > _MOST_REDIRECTS
            or not all(isinstance(uri, str) for uri in redirects)):
        return None
    return ClientIdentity(client_id, issuer, how, secret, method, key, tuple(redirects))


def _entry(text: str | None, kind: str) -> dict[str, Any] | None:
    if text is None:
        return None
    try:
        entry = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(entry, dict) or entry.get("format") != FORMAT or entry.get("kind") != kind:
        return None
    return entry


def _seconds(value: Any) -> float | None | bool:
    """A time as seconds (``None`` when absent); ``False`` when it is not one."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        seconds = float(value)
    except OverflowError:  # an integer of hundreds of digits
        return False
    return seconds if math.isfinite(seconds) else False


def _required(entry: dict[str, Any], name: str) -> str | None:
    value = entry.get(name)
    return value if isinstance(value, str) and value else None
