"""The user name and password an address carries (``http://user:password@host/mcp``).

A configured server is stored under its address without them (:func:`.server.public_url`), so
they are kept as what HTTP makes of them: an ``Authorization: Basic …`` header, secret like any
header the user marks so. Never next to one the user configured: which one to send is theirs to say.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable
from urllib.parse import unquote, urlsplit

from .messages import N_, Message

AUTHORIZATION = "Authorization"


class CredentialsConflict(ValueError):
    """The address carries a user name and password and an ``Authorization`` header is configured
    too. ``sentence`` says so (without either credential)."""

    def __init__(self, address: str) -> None:
        self.sentence = Message(N_("{address} carries a user name and password, and an Authorization header is "
                                   "configured for it already, so nothing was saved"), {"address": address})
        super().__init__(str(self.sentence))


#: What more of an address after a password's first ``@`` the password takes when it holds ``@`` and then ``/``, ``?``
#: or ``#`` as typed (``bob:se@c/ret@host/mcp``, whose authority ends at the ``/``): up to the last ``@`` before any
#: ``=`` (a query parameter's value may hold one: ``?mail=a@b``), never one that begins a path segment (``host/@user``).
PASSWORD_TAIL = re.compile(r"^[^\s=]*[^/\s=]@")


def typed_user_info(url: str) -> str | None:
    """The user info of ``url`` whose password holds ``@`` and then ``/``, ``?`` or ``#`` as typed
    (``bob:se@c/ret`` of ``http://bob:se@c/ret@host/mcp``; its authority ends at that ``/``, and the HTTP
    library would take the host from inside the password); ``None`` for any other address."""
    scheme, found, rest = url.partition("://")
    end = min((index for index in (rest.find(c) for c in "/?#") if index >= 0), default=len(rest))
    user_info, at, host = rest[:end].rpartition("@")
    tail = PASSWORD_TAIL.match(host + rest[end:]) if found and at and ":" in user_info else None
    return f"{user_info}@{tail.group(0)[:-1]}" if tail else None


def basic_authorization(url: str) -> str | None:
    """The ``Authorization`` value (``Basic …``) of the user info of ``url``, decoded as the HTTP
    library decodes it (a password holding ``@`` and ``/`` as typed whole, :func:`typed_user_info`);
    ``None`` when the address carries no user name or password."""
    if (typed := typed_user_info(url)) is not None:
        user, _, password = typed.partition(":")
    else:
        try:
            parts = urlsplit(url)
            user, password = parts.username or "", parts.password or ""
        except ValueError:
            return None
    if not user and not password:
        return None
    pair = f"{unquote(user or '')}:{unquote(password or '')}".encode()
    return "Basic " + base64.b64encode(pair).decode("ascii")


def has_authorization(names: Iterable[str]) -> bool:
    """True when one of the header ``names`` is ``Authorization`` (names are not case sensitive)."""
    return any(name.lower() == AUTHORIZATION.lower() for name in names)


def credentials_header(url: str, address: str, configured: Iterable[str] = ()) -> str | None:
    """The ``Authorization`` value to keep for the user info of ``url`` (``None``: it has none).

    Raises :class:`CredentialsConflict` (quoting ``address``, the URL without them) when one of the
    ``configured`` header names is ``Authorization``."""
    value = basic_authorization(url)
    if value is not None and has_authorization(configured):
        raise CredentialsConflict(address)
    return value


__all__ = ["AUTHORIZATION", "PASSWORD_TAIL", "CredentialsConflict", "basic_authorization", "credentials_header",
           "has_authorization", "typed_user_info"]
