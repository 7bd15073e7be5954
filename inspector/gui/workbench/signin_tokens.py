"""What the window knows of the tokens the vault keeps for each server (signed in or not).

The vault is the system keyring, else memory until the window closes (:func:`window_signin_vault`),
never the database. The keyring may wait on an unlock prompt, so it is read on the worker and the
answer crosses back to the GUI thread; a read begun before a sign-out or a sign-in's end is not
believed. After an operation the keyring is read again only for a server whose tokens that
operation changed (:mod:`.vault_changes`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, Signal

from inspector.mcp import ServerEndpoint
from inspector.mcp.signin.discovery import canonical_resource
from inspector.mcp.signin.model import SignInVault, TokenSet

from .operation_task import OperationTask
from .operations_worker import Work
from .vault_changes import NotingVault, VaultChanges


def window_signin_vault() -> SignInVault:
    """Where the window keeps tokens: the system keyring, else memory until the window closes.

    Found when first used (the keyring costs a fifth of a second, which the first paint does not wait for)."""
    from inspector.store.signin_vault import LazyVault

    return LazyVault()  # type: ignore[return-value]


class _Crossing(QObject):
    known = Signal(object)


class KeptTokens(QObject):
    """The tokens kept per server as last read, read again on the worker when they may have changed."""

    #: A read found a server's tokens other than the window knew them (the server's key).
    changed = Signal(str)

    def __init__(self, vault: SignInVault | None, spawn: Callable[[Work], None]) -> None:
        super().__init__()
        self.vault = vault if vault is not None else window_signin_vault()
        #: The servers whose tokens the operations changed (their clients hold :meth:`clients_vault`).
        self.changes = VaultChanges()
        self._spawn = spawn
        self._known: dict[str, TokenSet | None] = {}
        #: Bumped by each sign-out and sign-in's end: a read begun before it is not believed.
        self._generation: dict[str, int] = {}
        self._lock: asyncio.Lock | None = None
        #: Reads of the vault held back (see :meth:`hold_reads`); ``None``: none are.
        self._held: list[tuple[str, str]] | None = None
        self._crossing = _Crossing()
        self._crossing.known.connect(self._on_known, Qt.ConnectionType.QueuedConnection)

    def tokens(self, server: ServerEndpoint) -> TokenSet | None:
        """The tokens kept for ``server``, as last read. The keyring is read on the worker (it may
        wait on an unlock prompt): the first ask starts a read and says None until it is back."""
        if server.is_command:
            return None
        resource = canonical_resource(server.url)
        if resource not in self._known:
            self._known[resource] = None
            self.read(resource, server.key)
        return self._known[resource]

    def hold_reads(self) -> None:
        """Keep the vault's reads waiting until :meth:`release_reads` (the window's first paint does
        not share the interpreter with the keyring's loading)."""
        if self._held is None:
            self._held = []

    def release_reads(self) -> None:
        held, self._held = self._held or [], None
        for resource, key in held:
            self.read(resource, key)

    def read(self, resource: str, key: str) -> None:
        """Read the tokens of ``resource`` (the server ``key``'s) again, on the worker."""
        if self._held is not None:
            self._held.append((resource, key))
            return
        vault, crossing, generation = self.vault, self._crossing, self._generation.get(resource, 0)

        async def read() -> None:
            async with self._vault_lock():
                try:
                    tokens = await asyncio.to_thread(vault.tokens, resource)
                except Exception:  # noqa: BLE001 - a keyring that fails to answer: shown as not signed in
                    tokens = None
            crossing.known.emit((resource, key, tokens, generation))

        self._spawn(read)

    def _vault_lock(self) -> asyncio.Lock:
        """Reads and a sign-out's forget, one at a time in the order asked (made on the worker's loop)."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock

    def _on_known(self, known: tuple[str, str, TokenSet | None, int]) -> None:
        resource, key, tokens, generation = known
        if generation != self._generation.get(resource, 0):
            return  # read before a sign-out: what it found is gone
        if self._known.get(resource) != tokens:
            self._known[resource] = tokens
            self.changed.emit(key)

    def forget(self, server: ServerEndpoint) -> None:
        """Sign out: forget the server's tokens (on the worker; known as none at once)."""
        resource = canonical_resource(server.url)
        generation = self._generation[resource] = self._generation.get(resource, 0) + 1
        vault, crossing, key = self.vault, self._crossing, server.key

        async def forget() -> None:
            try:
                async with self._vault_lock():
                    await asyncio.to_thread(vault.forget, resource)
            finally:
                crossing.known.emit((resource, key, None, generation))

        self._known[resource] = None
        self._spawn(forget)

    def signin_ended(self, server: ServerEndpoint, tokens: TokenSet | None, stood: bool) -> None:
        """A sign-in to ``server`` ended (``stood``: it succeeded) with ``tokens``' public part."""
        resource = canonical_resource(server.url)
        if tokens is not None or stood:
            self._known[resource] = tokens
        # A read begun before the sign-in ended may answer after it, with what was kept before: not
        # believed (as after a sign-out); the read begun now says what the vault keeps.
        self._generation[resource] = self._generation.get(resource, 0) + 1
        self.read(resource, server.key)

    def clients_vault(self) -> SignInVault:
        """The vault as the operations' clients hold it: it notes whose tokens they change."""
        return NotingVault(self.vault, self.changes)  # type: ignore[return-value]

    def operation_ended(self, task: OperationTask) -> None:
        """An operation ended: a refresh or a sign-in inside it may have changed its server's tokens
        (read again only then: the keyring is not read after every operation)."""
        if not task.server.is_command:
            resource = canonical_resource(task.server.url)
            if self.changes.take(resource):
                self.read(resource, task.server.key)


__all__ = ["KeptTokens", "window_signin_vault"]
