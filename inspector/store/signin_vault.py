"""Where sign-in state lives between processes: tokens per server, clients per authorization server.

:class:`KeyringVault` keeps them in the system keyring (service ``run-inspector``), one JSON entry
each, named for what it holds: ``signin tokens <resource>``, ``signin client <issuer>`` and, for a
client the user registered himself, ``signin client-secret <server url>``. Without a usable keyring
:func:`open_signin_vault` gives a :class:`ProcessVault`, which keeps them until the process ends
(``persistent`` is False, and the command line and the window say so).

Signing out (:meth:`KeyringVault.forget`) removes the server's tokens. A client registered with an
authorization server stays: it is keyed by that server's issuer, shared by every resource it
protects, and holds no one's sign-in; reusing it spares the authorization server a new registration
on each sign-in. :meth:`KeyringVault.forget_client` removes one (the authorization server refused
it, or the user wants everything gone).

Keyring calls may wait on the system (an unlock prompt): call them off the window's thread.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Protocol

from inspector.i18n import N_
from inspector.mcp.signin.model import ClientIdentity, MemoryVault, SignInVault, TokenSet

from .keyring_entries import KeyringEntries, usable_keyring
from .signin_codec import client_from_text, client_text, tokens_from_text, tokens_text

#: What the command line and the window say when sign-ins cannot outlive the process.
NOT_KEPT = N_("No system keyring is available: the sign-in lasts until Run Inspector ends, and you will sign in "
              "again next time.")


def tokens_account(resource: str) -> str:
    return f"signin tokens {resource}"


def client_account(issuer: str) -> str:
    return f"signin client {issuer}"


def client_secret_account(server_url: str) -> str:
    return f"signin client-secret {server_url}"


class SignInKeeper(SignInVault, Protocol):
    """A :class:`SignInVault` that also forgets a client and keeps the secret of a pre-registered
    client per server (what ``servers set --client-secret-env`` gives)."""

    def forget_client(self, issuer: str) -> None: ...
    def client_secret(self, server_url: str) -> str | None: ...
    def keep_client_secret(self, server_url: str, secret: str) -> bool: ...
    def forget_client_secret(self, server_url: str) -> None: ...


class ProcessVault(MemoryVault):
    """Sign-in state for this process only: the vault when there is no usable keyring."""

    persistent = False

    def __init__(self) -> None:
        super().__init__()
        self._secrets: dict[str, str] = {}

    def forget_client(self, issuer: str) -> None:
        self._clients.pop(issuer, None)

    def client_secret(self, server_url: str) -> str | None:
        return self._secrets.get(server_url)

    def keep_client_secret(self, server_url: str, secret: str) -> bool:
        """Kept for this process; ``False``: it will not be there next time."""
        self._secrets[server_url] = secret
        return False

    def forget_client_secret(self, server_url: str) -> None:
        self._secrets.pop(server_url, None)


class KeyringVault:
    """Sign-in state in the system keyring (``backend``: a ``keyring`` backend).

    A value the keyring refuses to take is kept in this process instead, and ``persistent``
    turns False (it will not be there next time). An entry that is not ours reads as nothing.
    Safe to call from several threads."""

    def __init__(self, backend: Any) -> None:
        self._entries = KeyringEntries(backend)
        self.persistent = True
        self._lock = threading.Lock()
        #: Entries the keyring did not take: account -> text (None: deleted here, the keyring refused).
        self._unsaved: dict[str, str | None] = {}
        #: What the keyring refused, in order: (``keep`` or ``remove``, the account, its answer).
        self.refused: list[tuple[str, str, str]] = []

    @property
    def problem(self) -> str | None:
        """What the keyring said when this thread's last call of it failed (``None``: it did not fail)."""
        return self._entries.problem

    def tokens(self, resource: str) -> TokenSet | None:
        return tokens_from_text(self._read(tokens_account(resource)), resource)

    def keep_tokens(self, tokens: TokenSet) -> None:
        self._write(tokens_account(tokens.resource), tokens_text(tokens))

    def client(self, issuer: str) -> ClientIdentity | None:
        return client_from_text(self._read(client_account(issuer)), issuer)

    def keep_client(self, client: ClientIdentity) -> None:
        self._write(client_account(client.issuer), client_text(client))

    def forget(self, resource: str) -> None:
        """Sign out of ``resource``: its tokens go (the client registered with its issuer stays)."""
        self._delete(tokens_account(resource))

    def forget_client(self, issuer: str) -> None:
        self._delete(client_account(issuer))

    def client_secret(self, server_url: str) -> str | None:
        secret = self._read(client_secret_account(server_url))
        return secret or None

    def keep_client_secret(self, server_url: str, secret: str) -> bool:
        """``True`` when the keyring took it (else it lasts until the process ends)."""
        return self._write(client_secret_account(server_url), secret)

    def forget_client_secret(self, server_url: str) -> None:
        self._delete(client_secret_account(server_url))

    def _read(self, account: str) -> str | None:
        with self._lock:
            if account in self._unsaved:
                return self._unsaved[account]
        return self._entries.read(account)

    def _write(self, account: str, text: str) -> bool:
        kept = self._entries.write(account, text)
        with self._lock:
            if kept:
                self._unsaved.pop(account, None)
            else:
                self._unsaved[account] = text
                self.persistent = False
                self.refused.append(("keep", account, self._entries.problem or "?"))
        return kept

    def _delete(self, account: str) -> None:
        gone = self._entries.delete(account)
        problem = self._entries.problem
        with self._lock:
            if gone:
                self._unsaved.pop(account, None)
            else:  # the keyring keeps it: this process at least no longer uses it
                self._unsaved[account] = None
                self.persistent = False
                self.refused.append(("remove", account, problem or "?"))


class LazyVault:
    """The vault of :func:`open_signin_vault`, opened when first used (finding the keyring costs a
    fifth of a second, which a command on a server that never asks for a sign-in does not pay).
    ``opened`` says whether it has been."""

    def __init__(self) -> None:
        self._vault: KeyringVault | ProcessVault | None = None

    @property
    def opened(self) -> bool:
        return self._vault is not None

    def _open(self) -> KeyringVault | ProcessVault:
        if self._vault is None:
            self._vault = open_signin_vault()
        return self._vault

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._open(), name)


def open_signin_vault(backend: Any | None = None) -> KeyringVault | ProcessVault:
    """The vault of this process: the system keyring's (or ``backend``'s), else one that lasts until
    the process ends (``persistent`` False: say :data:`NOT_KEPT`)."""
    backend = backend if backend is not None else usable_keyring()
    return KeyringVault(backend) if backend is not None else ProcessVault()


@dataclass(frozen=True)
class KeptSignIn:
    """What is kept for one server, for display: never a token, a secret or a key."""

    signed_in: bool
    issuer: str | None = None
    subject: str | None = None
    scope: str | None = None
    #: Wall-clock UTC seconds since the epoch (``None``: not said, or not signed in).
    expires_at: float | None = None
    #: A refresh token is kept (the sign-in renews itself when the access token expires).
    refreshable: bool = False
    client_id: str | None = None
    #: How the client is known to the issuer: ``pre-registered``, ``metadata-document``, ``registered``.
    client_how: str | None = None

    def to_dict(self) -> dict[str, object]:
        return {"signed_in": self.signed_in, "issuer": self.issuer, "subject": self.subject, "scope": self.scope,
                "expires_at": self.expires_at, "refreshable": self.refreshable, "client_id": self.client_id,
                "client_how": self.client_how}


def kept_sign_in(vault: SignInVault, resource: str) -> KeptSignIn:
    """What ``vault`` keeps for the server ``resource`` (its canonical resource), without secrets."""
    tokens = vault.tokens(resource)
    if tokens is None:
        return KeptSignIn(False)
    client = vault.client(tokens.issuer)
    return KeptSignIn(True, tokens.issuer, tokens.subject, tokens.scope, tokens.expires_at,
                      tokens.refresh_token is not None, client.client_id if client else None,
                      client.how if client else None)


__all__ = ["LazyVault", "NOT_KEPT", "KeptSignIn", "KeyringVault", "ProcessVault", "SignInKeeper", "client_account",
           "client_secret_account", "kept_sign_in", "open_signin_vault", "tokens_account"]
