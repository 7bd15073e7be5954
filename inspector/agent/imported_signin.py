"""The sign-in settings an imported entry gives (``servers --json`` lists them), as a server keeps them.

Its client secret comes with them where ``--with-secrets`` listed it; a listing that leaves it out keeps the one the
server configured here keeps for the same client (as a secret header left out keeps its configured value), else none
is kept: the import says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from inspector.mcp.listed_signin import ListedSignIn
from inspector.store.signin_settings import SignInSetup

__all__ = ["ImportedSignIn", "imported_signin"]


@dataclass(frozen=True)
class ImportedSignIn:
    """The settings to keep (``client_secret_kept``: the configured secret stays), the secret to keep with them
    (``None``: none given), and whether the listing left out a secret that is not kept then."""

    setup: SignInSetup
    secret: str | None
    left_out: bool


def imported_signin(listed: ListedSignIn, configured: SignInSetup | None) -> ImportedSignIn:
    """``listed`` as the server keeps it, where it is ``configured`` so now (``None``: not configured)."""
    keeps = (listed.secret_left_out and configured is not None and configured.client_secret_kept
             and configured.client_id == listed.client_id)
    setup = SignInSetup(**listed.settings, client_secret_kept=keeps)
    return ImportedSignIn(setup, listed.client_secret, listed.secret_left_out and not keeps)
