"""``servers set`` and ``servers import`` all or nothing: servers' settings and their secrets in the keyring change
together.

The settings were written, and the secrets put in the keyring, one after the other: a keyring that refused one
(locked) left the settings changed beside the secret kept before (a later call sent the old key, though the
command said it would be asked for), and a secret the change dropped was removed from the keyring all the same
(the server lost its working key, the new one not kept). Now the settings are written in one transaction, kept
only once the keyring kept every secret given; a secret the change drops is removed only then; and the entries
written before a refusal (or a Ctrl-C) get their earlier values back. The sign-in's client secret, which the sign-in
vault keeps (:class:`HeldVault`), and the servers a file imports change so too; ``servers remove`` takes a server's
settings away in one transaction, its secrets after it (:func:`changed_whole`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from inspector.i18n import N_
from inspector.i18n.messages import Message
from inspector.store import RunStore
from inspector.store.keyring_words import Sentences
from inspector.store.secrets import SecretKeeper
from inspector.store.signin_vault import KeyringVault, ProcessVault, client_secret_account, open_signin_vault

from .common import CancelledCommand, CommandError
from .keyring_refusals import NotingKeeper, NotPutBack, WrappedKeeper, not_put_back_sentences, not_saved_error
from .stopping import Terminated, sigterm_as_ctrl_c, work_done


class HeldKeeper(WrappedKeeper):
    """A :class:`SecretKeeper` for one change: what it writes can be taken back (:meth:`undo`), what it removes
    waits for the change to be kept (:meth:`done`). A secret whose earlier value the keyring would not give is
    not written (it could not be put back): it counts as not kept."""

    def __init__(self, keeper: SecretKeeper | None = None) -> None:
        super().__init__(keeper)
        #: The entries written: (server, account, the value before, or None when there was none).
        self._written: list[tuple[str, str, str | None]] = []
        self._removals: list[tuple[str, str]] = []
        #: What puts back the entries written elsewhere (the sign-in vault's, :class:`HeldVault`): server, account,
        #: and the call that puts it back, giving the keyring's answer when it would not.
        self._put_back: list[tuple[str, str, Callable[[], str | None]]] = []

    def save(self, server_url: str, header: str, value: str) -> bool:
        before = self._keeper.load(server_url, header)
        if self._keeper.problem is not None:
            return False
        # Noted before it is written: a stop landing as the keyring answers still has it put back.
        written = (server_url, header, before)
        self._written.append(written)
        kept = self._keeper.save(server_url, header, value)
        if not kept:
            self._written.remove(written)
        elif (server_url, header) in self._removals:  # dropped, then given again (a file imported): it stays
            self._removals.remove((server_url, header))
        return kept

    def load(self, server_url: str, header: str) -> str | None:
        return self._keeper.load(server_url, header)

    def delete(self, server_url: str, header: str) -> bool:
        self._removals.append((server_url, header))
        return True

    def done(self) -> None:
        """The change is kept: the entries it dropped are removed."""
        for server_url, header in self._removals:
            self._keeper.delete(server_url, header)

    def put_back_with(self, server_url: str, account: str, undo: Callable[[], str | None]) -> Callable[[], None]:
        """The entry ``account`` of the server written elsewhere in the keyring: ``undo`` puts it back when the change
        is not kept (giving the keyring's answer when it would not). Returns what takes ``undo`` off again (the
        keyring refused the write)."""
        undoing = (server_url, account, undo)
        self._put_back.append(undoing)
        return lambda: self._put_back.remove(undoing)

    def undo(self) -> list[NotPutBack]:
        """The change is not kept: the entries it wrote get their earlier values back (or go). Returns those the
        keyring would not put back (they may hold the value the change gave)."""
        missed = []
        for server_url, account, undo in reversed(self._put_back):
            answer = undo()
            if answer is not None:
                missed.append(NotPutBack(server_url, account, answer))
        for server_url, header, before in reversed(self._written):
            done = (self._keeper.delete(server_url, header) if before is None
                    else self._keeper.save(server_url, header, before))
            if not done:
                missed.append(NotPutBack(server_url, header, self._keeper.problem or "?"))
        return missed


class HeldVault:
    """The sign-in vault for one change, opened when first used: the client secret it keeps in the keyring is put
    back with the change's other secrets (``held``), and a refusal to keep it is noted with theirs (``keeper``),
    so the change is not kept. Without a keyring it is kept for this process only, as before (and said so)."""

    def __init__(self, held: HeldKeeper, keeper: NotingKeeper) -> None:
        self._held = held
        self._keeper = keeper
        self._vault: KeyringVault | ProcessVault | None = None

    def _opened(self) -> KeyringVault | ProcessVault:
        if self._vault is None:
            self._vault = open_signin_vault()
        return self._vault

    def keep_client_secret(self, server_url: str, secret: str) -> bool:
        vault = self._opened()
        if not isinstance(vault, KeyringVault):
            return vault.keep_client_secret(server_url, secret)
        before = vault.client_secret(server_url)
        kept = False
        if vault.problem is None:
            # Noted before it is written: a stop landing as the keyring answers still has it put back.
            def put_back() -> str | None:
                if before is None:
                    vault.forget_client_secret(server_url)
                elif vault.keep_client_secret(server_url, before):
                    return None
                return vault.problem

            taken_off = self._held.put_back_with(server_url, client_secret_account(server_url), put_back)
            kept = vault.keep_client_secret(server_url, secret)
            if not kept:
                taken_off()
        if not kept:
            self._keeper.refused.append(("keep", server_url, client_secret_account(server_url), vault.problem or "?"))
        return kept

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._opened(), name)


class _NotKept(Exception):
    """The keyring refused to keep a secret of the change: its settings are not kept either."""


@contextmanager
def changed_whole(store: RunStore, held: HeldKeeper, refused: Callable[[list[NotPutBack]], CommandError | None],
                  stopped: Callable[[bool, list[NotPutBack]], object]) -> Iterator[None]:
    """Within the block the servers are changed in one transaction, their secrets through ``held``: kept when
    ``refused`` (asked at the block's end) finds nothing the keyring refused, else (or on a Ctrl-C, a SIGTERM, an
    error) neither the settings nor the keyring change, and the command ends with its error, or ``stopped``'s
    sentence (given whether a SIGTERM ended it: it killed the command half way). Each is given the entries the
    keyring would not put back (``[]``: it put back every one), to say so rather than that all was left as it was.
    Once the settings are kept, the entries the change dropped are removed and the command ends as it would have,
    whatever stop comes."""
    try:
        with sigterm_as_ctrl_c(), store.transaction():
            yield
            if refused([]) is not None:
                raise _NotKept
            # From the COMMIT on a Ctrl-C or SIGTERM changes nothing: one landing in it or just after it undid the
            # keyring's entries of settings kept, and said they were left as they were.
            work_done()
    except _NotKept:
        error = refused(held.undo())
        assert error is not None  # found before the undo: found again
        raise error from None
    except KeyboardInterrupt as stop:
        raise CancelledCommand(stopped(isinstance(stop, Terminated), held.undo())) from None
    except BaseException:
        held.undo()
        raise
    held.done()


@contextmanager
def saved_whole(store: RunStore, held: HeldKeeper, keeper: NotingKeeper, key: str, shown: str) -> Iterator[None]:
    """:func:`changed_whole` for the server ``key`` (``shown`` so), with ``keeper`` noting ``held``'s refusals."""
    def stopped(terminated: bool, missed: list[NotPutBack]) -> object:
        if missed:  # its settings only: a secret may hold the value given
            return Sentences((Message(
                N_("Ended by a signal (SIGTERM) before {server} was saved: its settings were left as they were.")
                if terminated else
                N_("Cancelled (Ctrl-C) before {server} was saved: its settings were left as they were."),
                {"server": shown}), *not_put_back_sentences(missed, {key: shown})))
        return Message(
            N_("Ended by a signal (SIGTERM) before {server} was saved: its settings and its secrets were left as "
               "they were.") if terminated else
            N_("Cancelled (Ctrl-C) before {server} was saved: its settings and its secrets were left as they were."),
            {"server": shown})

    with changed_whole(store, held, lambda missed: not_saved_error(keeper, key, shown, missed), stopped):
        yield


__all__ = ["HeldKeeper", "HeldVault", "changed_whole", "saved_whole"]
