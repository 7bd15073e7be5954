"""The user name and password an address carries (``http://user:password@host/mcp``).

A configured server is stored under its address without them (:func:`.server.public_url`), so
they are kept as what HTTP makes of them: an ``Authorization: Basic …`` header, secret like any
header the user marks so. Never next to one the user configured: which one to send is theirs to say.
"""

from __future__ import annotations

import base64
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


def basic_authorization(url: str) -> str | None:
    """The ``Authorization`` value (``Basic …``) of the user info of ``url``, decoded as the HTTP
    library reads and decodes it (RFC 3986: up to the last ``@`` before the first ``/``, ``?`` or ``#``);
    ``None`` when the address carries no user name or password."""
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


__all__ = ["AUTHORIZATION", "CredentialsConflict", "basic_authorization", "credentials_header", "has_authorization"]
