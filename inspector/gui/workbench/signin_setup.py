"""A server's sign-in settings as the window edits them (the server dialog's Sign-in (OAuth) section).

The settings go to the database at once (:class:`~inspector.store.signin_settings.StoredSignIn`,
one transaction); the client secret goes to the vault (the keyring) on the engine's worker, since
a keyring may wait on the system (an unlock prompt). What follows a save (the server selected
anew, its tools listed) waits until the secret is kept, so the next operation signs in with it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal

from inspector.i18n import _
from inspector.store.signin_settings import SignInSetup, StoredSignIn

from ..dialogs.signin_fields import SignInChoice

if TYPE_CHECKING:
    from .server_admin import ServerAdmin


class _Later:
    """A vault that notes the secret calls :meth:`StoredSignIn.save` makes, for the worker to make."""

    def __init__(self, persistent: bool) -> None:
        self.persistent = persistent
        self.keep: str | None = None
        self.forget = False

    def keep_client_secret(self, server_url: str, secret: str) -> bool:
        self.keep = secret
        return self.persistent

    def forget_client_secret(self, server_url: str) -> None:
        self.forget = True


class _Done(QObject):
    done = Signal(object)


def keeper(admin: ServerAdmin):
    """The window's vault if it keeps client secrets (it does outside tests), else ``None``. One not
    opened yet is not opened here: finding the keyring can wait on the system (the Secret Service
    asks D-Bus), so it is opened on the worker, by the first call made there."""
    vault = admin.engine.signins.vault
    return vault if getattr(vault, "opened", None) is False or hasattr(vault, "keep_client_secret") else None


def in_keyring(admin: ServerAdmin) -> bool:
    """Whether the sign-ins' secrets are kept in the keyring: the vault says so once it is open; until
    then, whether the window's secrets keeper found one (asked without waiting)."""
    vault = admin.engine.signins.vault
    if getattr(vault, "opened", None) is False:
        return admin.secrets.available
    return bool(getattr(vault, "persistent", False))


def dialog_setup(admin: ServerAdmin, url: str) -> SignInSetup | None:
    """The setup the dialog shows for ``url``. Without a keyring a secret given in this session is
    kept in memory (the database says none is kept): asking the memory does not block."""
    setup = StoredSignIn(admin.store).setup(url)
    vault = keeper(admin)
    if setup is not None and setup.client_id and not setup.client_secret_kept and vault is not None \
            and not in_keyring(admin) and vault.client_secret(url):
        setup = replace(setup, client_secret_kept=True)
    return setup


def save_signin(admin: ServerAdmin, url: str, choice: SignInChoice, replaces: str | None,
                then: Callable[[], None]) -> None:
    """Keep ``choice`` for the server ``url`` (which replaces ``replaces``, the same server or the one
    edited under another address), then call ``then`` on the GUI thread."""
    vault = keeper(admin)
    persistent = vault is not None and in_keyring(admin)
    stored = StoredSignIn(admin.store)
    old = stored.setup(url) if replaces in (None, url) else None  # a new server: its row is empty
    keeps = choice.setup.client_secret_kept
    moved = replaces is not None and replaces != url and keeps
    # Without a keyring the database never says "kept" (the secret lives in this process's memory).
    setup = replace(choice.setup, client_secret_kept=keeps and persistent)
    if old == setup and choice.secret is None:
        then()  # nothing changed: no keyring call
        return
    later = _Later(persistent)
    StoredSignIn(admin.store, later).save(url, setup, client_secret=choice.secret, replace_all=True)
    forget = choice.secret is None and not keeps
    if vault is None:
        then()
        return

    async def keep() -> tuple[bool, str | None]:
        def work() -> tuple[bool, str | None]:
            kept, problem = True, None
            secret = later.keep
            if moved and secret is None:  # the server's address changed: its kept secret follows it
                secret = vault.client_secret(replaces)
            if secret is not None:
                kept = vault.keep_client_secret(url, secret)
                problem = None if kept else getattr(vault, "problem", None)  # this thread's: read here
            elif forget:
                vault.forget_client_secret(url)
            if replaces is not None and replaces != url:
                vault.forget_client_secret(replaces)
            return kept, problem

        try:
            return await asyncio.to_thread(work)
        except Exception:  # noqa: BLE001 - a keyring that fails to answer: said, the settings stay saved
            return False, None

    _after(admin, keep, lambda done: _kept(admin, url, done, bool(later.keep), then))


def forget_signin(admin: ServerAdmin, url: str) -> None:
    """The server is removed: its sign-in settings go, and its client secret (on the worker)."""
    StoredSignIn(admin.store, _Later(False)).forget(url)
    vault = keeper(admin)
    if vault is None:
        return

    async def forget() -> bool:
        try:
            await asyncio.to_thread(vault.forget_client_secret, url)
        except Exception:  # noqa: BLE001 - a keyring that fails to answer: nothing more to do
            return False
        return True

    admin.engine.spawn(forget)


def _after(admin: ServerAdmin, work: Callable[[], object], then: Callable[[object], None]) -> None:
    done = _Done(admin)
    done.done.connect(lambda result: (then(result), done.deleteLater()), Qt.ConnectionType.QueuedConnection)

    async def run() -> None:
        done.done.emit(await work())  # type: ignore[misc]

    admin.engine.spawn(run)


def _kept(admin: ServerAdmin, url: str, done: tuple[bool, str | None], given: bool, then: Callable[[], None]) -> None:
    """``done``: whether the keyring kept the client secret, and its answer when it refused (``None``: there is
    none, or it did not answer)."""
    kept, problem = done
    if given and not kept:
        # The database said "kept"; it lasts until the window closes: said, and the flag put right.
        setup = StoredSignIn(admin.store).setup(url)
        if setup is not None:
            StoredSignIn(admin.store, _Later(False)).save(url, replace(setup, client_secret_kept=False),
                                                          replace_all=True)
        admin.say(_("No system keyring is available: the client secret is kept only until Run Inspector quits.")
                  if problem is None else _refused(admin, url, problem))
    admin.forget_endpoint(url)
    then()


def _refused(admin: ServerAdmin, url: str, problem: str) -> str:
    """What the keyring answered when it would not keep the client secret of ``url`` (a value longer than an
    entry holds, a locked item), as the window says it of a secret header."""
    from inspector.i18n.messages import translate
    from inspector.store.keyring_words import refused_message
    from inspector.store.signin_vault import client_secret_account

    record = admin.registry.get(url)
    name = record.name if record is not None and record.name else url
    return translate(refused_message("keep", name, url, [client_secret_account(url)], problem))


__all__ = ["dialog_setup", "forget_signin", "in_keyring", "keeper", "save_signin"]
