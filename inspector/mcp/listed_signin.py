"""A server's sign-in settings as ``servers --json`` lists them (``signin``), read back by ``servers import``.

The listing holds what the database keeps (the client id, how it authenticates, the client metadata document's
address, the grant, the scope, the key file's path) and whether a client secret is kept in the keyring;
``--with-secrets`` adds that secret (``client_secret``). A field that is not what the listing writes is left out,
as the other settings of an entry are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .signin.model import AUTH_METHODS

#: The grants a server is configured for (as ``inspector.store.signin_settings.STORED_GRANTS``).
LISTED_GRANTS = ("authorization-code", "client-credentials")
_TEXTS = ("client_id", "client_metadata_url", "scope", "client_key_file")


@dataclass(frozen=True)
class ListedSignIn:
    """The sign-in settings an entry gives: ``settings``, each well-formed field by its name (``client_id``,
    ``auth_method``, ``client_metadata_url``, ``grant``, ``scope``, ``client_key_file``); ``client_secret``: the
    secret ``--with-secrets`` listed (``None``: not listed, though ``client_secret_kept`` may say one is kept where it
    was listed)."""

    settings: Mapping[str, str] = field(default_factory=dict)
    client_secret_kept: bool = False
    client_secret: str | None = field(default=None, repr=False)

    @property
    def client_id(self) -> str | None:
        return self.settings.get("client_id")

    @property
    def secret_left_out(self) -> bool:
        """A client secret was kept where it was listed, and the listing leaves it out (``servers --json``)."""
        return self.client_secret_kept and self.client_secret is None


def listed_signin(value: Any) -> ListedSignIn | None:
    """The sign-in settings of an entry's ``signin``; ``None`` when it gives none."""
    if not isinstance(value, dict):
        return None
    settings = {name: value[name] for name in _TEXTS if isinstance(value.get(name), str) and value[name].strip()}
    if value.get("auth_method") in AUTH_METHODS:
        settings["auth_method"] = value["auth_method"]
    if value.get("grant") in LISTED_GRANTS:
        settings["grant"] = value["grant"]
    secret = value.get("client_secret") if isinstance(value.get("client_secret"), str) else None
    found = ListedSignIn(settings, value.get("client_secret_kept") is True or bool(secret), secret or None)
    return found if settings or found.client_secret_kept else None


__all__ = ["LISTED_GRANTS", "ListedSignIn", "listed_signin"]
