"""Which servers' tokens the operations changed, so that an operation's end reads the keyring again
only where something can have changed.

The operations' clients hold the window's vault through :class:`NotingVault`: a refresh inside an
operation (renewed tokens kept), a sign-in (tokens kept) and a refused refresh token (tokens
forgotten) each note their server. Reading the keyring after every operation instead cost a thread
and the interpreter lock at the moment the window shows the operation's end (Esc to shown
cancelled was 2 to 3 ms slower; benchmarks/gui_window.py).
"""

from __future__ import annotations

import threading
from typing import Any

from inspector.mcp.signin.model import SignInVault, TokenSet


class VaultChanges:
    """The servers (canonical resources) whose tokens changed since their operation last ended;
    noted on the worker, taken on the GUI thread."""

    def __init__(self) -> None:
        self._changed: set[str] = set()
        self._guard = threading.Lock()

    def note(self, resource: str) -> None:
        with self._guard:
            self._changed.add(resource)

    def take(self, resource: str) -> bool:
        """True (once) when ``resource``'s tokens changed since the last take."""
        with self._guard:
            if resource in self._changed:
                self._changed.discard(resource)
                return True
            return False


class NotingVault:
    """``vault`` as the operations' clients use it: every change of tokens is noted in ``changes``;
    anything else is the vault's own (reading, clients, whether it was opened)."""

    def __init__(self, vault: SignInVault, changes: VaultChanges) -> None:
        self._vault = vault
        self._changes = changes

    def __getattr__(self, name: str) -> Any:
        return getattr(self._vault, name)

    def keep_tokens(self, tokens: TokenSet) -> None:
        self._vault.keep_tokens(tokens)
        self._changes.note(tokens.resource)

    def forget(self, resource: str) -> None:
        self._vault.forget(resource)
        self._changes.note(resource)


__all__ = ["NotingVault", "VaultChanges"]
